/* SPDX-License-Identifier: GPL-2.0 */
/*
 * insncount: a QEMU TCG plugin for tools/bench-attribute. Counts the
 * guest instructions executed at each guest virtual address, exactly
 * (an inline add before every instruction), and at exit writes one line
 * "ADDRESS COUNT" (hex, decimal) per address executed to out=FILE.
 *
 * For QEMU's plugin API version 1 (Debian 12's QEMU 7.2, whose packages
 * ship no plugin header): the declarations it uses are written out
 * here. Single-threaded TCG only, as -icount makes it: the adds are
 * plain, not atomic.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
						 enum qemu_plugin_op op, void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, udata_cb_t cb, void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

#define SLOTS (1u << 22)
struct slot { uint64_t addr; uint64_t count; };
static struct slot *table;
static unsigned long used;
static const char *out = "insncount.txt";

static struct slot *lookup(uint64_t addr)
{
	uint64_t h = (addr * 0x9E3779B97F4A7C15ull) >> 42;

	for (;; h = (h + 1) & (SLOTS - 1)) {
		struct slot *s = &table[h & (SLOTS - 1)];

		if (s->addr == addr)
			return s;
		if (!s->addr) {
			if (++used > SLOTS / 2) {
				fprintf(stderr, "insncount: table full\n");
				abort();
			}
			s->addr = addr;
			return s;
		}
	}
}

static void trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		struct slot *s = lookup(qemu_plugin_insn_vaddr(insn));

		qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
							   &s->count, 1);
	}
}

static void done(qemu_plugin_id_t id, void *p)
{
	FILE *f = fopen(out, "w");
	unsigned long i;

	if (!f) {
		perror(out);
		return;
	}
	for (i = 0; i < SLOTS; i++)
		if (table[i].count)
			fprintf(f, "%llx %llu\n", (unsigned long long)table[i].addr,
				(unsigned long long)table[i].count);
	fclose(f);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const void *info, int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "out=", 4))
			out = argv[i] + 4;
	table = calloc(SLOTS, sizeof(*table));
	if (!table)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, trans);
	qemu_plugin_register_atexit_cb(id, done, NULL);
	return 0;
}

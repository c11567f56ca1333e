/* SPDX-License-Identifier: GPL-2.0 */
/*
 * insncount: a QEMU TCG plugin for tools/bench-attribute. Counts the
 * guest instructions executed at each guest virtual address, exactly
 * (an inline add before every instruction), and sums them inside the
 * windows skbbench marks: from a start mark to an end mark (a timed
 * run), written out at each workload's end mark as dump=PREFIX.N (N
 * from 0), a "# windows K" line, then one "ADDRESS COUNT" line (hex,
 * decimal) per address executed in those K windows.
 *
 * The marks are skbbench's BENCH_MARK(): a 7-byte NOP, nopl
 * disp32(%rax), with displacement 0x534b4201 (start), 0x534b4202 (end)
 * or 0x534b4203 (workload end), in user space.
 *
 * For QEMU's plugin API version 1 (Debian 12's QEMU 7.2, whose packages
 * ship no plugin header): the declarations it uses are written out
 * here. Single-threaded TCG only, as -icount makes it: the adds and the
 * callbacks are not atomic.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
typedef void (*tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
						 enum qemu_plugin_op op, void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn, vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags, void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

#define SLOTS (1u << 22)
#define MARK 0x534b4200u
#define USER_END 0x800000000000ull

struct slot { uint64_t addr; uint64_t count; };
static struct slot *table;		/* open addressing, never moved */
static uint64_t *snap, *win;		/* by slot: count at start, sum of windows */
static uint32_t *used;			/* the slots in use, in order */
static unsigned long nused, windows, dumps;
static int open_window;
static const char *prefix = "insncount";

static struct slot *lookup(uint64_t addr)
{
	uint32_t h = (uint32_t)((addr * 0x9E3779B97F4A7C15ull) >> 42);

	for (;; h = (h + 1) & (SLOTS - 1)) {
		struct slot *s = &table[h];

		if (s->addr == addr)
			return s;
		if (!s->addr) {
			if (nused >= SLOTS / 2) {
				fprintf(stderr, "insncount: more than %u addresses\n", SLOTS / 2);
				abort();
			}
			used[nused++] = h;
			s->addr = addr;
			return s;
		}
	}
}

static void dump(void)
{
	char path[4096];
	unsigned long i;
	FILE *f;

	snprintf(path, sizeof(path), "%s.%lu", prefix, dumps++);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		abort();
	}
	fprintf(f, "# windows %lu\n", windows);
	for (i = 0; i < nused; i++) {
		uint32_t h = used[i];

		if (win[h])
			fprintf(f, "%llx %llu\n", (unsigned long long)table[h].addr,
				(unsigned long long)win[h]);
		win[h] = 0;
	}
	if (fclose(f)) {
		perror(path);
		abort();
	}
	windows = 0;
}

static void mark(unsigned int vcpu, void *kind)
{
	unsigned long i;

	switch ((uintptr_t)kind) {
	case 1:
		for (i = 0; i < nused; i++)
			snap[used[i]] = table[used[i]].count;
		open_window = 1;
		break;
	case 2:
		if (!open_window)
			break;
		/* a slot added inside the window has no snapshot: 0 */
		for (i = 0; i < nused; i++)
			win[used[i]] += table[used[i]].count - snap[used[i]];
		open_window = 0;
		windows++;
		break;
	case 3:
		dump();
		break;
	}
}

static void trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t vaddr = qemu_plugin_insn_vaddr(insn);
		struct slot *s = lookup(vaddr);
		const unsigned char *d;
		uint32_t disp;

		qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
							   &s->count, 1);
		if (vaddr >= USER_END || qemu_plugin_insn_size(insn) != 7)
			continue;
		d = qemu_plugin_insn_data(insn);
		if (d[0] != 0x0f || d[1] != 0x1f || d[2] != 0x80)
			continue;
		memcpy(&disp, d + 3, 4);
		if (disp >= MARK + 1 && disp <= MARK + 3)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark, QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)(disp - MARK));
	}
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const void *info, int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "dump=", 5))
			prefix = argv[i] + 5;
	table = calloc(SLOTS, sizeof(*table));
	snap = calloc(SLOTS, sizeof(*snap));
	win = calloc(SLOTS, sizeof(*win));
	used = calloc(SLOTS / 2, sizeof(*used));
	if (!table || !snap || !win || !used)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, trans);
	return 0;
}

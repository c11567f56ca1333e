// SPDX-License-Identifier: GPL-2.0
/*
 * skb_head_bench: bench-only module for tools/bench (skb-head-*), built
 * out of tree against the patched bench kernel only; not part of the
 * series. Every read of /proc/skb_head_bench runs three loops of
 * NHEADS skb heads each, timed with ktime_get_ns() (under qemu -icount
 * shift=0, one ns is one instruction), and prints
 *   <name> <heads> <ns> <slab heads>
 * lines, slab heads being 0 here (not counted in kernel).
 *
 *   skb-head-slab    build_skb() + consume_skb(): the slab pair
 *   skb-head-pair    build_skb_bh() + consume_skb_bh()
 *   skb-head-bulk64  napi_skb_cache_get_bulk(64) + build_skb_around() per
 *                    head, consume_skb_bh() per skb, one BH section per 64
 *   skb-head-bulk32  the same with batches of 32 (diagnostic: the size
 *                    of one refill of the cache, which holds 128 on 7.3;
 *                    on 6.12 it held 64, so a batch of 64 went half
 *                    through the slab there)
 *
 * the floors of the two (no allocator at all: the same loops around heads
 * the module allocated once and reuses, build_skb_around() for the init
 * and floor_release() for the release: what consume_skb() does to a
 * linear, uncloned skb besides freeing its head, skb_release_head_state()
 * and skb_release_data() up to page_frag_free() of the data, copied from
 * their inline parts as the functions are static; each floor its own
 * loop, with no branch the loop it is the floor of does not take):
 *
 *   skb-floor-pair    build_skb_around() + floor_release(), per head
 *   skb-floor-bulk64  the same, 64 at a time in one BH section
 *
 * and two loops of NHEADS empty critical sections, the price of the
 * lock a pool of heads is taken under (diagnostics, for the question
 * whether a process-context pool under local_lock() would beat the BH
 * sections the series uses; see the net-core cover letter):
 *
 *   lock-bh-pair     local_bh_disable() + local_bh_enable()
 *   lock-local-pair  local_lock() + local_unlock() of a per-CPU local_lock_t
 *
 * Every skb is built around the same page (head_frag, one page
 * reference taken per skb, given back by the free), so the data side is
 * the same in all three and only the head differs.
 */
#include <linux/bottom_half.h>
#include <linux/gfp.h>
#include <linux/ktime.h>
#include <linux/local_lock.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/dst.h>

#define NHEADS	(64 * 256)	/* 16384 heads per loop */
#define BULK	64

static struct page *page;

struct bench_lock {
	local_lock_t lock;
	unsigned long n;
};

static DEFINE_PER_CPU(struct bench_lock, bench_lock) = {
	.lock = INIT_LOCAL_LOCK(lock),
};

static inline void *data_ref(void)
{
	get_page(page);
	return page_address(page);
}

static u64 loop_slab(void)
{
	u64 t0 = ktime_get_ns();
	int i;

	for (i = 0; i < NHEADS; i++) {
		struct sk_buff *skb = build_skb(data_ref(), PAGE_SIZE);

		if (WARN_ON_ONCE(!skb))
			break;
		consume_skb(skb);
	}
	return ktime_get_ns() - t0;
}

static u64 loop_bh(void)
{
	u64 t0 = ktime_get_ns();
	int i;

	for (i = 0; i < NHEADS; i++) {
		struct sk_buff *skb = build_skb_bh(data_ref(), PAGE_SIZE);

		if (WARN_ON_ONCE(!skb))
			break;
		consume_skb_bh(skb);
	}
	return ktime_get_ns() - t0;
}

static u64 loop_bulk(int bulk)
{
	struct sk_buff *skbs[BULK];
	void *heads[BULK];
	u64 t0 = ktime_get_ns();
	int i, j;

	for (i = 0; i < NHEADS; i += bulk) {
		u32 got;

		local_bh_disable();
		got = napi_skb_cache_get_bulk(heads, bulk);
		for (j = 0; j < got; j++)
			skbs[j] = build_skb_around(heads[j], data_ref(), PAGE_SIZE);
		for (j = 0; j < got; j++)
			consume_skb_bh(skbs[j]);
		local_bh_enable();
		if (WARN_ON_ONCE(got != bulk))
			break;
	}
	return ktime_get_ns() - t0;
}

/* One head, or BULK, reused: what build + consume cost with no allocator. */
static struct sk_buff *floor_heads[BULK];

/* consume_skb() of a linear, uncloned skb built around a page frag, but
 * for the free of its head: skb_unref(), skb_release_head_state(), and
 * skb_release_data() up to the free of the data.
 */
static void floor_release(struct sk_buff *skb)
{
	struct skb_shared_info *shinfo = skb_shinfo(skb);

	if (!skb_unref(skb))
		return;
	skb_dst_drop(skb);
	if (skb->destructor)
		skb->destructor(skb);
	skb_ext_put(skb);
	if (skb->cloned && atomic_dec_return(&shinfo->dataref))
		return;
	/* never taken: the loops build linear skbs */
	if (shinfo->nr_frags || shinfo->frag_list)
		return;
	page_frag_free(skb->head);
}

static u64 loop_floor_pair(void)
{
	u64 t0 = ktime_get_ns();
	int i;

	for (i = 0; i < NHEADS; i++)
		floor_release(build_skb_around(floor_heads[0], data_ref(),
					       PAGE_SIZE));
	return ktime_get_ns() - t0;
}

static u64 loop_floor_bulk(void)
{
	struct sk_buff *skbs[BULK];
	u64 t0 = ktime_get_ns();
	int i, j;

	for (i = 0; i < NHEADS; i += BULK) {
		local_bh_disable();
		for (j = 0; j < BULK; j++)
			skbs[j] = build_skb_around(floor_heads[j], data_ref(),
						   PAGE_SIZE);
		for (j = 0; j < BULK; j++)
			floor_release(skbs[j]);
		local_bh_enable();
	}
	return ktime_get_ns() - t0;
}

/* The critical sections touch a per-CPU counter, as a pool op would. */
static u64 loop_lock_bh(void)
{
	u64 t0 = ktime_get_ns();
	int i;

	for (i = 0; i < NHEADS; i++) {
		local_bh_disable();
		__this_cpu_inc(bench_lock.n);
		local_bh_enable();
	}
	return ktime_get_ns() - t0;
}

static u64 loop_lock_local(void)
{
	u64 t0 = ktime_get_ns();
	int i;

	for (i = 0; i < NHEADS; i++) {
		local_lock(&bench_lock.lock);
		__this_cpu_inc(bench_lock.n);
		local_unlock(&bench_lock.lock);
	}
	return ktime_get_ns() - t0;
}

static int bench_show(struct seq_file *m, void *v)
{
	u64 slab, pair, bulk, bulk32, lock_bh, lock_local, floor1, floor64;

	/* one untimed pass of each to warm the caches */
	loop_slab();
	loop_bh();
	loop_bulk(BULK);
	loop_bulk(BULK / 2);
	loop_lock_bh();
	loop_lock_local();
	loop_floor_pair();
	loop_floor_bulk();
	slab = loop_slab();
	pair = loop_bh();
	bulk = loop_bulk(BULK);
	bulk32 = loop_bulk(BULK / 2);
	lock_bh = loop_lock_bh();
	lock_local = loop_lock_local();
	floor1 = loop_floor_pair();
	floor64 = loop_floor_bulk();
	seq_printf(m, "skb-head-slab %d %llu 0\n", NHEADS, slab);
	seq_printf(m, "skb-head-pair %d %llu 0\n", NHEADS, pair);
	seq_printf(m, "skb-head-bulk64 %d %llu 0\n", NHEADS, bulk);
	/* diagnostic, not in the table: a batch half the NAPI cache's size */
	seq_printf(m, "skb-head-bulk32 %d %llu 0\n", NHEADS, bulk32);
	seq_printf(m, "skb-floor-pair %d %llu 0\n", NHEADS, floor1);
	seq_printf(m, "skb-floor-bulk64 %d %llu 0\n", NHEADS, floor64);
	seq_printf(m, "lock-bh-pair %d %llu 0\n", NHEADS, lock_bh);
	seq_printf(m, "lock-local-pair %d %llu 0\n", NHEADS, lock_local);
	return 0;
}

static void free_floor_heads(void)
{
	int j;

	for (j = 0; j < BULK; j++)
		kfree(floor_heads[j]);
}

static int __init skb_head_bench_init(void)
{
	int j;

	for (j = 0; j < BULK; j++) {
		floor_heads[j] = kzalloc(sizeof(struct sk_buff), GFP_KERNEL);
		if (!floor_heads[j]) {
			free_floor_heads();
			return -ENOMEM;
		}
	}
	page = alloc_page(GFP_KERNEL);
	if (!page) {
		free_floor_heads();
		return -ENOMEM;
	}
	if (!proc_create_single("skb_head_bench", 0444, NULL, bench_show)) {
		__free_page(page);
		free_floor_heads();
		return -ENOMEM;
	}
	return 0;
}

static void __exit skb_head_bench_exit(void)
{
	remove_proc_entry("skb_head_bench", NULL);
	__free_page(page);
	free_floor_heads();
}

module_init(skb_head_bench_init);
module_exit(skb_head_bench_exit);
MODULE_DESCRIPTION("skb head microbenchmark for tools/bench (not for upstream)");
MODULE_LICENSE("GPL");

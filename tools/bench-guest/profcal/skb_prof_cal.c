// SPDX-License-Identifier: GPL-2.0
/*
 * skb_prof_cal: bench-only calibration module for the allocator profile
 * of tools/bench profile (tools/bench-guest/alloc-cost.py), built out of
 * tree against each profiling kernel (bench-{base,patched}-prof); not
 * part of the series. Every read of /proc/skb_prof_cal runs four loops
 * of NCAL iterations, timed with ktime_get_ns() (one ns is one
 * instruction under qemu -icount shift=0), and prints
 *   <name> <iterations> <ns>
 * lines:
 *
 *   cal-empty   the loop alone
 *   cal-leaf    the loop calling skb_prof_cal_leaf(), a function of two
 *               instructions that calls nothing
 *   cal-outer   the loop calling skb_prof_cal_outer(), which calls
 *               skb_prof_cal_leaf() once
 *   kmem-pair   kmem_cache_alloc() + kmem_cache_free() of one
 *               skbuff_head_cache object: the slab pair of an skb head,
 *               for the validation
 *
 * The real instruction counts of the two functions come from their
 * disassembly (objdump -d skb_prof_cal.ko); with the function profiler
 * on and both in set_ftrace_filter, the profiler's time for them minus
 * those counts is its own cost per call inside a traced function's
 * interval (leaf) and, for a traced call nested in a traced function,
 * outside the callee's interval (outer minus leaf).
 */
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <net/hotdata.h>

#define NCAL	16384

/* noipa: no inlining, no cloning (a .constprop clone has another name) */
static __attribute__((noipa)) int skb_prof_cal_leaf(int x)
{
	return x + 1;
}

static __attribute__((noipa)) int skb_prof_cal_outer(int x)
{
	return skb_prof_cal_leaf(x) + 1;
}

static int sink;

static u64 loop_empty(void)
{
	u64 t0 = ktime_get_ns();
	int i, v = 0;

	for (i = 0; i < NCAL; i++) {
		v++;
		asm volatile("" : "+r" (v));
	}
	sink = v;
	return ktime_get_ns() - t0;
}


static u64 loop_leaf(void)
{
	u64 t0 = ktime_get_ns();
	int i, v = 0;

	for (i = 0; i < NCAL; i++)
		v = skb_prof_cal_leaf(v);
	sink = v;
	return ktime_get_ns() - t0;
}

static u64 loop_outer(void)
{
	u64 t0 = ktime_get_ns();
	int i, v = 0;

	for (i = 0; i < NCAL; i++)
		v = skb_prof_cal_outer(v);
	sink = v;
	return ktime_get_ns() - t0;
}

static u64 loop_kmem(void)
{
	struct kmem_cache *c = net_hotdata.skbuff_cache;
	u64 t0 = ktime_get_ns();
	int i;

	for (i = 0; i < NCAL; i++) {
		void *p = kmem_cache_alloc(c, GFP_ATOMIC);

		if (WARN_ON_ONCE(!p))
			break;
		kmem_cache_free(c, p);
	}
	return ktime_get_ns() - t0;
}

static int cal_show(struct seq_file *m, void *v)
{
	u64 e, l, o, k;

	/* an untimed pass of each first */
	loop_empty();
	loop_leaf();
	loop_outer();
	loop_kmem();
	e = loop_empty();
	l = loop_leaf();
	o = loop_outer();
	k = loop_kmem();
	seq_printf(m, "cal-empty %d %llu\n", NCAL, e);
	seq_printf(m, "cal-leaf %d %llu\n", NCAL, l);
	seq_printf(m, "cal-outer %d %llu\n", NCAL, o);
	seq_printf(m, "kmem-pair %d %llu\n", NCAL, k);
	return 0;
}

static int __init skb_prof_cal_init(void)
{
	if (!proc_create_single("skb_prof_cal", 0444, NULL, cal_show))
		return -ENOMEM;
	return 0;
}

static void __exit skb_prof_cal_exit(void)
{
	remove_proc_entry("skb_prof_cal", NULL);
}

module_init(skb_prof_cal_init);
module_exit(skb_prof_cal_exit);
MODULE_DESCRIPTION("function profiler calibration for tools/bench (not for upstream)");
MODULE_LICENSE("GPL");

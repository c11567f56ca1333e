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
 *
 * /proc/skb_bh_outer counts the BH enables that end an outermost
 * BH-disabled section, the ones that may run pending softirqs in their
 * caller's context: __local_bh_enable_ip() entered with softirq_count()
 * at SOFTIRQ_DISABLE_OFFSET, not in a hard interrupt or NMI. An enable
 * nested in another section, or in a softirq being served (SOFTIRQ_OFFSET
 * on top), is not counted; _local_bh_enable() runs no softirq and is not
 * either. Writing 1 zeroes the count and starts counting (an ftrace
 * callback on __local_bh_enable_ip), 0 stops; a read prints the count,
 * summed over the CPUs.
 */
#include <linux/ftrace.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
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

static DEFINE_PER_CPU(unsigned long, bh_outer);
static DEFINE_MUTEX(bh_outer_mutex);	/* protects bh_outer_on */
static bool bh_outer_on;

static void bh_outer_func(unsigned long ip, unsigned long parent_ip,
			  struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	if (softirq_count() == SOFTIRQ_DISABLE_OFFSET && !in_hardirq() &&
	    !in_nmi())
		this_cpu_inc(bh_outer);
}

static struct ftrace_ops bh_outer_ops = {
	.func = bh_outer_func,
	.flags = FTRACE_OPS_FL_RECURSION,
};

static int bh_outer_show(struct seq_file *m, void *v)
{
	unsigned long n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += per_cpu(bh_outer, cpu);
	seq_printf(m, "%lu\n", n);
	return 0;
}

static int bh_outer_open(struct inode *inode, struct file *file)
{
	return single_open(file, bh_outer_show, NULL);
}

static ssize_t bh_outer_write(struct file *file, const char __user *buf,
			      size_t len, loff_t *pos)
{
	bool on;
	int cpu, err;

	err = kstrtobool_from_user(buf, len, &on);
	if (err)
		return err;
	mutex_lock(&bh_outer_mutex);
	if (on && !bh_outer_on) {
		for_each_possible_cpu(cpu)
			per_cpu(bh_outer, cpu) = 0;
		err = register_ftrace_function(&bh_outer_ops);
	} else if (!on && bh_outer_on) {
		err = unregister_ftrace_function(&bh_outer_ops);
	}
	if (!err)
		bh_outer_on = on;
	mutex_unlock(&bh_outer_mutex);
	return err ?: len;
}

static const struct proc_ops bh_outer_proc_ops = {
	.proc_open = bh_outer_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = single_release,
	.proc_write = bh_outer_write,
};

static int __init skb_prof_cal_init(void)
{
	static unsigned char fn[] = "__local_bh_enable_ip";
	int err;

	err = ftrace_set_filter(&bh_outer_ops, fn, strlen(fn), 1);
	if (err)
		return err;
	if (!proc_create_single("skb_prof_cal", 0444, NULL, cal_show))
		goto nomem;
	if (!proc_create("skb_bh_outer", 0644, NULL, &bh_outer_proc_ops)) {
		remove_proc_entry("skb_prof_cal", NULL);
		goto nomem;
	}
	return 0;
nomem:
	ftrace_free_filter(&bh_outer_ops);
	return -ENOMEM;
}

static void __exit skb_prof_cal_exit(void)
{
	remove_proc_entry("skb_bh_outer", NULL);
	remove_proc_entry("skb_prof_cal", NULL);
	if (bh_outer_on)
		unregister_ftrace_function(&bh_outer_ops);
	ftrace_free_filter(&bh_outer_ops);
}

module_init(skb_prof_cal_init);
module_exit(skb_prof_cal_exit);
MODULE_DESCRIPTION("function profiler calibration for tools/bench (not for upstream)");
MODULE_LICENSE("GPL");

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/scan-splats: real UML logs in tests/data, realistic splat snippets,
# false positives, usage errors and the allowlist.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
data=$top/tests/data
scan=$top/tools/scan-splats
tool=$scan
# shellcheck source=lib.sh
source "$top/tests/lib.sh"
# Never pick up an allowlist from the environment; the real one is empty.
unset SCAN_SPLATS_ALLOWLIST
snippet() { cat >"$tmp/$1.log"; }

# --- real logs ---------------------------------------------------------------

# A real kunit.py UML log (6.12, kunit's arch_uml.config) whose only splat
# is the WARN() in arch/um/drivers/virt-pci.c: one splat, its "Call Trace:"
# not counted again, and the excerpt shows the WARNING line.
log=$data/uml-virtpci-warn.log
if [ -s "$log" ]; then
	if run virtpci 1 "$log"; then
		has virtpci "uml-virtpci-warn\.log:[0-9]+: \[warning\] WARNING: CPU: 0 PID: 1 at arch/um/drivers/virt-pci\.c:1005"
		has virtpci "> *[0-9]+ \| WARNING: CPU: 0 PID: 1 at arch/um/drivers/virt-pci\.c"
		has virtpci "^scan-splats: 1 splat\(s\) in .*uml-virtpci-warn\.log$"
		hasnt virtpci "\[call-trace\]"
	fi
	# The same log is clean once that WARN is allowlisted (a temporary
	# allowlist, by option and by environment variable).
	cat >"$tmp/allow" <<-'EOF'
	# why: test entry: UML PCI over virtio with no device ID WARNs at boot
	WARNING: CPU: \d+ PID: \d+ at arch/um/drivers/virt-pci\.c:\d+
	EOF
	if run allowed 0 --allowlist "$tmp/allow" "$log"; then
		has allowed "^scan-splats: 0 splats in .*uml-virtpci-warn\.log \([0-9]+ lines\)$"
		has allowed "1 allowlisted match"
	fi
	SCAN_SPLATS_ALLOWLIST=$tmp/allow run allowed-env 0 "$log" || :
else
	fail "missing real log $log (kunit.py's test.log of a UML run)"
fi

# A clean real kunit.py log must pass as is.
log=$data/uml-clean.log
if [ -s "$log" ]; then
	if run clean 0 "$log"; then
		has clean "^scan-splats: 0 splats in .*uml-clean\.log \([0-9]+ lines\)$"
	fi
else
	fail "missing $log: copy the test.log of a clean UML kunit.py run" \
	     "(make kunit-uml; out/kunit-uml.log) there"
fi

# A real log with a WARN_ON() splat, captured by the lead.
log=$data/uml-warn-on.log
if [ -s "$log" ]; then
	if run warn-on 1 "$log"; then
		has warn-on "uml-warn-on\.log:[0-9]+: \[warning\] .*WARNING: CPU: [0-9]+ PID: [0-9]+ at "
		has warn-on "> *[0-9]+ \| .*WARNING: CPU: "
		has warn-on "^scan-splats: [1-9][0-9]* splat\(s\) in .*uml-warn-on\.log$"
	fi
else
	fail "missing $log: place a real kunit.py test.log with a WARN_ON()" \
	     "splat there (not generated: it must be a real capture)"
fi

# A real log of the PREEMPT_RT cell with consume_skb_bh()'s BH section
# deliberately removed: every case passed, lockdep's assertion fired.
log=$data/rt-broken-bh.log
if run rt-broken 1 "$log"; then
	has rt-broken "rt-broken-bh\.log:[0-9]+: \[warning\] WARNING: .* lockdep_assert_in_softirq_func"
	has rt-broken "^scan-splats: 1 splat\(s\) in .*rt-broken-bh\.log$"
fi

# The PREEMPT_RT cell on 7.3 (PREEMPT_RT_NEEDS_BH_LOCK unset, lockdep,
# DEBUG_PREEMPT, 2 vCPUs, TCG), skb_pool suite, three real logs:
# - rt73-clean.log: the series as it is; the case of two tasks sharing
#   a pool on one CPU passes ("windows in which the peer ran: 246"): no
#   splat;
# - rt73-mutation-nolock.log: local_lock_nested_bh()/unlock removed
#   from napi_skb_cache_put() (scratch change, reverted): skb_pool_put()'s
#   lockdep_assert_held() fires on every put (105 times; the log is cut
#   after its first three WARNING blocks, as the line in it says);
# - rt73-mutation-share-nolock.log: the lock removed from the sharing
#   case's own sections (scratch change, reverted): the pool operations'
#   assertions fire (8000 times, cut likewise), and the case fails on
#   its own, the two tasks inside the pool at once 3836 times.
log=$data/rt73-clean.log
if run rt73-clean 0 "$log"; then
	has rt73-clean "^scan-splats: 0 splats in .*rt73-clean\.log \([0-9]+ lines\)$"
fi
log=$data/rt73-mutation-nolock.log
if run rt73-nolock 1 "$log"; then
	has rt73-nolock "rt73-mutation-nolock\.log:[0-9]+: \[warning\] WARNING: \.\./\.\./tree/include/net/skb_pool\.h:108 at napi_skb_cache_put"
	has rt73-nolock "^scan-splats: 3 splat\(s\) in .*rt73-mutation-nolock\.log$"
fi
log=$data/rt73-mutation-share-nolock.log
if run rt73-share 1 "$log"; then
	has rt73-share "\[warning\] WARNING: \.\./\.\./tree/include/net/skb_pool\.h:[0-9]+ at skb_pool_share_fn"
fi
grep -q '^    not ok 1 skb_pool_test_share' "$data/rt73-mutation-share-nolock.log" ||
	fail "rt73-mutation-share-nolock.log: the sharing case did not fail"

# The PREEMPT_RT cell with the refcount trackers (kunit/checkers.config),
# veth suite, a scratch reference left on a device and dropped 15 s later
# (reverted): unregister_netdevice() waits for it, and the tracker names
# the holder.
log=$data/rt73-netdev-leak.log
if run netdev-leak 1 "$log"; then
	has netdev-leak "rt73-netdev-leak\.log:[0-9]+: \[netdev-leak\] unregister_netdevice: waiting for veth1 to become free"
fi
grep -q '^     veth_test_create_pair+' "$log" ||
	fail "rt73-netdev-leak.log: the tracker did not name the holder"

# A real UML log from a test bug (a freed skb consumed again): KASAN and
# a refcount_t WARN, while the case's own expectations failed too.
log=$data/uml-kasan-uaf.log
if run kasan-uaf 1 "$log"; then
	has kasan-uaf "uml-kasan-uaf\.log:[0-9]+: \[[a-z-]+\] BUG: KASAN: slab-use-after-free in consume_skb_bh"
	has kasan-uaf "refcount_t: underflow; use-after-free"
fi

# The real clean log of a passing UML run.
log=$data/uml-clean.log
if run clean 0 "$log"; then
	has clean "^scan-splats: 0 splats in .*uml-clean\.log \([0-9]+ lines\)$"
fi

# --- realistic snippets: each must be found, under its own name --------------

snippet lockdep <<'EOF'
[   14.201337] ============================================
[   14.201802] WARNING: possible recursive locking detected
[   14.202195] 6.12.117-g511e599c14d2 #1 Tainted: G                 N
[   14.202613] --------------------------------------------
[   14.203005] kunit_try_catch/171 is trying to acquire lock:
[   14.203410] ffff888006c4a0d8 (&pool->lock){+.-.}-{2:2}, at: skb_pool_get+0x3e/0x1a0
[   14.204003]
[   14.204003] but task is already holding lock:
[   14.204566] ffff888006c4a0d8 (&pool->lock){+.-.}-{2:2}, at: skb_pool_refill+0x52/0x230
[   14.205160]
[   14.205160] other info that might help us debug this:
[   14.205727]  Possible unsafe locking scenario:
[   14.205727]
[   14.206285]        CPU0
[   14.206493]        ----
[   14.206701]   lock(&pool->lock);
[   14.206963]   lock(&pool->lock);
[   14.207224]
[   14.207224]  *** DEADLOCK ***
[   14.207224]
[   14.207718]  May be due to missing lock nesting notation
[   14.207718]
[   14.208283] 1 lock held by kunit_try_catch/171:
[   14.208632]  #0: ffff888006c4a0d8 (&pool->lock){+.-.}-{2:2}, at: skb_pool_refill+0x52/0x230
[   14.209234]
[   14.209234] stack backtrace:
[   14.209561] CPU: 0 UID: 0 PID: 171 Comm: kunit_try_catch Tainted: G                 N 6.12.117-g511e599c14d2 #1
[   14.210301] Tainted: [N]=TEST
[   14.210542] Hardware name: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
[   14.211263] Call Trace:
[   14.211470]  <TASK>
[   14.211655]  dump_stack_lvl+0x7e/0xc0
[   14.211952]  print_deadlock_bug+0x2a7/0x3c0
[   14.212283]  __lock_acquire+0x1c8e/0x3600
[   14.212602]  lock_acquire+0x1a5/0x510
[   14.212895]  _raw_spin_lock+0x30/0x40
[   14.213190]  skb_pool_get+0x3e/0x1a0
[   14.213477]  skb_pool_refill+0x6b/0x230
[   14.213779]  skb_pool_test_refill+0x93/0x2b0
[   14.214115]  kunit_try_run_case+0x1a1/0x2c0
[   14.214446]  kunit_generic_run_threadfn_adapter+0x7d/0xe0
[   14.214861]  kthread+0x2b3/0x390
[   14.215119]  ret_from_fork+0x31/0x70
[   14.215399]  ret_from_fork_asm+0x1a/0x30
[   14.215701]  </TASK>
EOF
snippet kasan <<'EOF'
    # Subtest: skb_pool
    1..4
==================================================================
BUG: KASAN: slab-use-after-free in skb_pool_put+0x5c/0x120
Read of size 8 at addr 000000006175a0c8 by task kunit_try_catch/57

CPU: 0 UID: 0 PID: 57 Comm: kunit_try_catch Tainted: G                 N 6.12.117-g511e599c14d2 #1
Tainted: [N]=TEST
Stack:
 6175a0c8 60adf0f5 61b2fc10 00000001
 ffffff00 60adf0f5 a0577ce0 6004a6d8
Call Trace:
 [<6004a6d8>] ? show_stack+0x0/0x1e0
 [<611a2150>] ? dump_stack_print_info+0x0/0x380
 [<6127be5d>] ? dump_stack_lvl+0xd4/0xf3
 [<603a47d2>] ? print_report+0x152/0x560
 [<603a5b11>] ? kasan_report+0xc1/0x100
 [<60e2c33c>] ? skb_pool_put+0x5c/0x120
 [<60e2d0a9>] ? skb_pool_test_put_after_free+0x99/0x160

Allocated by task 57:
 save_stack_info+0x28/0xd0
 kasan_save_track+0x18/0x40
 __kasan_kmalloc+0x8a/0x90

Freed by task 57:
 kasan_save_track+0x18/0x40
 kasan_save_free_info+0x3b/0x60
 __kasan_slab_free+0x4b/0x70

The buggy address belongs to the object at 000000006175a0c0
 which belongs to the cache kmalloc-64 of size 64
==================================================================
    ok 1 skb_pool_test_put_after_free
EOF
snippet kmemleak <<'EOF'
[  127.530226] kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)
unreferenced object 0xffff8880057d8e00 (size 232):
  comm "kunit_try_catch", pid 93, jiffies 4294894590
  hex dump (first 32 bytes):
    00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  ................
  backtrace (crc 5e3b1c2d):
    kmem_cache_alloc_noprof+0x2c3/0x370
    skb_pool_alloc_head+0x41/0x120
    kunit_try_run_case+0x1a1/0x2c0
EOF
snippet rcu <<'EOF'
[    9.882101] =============================
[    9.882410] WARNING: suspicious RCU usage
[    9.882720] 6.12.117-g511e599c14d2 #1 Tainted: G                 N
[    9.883190] -----------------------------
[    9.883497] net/core/skb_pool.c:88 suspicious rcu_dereference_check() usage!
[    9.884002]
[    9.884002] other info that might help us debug this:
[    9.884002]
[    9.884611]
[    9.884611] rcu_scheduler_active = 2, debug_locks = 1
[    9.885058] no locks held by kunit_try_catch/131.
[    9.885429]
[    9.885429] stack backtrace:
[    9.885751] CPU: 1 UID: 0 PID: 131 Comm: kunit_try_catch Tainted: G                 N 6.12.117-g511e599c14d2 #1
[    9.886480] Call Trace:
[    9.886687]  <TASK>
[    9.886870]  dump_stack_lvl+0x7e/0xc0
[    9.887164]  lockdep_rcu_suspicious+0x15c/0x240
[    9.887519]  skb_pool_lookup+0x1ad/0x1f0
[    9.887825]  </TASK>
EOF
snippet sleep <<'EOF'
[    7.104512] BUG: sleeping function called from invalid context at include/linux/sched/mm.h:337
[    7.105101] in_atomic(): 1, irqs_disabled(): 0, non_block: 0, pid: 88, name: kunit_try_catch
[    7.105683] preempt_count: 201, expected: 0
[    7.105994] RCU nest depth: 0, expected: 0
[    7.106301] 1 lock held by kunit_try_catch/88:
[    7.106630]  #0: ffffffff83e1d2c0 (rcu_read_lock_bh){....}-{1:2}, at: skb_pool_flush+0x2f/0x190
[    7.107252] CPU: 1 UID: 0 PID: 88 Comm: kunit_try_catch Tainted: G                 N 6.12.117-g511e599c14d2 #1
[    7.107999] Call Trace:
[    7.108201]  <TASK>
[    7.108385]  dump_stack_lvl+0x7e/0xc0
[    7.108676]  __might_resched+0x2a6/0x3f0
[    7.108984]  kmem_cache_alloc_node_noprof+0x2d8/0x3a0
[    7.109371]  </TASK>
EOF
snippet bare-trace <<'EOF'
    ok 3 skb_pool_test_flush
CPU: 0 UID: 0 PID: 61 Comm: kunit_try_catch Tainted: G                 N 6.12.117-g511e599c14d2 #1
Tainted: [N]=TEST
Stack:
 6175a0c8 60adf0f5 61b2fc10 00000001
Call Trace:
 [<6127be5d>] ? dump_stack_lvl+0xd4/0xf3
 [<60e2c33c>] ? skb_pool_dump+0x1c/0x40
EOF

for s in lockdep:lockdep-recursive kasan:kasan kmemleak:kmemleak \
	 rcu:suspicious-rcu sleep:sleep-in-atomic bare-trace:call-trace; do
	name=${s%%:*} pat=${s#*:}
	run "$name" 1 "$tmp/$name.log" || continue
	has "$name" "$name\.log:[0-9]+: \[$pat\] "
	has "$name" "^scan-splats: [1-9][0-9]* splat\(s\) in "
done
# One report, one splat: lockdep's own "Call Trace:" (after its "stack
# backtrace:") and the KASAN report's are not counted again.
has lockdep "^scan-splats: 1 splat\(s\) in "
has kasan "^scan-splats: 1 splat\(s\) in "
has rcu "^scan-splats: 1 splat\(s\) in "
has sleep "^scan-splats: 1 splat\(s\) in "
has kmemleak "^scan-splats: 2 splat\(s\) in "

# One-line reports: PATTERN|LINE (timestamps and levels vary on purpose).
while IFS='|' read -r pat line; do
	[ -n "$pat" ] || continue
	printf 'Booting\n%s\nreboot: System halted\n' "$line" >"$tmp/one.log"
	run "one-$pat" 1 "$tmp/one.log" && has "one-$pat" "one\.log:2: \[$pat\] "
done <<'EOF'
warning|[    3.104512] WARNING: CPU: 0 PID: 1 at net/core/x.c:12 f+0x1/0x2
warning|<4>[    3.104512][    T1] WARNING: CPU: 1 PID: 1 at net/core/skb_pool.c:40 skb_pool_init+0x1c/0x80
kernel-bug|kernel BUG at net/core/skbuff.c:209!
oops|Oops: 0000 [#1] PREEMPT SMP KASAN NOPTI
gpf|Oops: general protection fault, probably for non-canonical address 0xdffffc0000000001: 0000 [#1] PREEMPT SMP KASAN NOPTI
panic|Kernel panic - not syncing: Segfault with no mm
bad-access|[   20.001] BUG: unable to handle page fault for address: ffffffffffffffe8
scheduling-while-atomic|BUG: scheduling while atomic: kunit_try_catch/77/0x00000002
spinlock|BUG: spinlock bad magic on CPU#0, kunit_try_catch/77
bug|BUG: workqueue lockup - pool cpus=0 node=0 flags=0x0 nice=0 stuck for 33s!
kfence|BUG: KFENCE: use-after-free read in skb_pool_put+0x5c/0x120
ubsan|UBSAN: array-index-out-of-bounds in net/core/skb_pool.c:77:9
slub|BUG kmalloc-128 (Tainted: G    B            N): Redzone overwritten
slub|BUG skbuff_head_cache (Not tainted): Poison overwritten
lockdep-inconsistent|WARNING: inconsistent lock state
lockdep-circular|WARNING: possible circular locking dependency detected
lockdep-irq-inversion|WARNING: possible irq lock inversion dependency detected
lockdep-possible|WARNING: possible HARDIRQ-safe -> HARDIRQ-unsafe lock order detected
lockdep|DEBUG_LOCKS_WARN_ON(chain_key != curr->curr_chain_key)
lockdep|lockdep: bad chain key
hung-task|INFO: task kworker/0:1:12 blocked for more than 120 seconds.
rcu-stall|rcu: INFO: rcu_preempt self-detected stall on CPU
rcu-stall|rcu_sched self-detected stall on CPU
list-corruption|list_del corruption, ffff888004a0e000->next is LIST_POISON1 (dead000000000100)
list-corruption|list_add corruption. prev->next should be next (ffff8880), but was 0000000000000000. (prev=ffff8880).
refcount|refcount_t: underflow; use-after-free.
warning|    # skb_pool_test_warn: WARNING: CPU: 0 PID: 57 at net/core/skb_pool.c:90
EOF

# Overlapping excerpts are collapsed into one ("--" ends each excerpt), and
# --context sets the lines after a match.
cat "$tmp/kasan.log" "$tmp/sleep.log" >"$tmp/two.log"
if run two 1 --context 40 "$tmp/two.log"; then
	[ "$(grep -c '^  --$' "$tmp/two.out")" -eq 1 ] ||
		fail "two: expected one collapsed excerpt"
fi
if run ctx0 1 --context 0 "$tmp/sleep.log"; then
	[ "$(grep -c ' | ' "$tmp/ctx0.out")" -eq 1 ] ||
		fail "ctx0: --context 0 should show only the matching line"
fi

# --- false positives: KUnit's own output is never a splat --------------------

snippet ktap <<'EOF'
KTAP version 1
1..2
    KTAP version 1
    # Subtest: warn_bug_oops_tests
    # module: skb_pool_test
    1..6
    ok 1 test_warn_on_handling
    ok 2 test_bug_on_never_fires
    ok 3 test_WARNING_path
    ok 4 test_Oops_free
    not ok 5 kasan_BUG_report # SKIP KASAN not enabled
    ok 6 lockdep_recursive_locking_detected
    # test_foo: pass:1
    # test_warn_on_handling: got the expected warning count: 1
# warn_bug_oops_tests: pass:5 fail:0 skip:1 total:6
ok 1 warn_bug_oops_tests
    KTAP version 1
    # Subtest: WARNING: oddly named suite
    1..1
    ok 1 WARNING: possible parameter description
# WARNING: oddly named suite: pass:1 fail:0 skip:0 total:1
ok 2 WARNING: oddly named suite
# Totals: pass:6 fail:0 skip:1 total:7
CONFIG_BUG=y
CONFIG_DEBUG_BUGVERBOSE=y
CONFIG_WARN_ALL_UNSEEDED_RANDOM=y
# CONFIG_UBSAN is not set
CONFIG_KFENCE=y
kfence: initialized - using 2097152 bytes for 255 objects at 0x(____ptrval____)-0x(____ptrval____)
Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
... MAX_LOCKDEP_SUBCLASSES:  8
Running RCU self tests
reboot: System halted
EOF
if run ktap 0 "$tmp/ktap.log"; then
	has ktap "^scan-splats: 0 splats in .*ktap\.log \($(wc -l <"$tmp/ktap.log") lines\)$"
fi

# --- usage errors: missing or empty logs are errors, not clean ---------------

run missing 2 "$tmp/no-such.log" && has missing "no-such\.log"
: >"$tmp/empty.log"
run empty 2 "$tmp/empty.log" && has empty "empty"
printf '\n\n' >"$tmp/blank.log"
run blank 2 "$tmp/blank.log" || :
run missing-among 2 "$tmp/ktap.log" "$tmp/no-such.log" || :
run noargs 2 || :
run badopt 2 --no-such-option "$tmp/ktap.log" || :
run help 0 --help && has help "Usage|usage"

# Several logs: each gets its own summary line; any splat fails the lot.
if run several 1 "$tmp/ktap.log" "$tmp/sleep.log"; then
	has several "^scan-splats: 0 splats in .*ktap\.log"
	has several "^scan-splats: 1 splat\(s\) in .*sleep\.log$"
fi

# --- allowlist -------------------------------------------------------------------

# The real allowlist parses (comments only, or entries with their why).
run real-allowlist 0 --allowlist "$top/tools/splat-allowlist" "$tmp/ktap.log" || :
# An allowlisted WARNING still explains the Call Trace right after it.
cat >"$tmp/allow-sleep" <<-'EOF'
	# why: test entry
	BUG: sleeping function called from invalid context at include/linux/sched/mm\.h
	EOF
run allow-sleep 0 --allowlist "$tmp/allow-sleep" "$tmp/sleep.log" || :
# Entries without a why, or with a bad regex, are refused.
printf '# why: fine\nWARNING: a\n\nWARNING: b\n' >"$tmp/allow-nowhy"
run allow-nowhy 2 --allowlist "$tmp/allow-nowhy" "$tmp/ktap.log" &&
	has allow-nowhy "allow-nowhy:4: .*why"
printf '# why: broken\nWARNING: (\n' >"$tmp/allow-bad"
run allow-bad 2 --allowlist "$tmp/allow-bad" "$tmp/ktap.log" || :
run allow-missing 2 --allowlist "$tmp/no-such-allowlist" "$tmp/ktap.log" || :

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "all scan-splats checks passed"

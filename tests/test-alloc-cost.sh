#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/bench profile's allocator figures (tools/bench-guest/alloc-cost.py)
# from toy profiling logs of two kernels: the calibration (O_in, O_out),
# nested calls taken out of their callers, the skb-head share of the
# slab calls from the SLUB lines, the in-line fast paths, BH enables;
# a 2-vCPU log's per-CPU lists summed. No kernel.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
jq_is() {
	local got
	got=$(jq -c "$1" "$tmp/alloc-cost.json" 2>&1) || true
	[ "$got" = "$2" ] || fail "jq '$1': got $got, expected $2"
}
has() { grep -Eq -- "$2" "$1" || { fail "$1 lacks /$2/"; sed 's/^/  | /' "$1"; }; }

# The calibration of both: the leaf (2 instructions) 102 a call -> O_in
# 100; the outer (3, calling the leaf) 405 -> O_out 405-3-2-200 = 200.
cal() {
	cat <<'CAL'
CAL-PLAIN skb_prof_cal cal-empty 1000 3000
CAL-PLAIN skb_prof_cal kmem-pair 1000 152000
ALLOC-BEGIN skb_prof_cal
  Function                               Hit    Time            Avg             s^2
  --------                               ---    ----            ---             ---
  skb_prof_cal_outer                     500    202.500 us      0.405 us        0.000 us    
  skb_prof_cal_leaf                     1000    102.000 us      0.102 us        0.000 us    
  kmem_cache_alloc_noprof               1000    160.000 us      0.160 us        0.000 us    
  kmem_cache_free                       1000    170.000 us      0.170 us        0.000 us    
ALLOC-END skb_prof_cal
CAL
}
# Base, 2 x 1000 packets: a head and a small data head per packet
# through the same slab calls, 60 and 70 instructions each; 3 BH
# enables a packet, 2 of them outermost (the unfiltered run's BH-OUTER);
# a setup cache with no kmalloc alias (filp) and a kmalloc one with
# allocations and frees.
{ cal; cat <<'RAW'
[    1.0] noise
BENCH-START tun-write 64
BENCH tun-write-64 run=0 packets=1000 ns=2000000 slab=1000
BH-OUTER tun-write-64 4000
ALLOC-BEGIN tun-write-64
  Function                               Hit    Time            Avg             s^2
  --------                               ---    ----            ---             ---
  __local_bh_enable_ip                  6000    1200.000 us     0.200 us        0.000 us    
  kmem_cache_alloc_node_noprof          4000    640.000 us      0.160 us        0.000 us    
  kmem_cache_free                       4000    680.000 us      0.170 us        0.000 us    
SLUB skbuff_head_cache - 2000 2000
SLUB :0000640 skbuff_small_head 2000 2000
SLUB :0000192 cred,kmalloc-192 50 50
ALLOC-END tun-write-64
BENCH-START udp-lo 64
skbbench: udp-lo-64: a workload that failed: left out
BENCH-FAIL udp-lo-64
BH-OUTER udp-lo-64 100
BENCH udp-lo-64 run=0 packets=1000 ns=2000000 slab=1000
ALLOC-BEGIN udp-lo-64
  Function                               Hit    Time            Avg             s^2
  --------                               ---    ----            ---             ---
  kmem_cache_free                       4000    680.000 us      0.170 us        0.000 us    
ALLOC-END udp-lo-64
BENCH-DONE
RAW
} > "$tmp/base.txt"
# Patched: the heads from the pool, refilled 50 times (10 instructions a
# refill, a nested kmem_cache_alloc_bulk of 800) and flushed 50 times (8,
# a nested kmem_cache_free_bulk of 600): (500 + 40000 + 400 + 30000) /
# 2000 = 35.45 a packet, plus the in-line get and put (14 + 10): 59.45;
# 0.02 outermost BH enables a packet.
{ cal; cat <<'RAW'
BENCH tun-write-64 run=0 packets=1000 ns=1800000 slab=0
BH-OUTER tun-write-64 40
ALLOC-BEGIN tun-write-64
  Function                               Hit    Time            Avg             s^2
  --------                               ---    ----            ---             ---
  __local_bh_enable_ip                  4000    800.000 us      0.200 us        0.000 us    
  skb_pool_refill                         50    60.500 us       1.210 us        0.000 us    
  skb_pool_flush                          50    50.400 us       1.008 us        0.000 us    
  kmem_cache_alloc_bulk_noprof            50    45.000 us       0.900 us        0.000 us    
  kmem_cache_free_bulk                    50    35.000 us       0.700 us        0.000 us    
SLUB skbuff_head_cache - 1600 1600
ALLOC-END tun-write-64
BENCH-DONE
RAW
} > "$tmp/patched.txt"

# Patched's 2-vCPU boot: a cross-CPU workload whose slab calls are split
# over the two CPUs' lists (summed: 2000 allocations of 60 and 2000
# frees of 70 instructions, 130 a packet), and a calibration of its own
# that is not used (its O_in would be 50); its outermost BH enables
# taken from this file, one a packet.
cat > "$tmp/patched-smp2.txt" <<'RAW'
BH-OUTER tun-echo-xcpu-64 2000
ALLOC-BEGIN skb_prof_cal
  Function                               Hit    Time            Avg             s^2
  --------                               ---    ----            ---             ---
  skb_prof_cal_outer                     500    152.500 us      0.305 us        0.000 us    
  skb_prof_cal_leaf                     1000     52.000 us      0.052 us        0.000 us    
ALLOC-END skb_prof_cal
BENCH tun-echo-xcpu-64 run=0 packets=1000 ns=2000000 slab=1000
ALLOC-BEGIN tun-echo-xcpu-64
  Function                               Hit    Time            Avg             s^2
  --------                               ---    ----            ---             ---
  kmem_cache_alloc_node_noprof          1500    240.000 us      0.160 us        0.000 us    
  kmem_cache_free                        500     85.000 us      0.170 us        0.000 us    
  Function                               Hit    Time            Avg             s^2
  --------                               ---    ----            ---             ---
  kmem_cache_free                       1500    255.000 us      0.170 us        0.000 us    
  kmem_cache_alloc_node_noprof           500     80.000 us      0.160 us        0.000 us    
SLUB skbuff_head_cache - 2000 2000
ALLOC-END tun-echo-xcpu-64
BENCH-DONE
RAW

/usr/bin/python3 "$top/tools/bench-guest/alloc-cost.py" "$tmp" \
	base="$tmp/base.txt" patched="$tmp/patched.txt,$tmp/patched-smp2.txt" \
	2> "$tmp/ac.err" || fail "alloc-cost.py exited $?"
has "$tmp/ac.err" 'base\.txt: udp-lo-64 failed \(BENCH-FAIL\), left out'
jq_is '.kernels.base.o_in' '100'
jq_is '.kernels.base.o_out' '200'
jq_is '.kernels.patched.validation["kmem-pair"]' '{"profile":130,"plain":140}'
jq_is '[.workloads[].name]' '["tun-write-64","tun-echo-xcpu-64"]'
jq_is '.kernels.patched.o_in' '100'
jq_is '.workloads[1].patched | [.instructions, .calls, .inline]' '[130,2,0]'
jq_is '.workloads[1].base' 'null'
jq_is '.workloads[0].base | [.instructions, .calls, .bh_enables, .inline]' '[130,2,3,0]'
jq_is '.workloads[0].base.functions.kmem_cache_free.share' '0.5'
jq_is '.workloads[0].patched | [.instructions, .out_of_line, .calls, .bh_enables, .inline_gets, .inline_puts]' \
	'[59.45,35.45,0.1,2,1,1]'
jq_is '.workloads[0].patched.functions.skb_pool_refill.instructions' '0.25'
jq_is '[.workloads[0].base.bh_outer, .workloads[0].patched.bh_outer, .workloads[1].patched.bh_outer]' '[2,0.02,1]'
has "$tmp/alloc-cost.md" '^\| workload \| base insns \| base calls \| base BH \| base BH outer \| patched insns \| patched calls \| patched BH \| patched BH outer \|$'
has "$tmp/alloc-cost.md" '^\| tun-write-64 \| 130\.0 \| 2\.00 \| 3\.00 \| 2\.00 \| 59\.5 \| 0\.10 \| 2\.00 \| 0\.02 \|$'
has "$tmp/alloc-cost.md" 'inside the interval 100\.0, outside 200\.0'
# A kernel without the calibration is refused.
grep -v skb_prof_cal "$tmp/base.txt" > "$tmp/nocal.txt"
if /usr/bin/python3 "$top/tools/bench-guest/alloc-cost.py" "$tmp" x="$tmp/nocal.txt" 2>/dev/null; then
	fail "alloc-cost.py accepted a log without the calibration"
fi

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "ok"

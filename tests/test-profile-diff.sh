#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/bench profile's calls per packet (tools/bench-guest/profile-diff.py)
# from toy profiling logs of three kernels: a 1-vCPU log and a 2-vCPU one
# per kernel, comma-separated; a function's hits summed over the CPUs'
# lists; the v2 column; only functions whose calls differ listed; one
# argument is a usage error (exit 2, it was 0). No
# kernel.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tool=$here/../tools/bench-guest/profile-diff.py
# shellcheck source=lib.sh
source "$here/lib.sh"

hdr='  Function                               Hit    Time            Avg             s^2
  --------                               ---    ----            ---             ---'
row() { printf '  %-36s %6d    %s us      0.100 us        0.000 us\n' "$1" "$2" "$3"; }
# log KERNEL WORKLOAD: one per kernel and boot, 1000 packets (the
# profile covers 2000); the function names and hits per CPU follow.
log() {
	local w=$1
	shift
	echo "BENCH $w run=0 packets=1000 ns=1 slab=0"
	echo "PROFILE-BEGIN $w"
	echo "$hdr"
	while [ $# -gt 0 ]; do
		if [ "$1" = /cpu ]; then echo "$hdr"; shift; continue; fi
		row "$1" "$2" 10.000
		shift 2
	done
	echo "PROFILE-END $w"
}
# tun-write-64 on one vCPU; vhost-batch-xcpu-64 on two: on patched,
# kmem_cache_free 1000 on CPU 0 and 1000 on CPU 1 (1.00 a packet, as on
# base and v2), skb_pool_refill 0.05 a packet more than v2's.
log tun-write-64 tun_get_user 2000 kmem_cache_free 2000 > "$tmp/base.txt"
log vhost-batch-xcpu-64 kmem_cache_free 2000 /cpu tun_sendmsg 64 > "$tmp/base-smp2.txt"
log tun-write-64 tun_get_user 2000 > "$tmp/patched.txt"
log vhost-batch-xcpu-64 kmem_cache_free 1000 skb_pool_refill 200 /cpu \
	kmem_cache_free 1000 tun_sendmsg 64 > "$tmp/patched-smp2.txt"
log tun-write-64 tun_get_user 2000 kmem_cache_free 2000 > "$tmp/v2.txt"
log vhost-batch-xcpu-64 kmem_cache_free 2000 skb_pool_refill 100 /cpu tun_sendmsg 64 > "$tmp/v2-smp2.txt"

run three 0 "$tmp/base.txt,$tmp/base-smp2.txt" "$tmp/patched.txt,$tmp/patched-smp2.txt" \
	"$tmp/v2.txt,$tmp/v2-smp2.txt"
has three '^# Function profiles, base vs patched vs v2$'
has three '^## tun-write-64$'
has three '^\| function \| base calls \| patched calls \| v2 calls \|$'
has three '^\| `kmem_cache_free` \| 1\.00 \| - \| 1\.00 \|$'
has three '^## vhost-batch-xcpu-64$'
has three '^\| `skb_pool_refill` \| - \| 0\.10 \| 0\.05 \|$'
# same calls on every kernel: not listed
hasnt three 'tun_sendmsg|tun_get_user'
n=$(grep -c '`kmem_cache_free`' "$tmp/three.out" || true)
[ "$n" = 1 ] || fail "kmem_cache_free listed $n times, expected once (tun-write-64)"
# Two kernels: no v2 column.
run two 0 "$tmp/base.txt" "$tmp/patched.txt"
has two '^\| function \| base calls \| patched calls \|$'
has two '^\| `kmem_cache_free` \| 1\.00 \| - \|$'
run usage 2 "$tmp/base.txt"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "ok"

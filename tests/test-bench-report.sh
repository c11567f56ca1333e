#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/bench report (tools/bench-guest/report.py): results.json,
# results.md (and no copy in results/ of a partial run), medians, min/max, ratios, slab heads per 1000 packets and
# the skb-head-* mapping, from synthetic raw guest logs. No kernel.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# No real worktrees: the report names none.
export SKBPOOL_CACHE=$tmp/cache SKBPOOL_RESULTS=$tmp/results
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# jq_is FILTER EXPECTED: results.json's FILTER is EXPECTED
# json_is FILE FILTER EXPECTED: FILE's FILTER is EXPECTED
json_is() {
	local got
	got=$(jq -c "$2" "$1" 2>&1) || true
	[ "$got" = "$3" ] || fail "$1: jq '$2': got $got, expected $3"
}
jq_is() { json_is "$tmp/out/bench/results.json" "$@"; }
has() { grep -Eq -- "$2" "$1" || { fail "$1 lacks /$2/"; sed 's/^/  | /' "$1"; }; }

mkdir -p "$tmp/out/bench"
# Base: tun-write-1400 runs of 5000, 5100, 4900, 5050, 4950 instructions
# per packet (median 5000), 1000 slab heads per 1000 packets; noise lines
# around them as on a real serial console.
cat > "$tmp/out/bench/raw-base.txt" <<'RAW'
[    0.000000] Linux version 6.12.117 (noise)
KERNEL 6.12.117
BENCH-START tun-write 1400
BENCH tun-write-1400 run=0 packets=10000 ns=50000000 slab=10000
BENCH tun-write-1400 run=1 packets=10000 ns=51000000 slab=10000
BENCH tun-write-1400 run=2 packets=10000 ns=49000000 slab=10000
BENCH tun-write-1400 run=3 packets=10000 ns=50500000 slab=10000
BENCH tun-write-1400 run=4 packets=10000 ns=49500000 slab=10000
BENCH tun-echo-64 run=0 packets=20000 ns=200000000 slab=20000
BENCH tun-echo-64 run=1 packets=20000 ns=200000000 slab=20000
BENCH tun-echo-64 run=2 packets=20000 ns=200000000 slab=20000
BENCH tun-echo-64 run=3 packets=20000 ns=200000000 slab=20000
BENCH tun-echo-64 run=4 packets=20000 ns=200000000 slab=20000
BENCH-SKIP skb-head (no /proc/skb_head_bench on this kernel)
BENCH-DONE
RAW
# Patched: tun-write-1400 median 4000 (min 3900, max 4200), 2 slab heads
# per 1000 packets (median of 1,2,2,3,30); tun-echo-64 ratio 0.75;
# skb-head: slab 500/head, pair 200/head, bulk64 150/head; a workload on
# one kernel only (vhost-batch-64) is left out.
cat > "$tmp/out/bench/raw-patched.txt" <<'RAW'
KERNEL 6.12.117
BENCH tun-write-1400 run=0 packets=10000 ns=40000000 slab=10
[   12.3] some kernel line
BENCH tun-write-1400 run=1 packets=10000 ns=42000000 slab=20
BENCH tun-write-1400 run=2 packets=10000 ns=39000000 slab=300
BENCH tun-write-1400 run=3 packets=10000 ns=40500000 slab=20
BENCH tun-write-1400 run=4 packets=10000 ns=39500000 slab=30
BENCH tun-echo-64 run=0 packets=20000 ns=150000000 slab=0
BENCH tun-echo-64 run=1 packets=20000 ns=150000000 slab=0
BENCH tun-echo-64 run=2 packets=20000 ns=150000000 slab=0
BENCH tun-echo-64 run=3 packets=20000 ns=150000000 slab=0
BENCH tun-echo-64 run=4 packets=20000 ns=150000000 slab=0
BENCH vhost-batch-64 run=0 packets=10000 ns=10000000 slab=0
BENCH skb-head-slab run=0 packets=1000 ns=500000 slab=0
BENCH skb-head-pair run=0 packets=1000 ns=200000 slab=0
BENCH skb-head-bulk64 run=0 packets=1000 ns=150000 slab=0
BENCH skb-head-slab run=1 packets=1000 ns=500000 slab=0
BENCH skb-head-pair run=1 packets=1000 ns=200000 slab=0
BENCH skb-head-bulk64 run=1 packets=1000 ns=150000 slab=0
BENCH skb-floor-pair run=0 packets=1000 ns=160000 slab=0
BENCH skb-floor-pair run=1 packets=1000 ns=160000 slab=0
BENCH lock-bh-pair run=0 packets=1000 ns=30000 slab=0
BENCH lock-bh-pair run=1 packets=1000 ns=34000 slab=0
BENCH lock-local-pair run=0 packets=1000 ns=9000 slab=0
BENCH lock-local-pair run=1 packets=1000 ns=9000 slab=0
BENCH-DONE
RAW

# The 2-vCPU boots' files (tools/bench run: raw-KERNEL-smp2.txt), merged
# with the 1-vCPU ones: tun-echo-xcpu-64 5000 -> 4500 per packet.
for k in base patched; do
	ns=$([ $k = base ] && echo 50000000 || echo 45000000)
	{ echo "KERNEL 6.12.117"; for r in 0 1 2 3 4; do
		echo "BENCH tun-echo-xcpu-64 run=$r packets=10000 ns=$ns slab=10000"
		echo "XCPU tun-echo-xcpu-64 run=$r wcpu=0/0 rcpu=1/1 alloc=10000/0 free=0/10000 netrx=0/0 cal=0/0 drop=0/0 idle=2/3"
	done; echo BENCH-DONE; } > "$tmp/out/bench/raw-$k-smp2.txt"
done

# What the run step recorded of the patched kernel (tools/bench run:
# kernel-KERNEL.txt, the commit and tree it was built from): the report
# names it, whatever its worktree is at now.
echo "c0ffee0123456789 t9" > "$tmp/out/bench/kernel-patched.txt"
# report only: no build, no guest
if ! SKBPOOL_OUT=$tmp/out BENCH_COMMAND="tools/bench report" \
	"$top/tools/bench" report > "$tmp/report.out" 2>&1; then
	fail "tools/bench report failed:"; sed 's/^/  | /' "$tmp/report.out"
fi
for f in results.json results.md; do
	[ -s "$tmp/out/bench/$f" ] || fail "no $f"
done
# A report of some workloads only is not the checkout's results.
[ ! -e "$tmp/results/bench.json" ] || fail "a partial report was copied to results/bench.json"
has "$tmp/report.out" 'not every workload measured \(tun-write-64 .*\): .*/results/bench.json left as it was'
if command -v gnuplot >/dev/null; then
	grep -q '<svg' "$tmp/out/bench/chart.svg" 2>/dev/null || fail "no chart.svg"
fi
if [ -s "$tmp/out/bench/results.json" ]; then
	jq_is '.base' '"6.12.117"'
	jq_is '[.patched, .patched_tree]' '["6.12.117 (series @ c0ffee012345)","t9"]'
	jq_is '.method | length > 100' 'true'
	jq_is '[.workloads[].name]' '["tun-write-1400","tun-echo-64","skb-head-pair","skb-head-bulk64","tun-echo-xcpu-64"]'
	jq_is '.workloads[4] | [.base, .patched, .ratio, .runs, .slab_heads_per_1000]' '[5000,4500,0.9,5,1000]'
	jq_is '.workloads[0] | [.unit, .base, .patched, .ratio, .min, .max, .base_min, .base_max, .packets, .runs]' \
		'["instructions/packet",5000,4000,0.8,3900,4200,4900,5100,10000,5]'
	jq_is '.workloads[0] | [.slab_heads_per_1000, .slab_heads_per_1000_base]' '[2,1000]'
	jq_is '.workloads[1] | [.base, .patched, .ratio, .packets, .slab_heads_per_1000]' '[10000,7500,0.75,20000,0]'
	jq_is '.workloads[2] | [.unit, .base, .patched, .ratio, .runs, .slab_heads_per_1000]' \
		'["instructions/head",500,200,0.4,2,null]'
	jq_is '.workloads[3] | [.base, .patched, .ratio]' '[500,150,0.3]'
	jq_is '.workloads[] | select(.name == "tun-write-1400") | .spread_pct' '7.5'
	# A floor where the module printed one: pair 200 over floor 160.
	jq_is '[.workloads[] | select(.name == "skb-head-pair") | .floor, .ratio_floor]' '[160,1.25]'
	jq_is '[.workloads[] | select(.name == "skb-head-bulk64") | has("floor")]' '[false]'
	# The module's diagnostics are listed, not put in the table.
	jq_is '[.diagnostics[] | [.name, .instructions, .min, .max, .runs]]' \
		'[["lock-bh-pair",32,30,34,2],["lock-local-pair",9,9,9,2]]'
	jq_is 'all(.workloads[]; has("name") and has("unit") and has("base") and has("patched") and has("ratio") and has("min") and has("max") and has("packets") and has("runs") and has("slab_heads_per_1000"))' 'true'
fi
md=$tmp/out/bench/results.md
if [ -s "$md" ]; then
	has "$md" '^\| workload \| unit \| base \| patched \| ratio \|'
	has "$md" '^\| tun-write-1400 \| instructions/packet \| 5000\.0 \| 4000\.0 \| 0\.800 \| <= 0\.80 met \| 3900\.0\.\.4200\.0 \| 4900\.0\.\.5100\.0 \| 1000\.0 -> 2\.0 \| 5 x 10000 \|$'
	has "$md" '^\| tun-echo-64 \| .* \| 0\.750 \| <= 0\.90 met \|'
	has "$md" '^\| skb-head-pair \| instructions/head \| 500\.0 \| 200\.0 \| 0\.400 \| <= 1\.10 x floor MISSED \|'
	has "$md" '^\| skb-head-bulk64 \| .* \| 0\.300 \|  \|'
	has "$md" 'tools/bench report'
	has "$md" '^- `skb-head-pair`: floor 160\.0; series/floor 1\.250, series/slab 0\.400$'
	has "$md" '^- `lock-bh-pair`: 32\.0 \(30\.0\.\.34\.0\): local_bh_disable\(\)'
fi

# The cross-CPU goal: no more instructions and slab heads than the base.
has "$md" '^\| tun-echo-xcpu-64 \| .* \| 0\.900 \| <= base met \|'
# The floor goal is on series/floor, not on the ratio to the slab.
jq_is '[.workloads[] | select(.name == "skb-head-pair") | .goal_floor]' '[1.1]'

# A peer kernel (--peer, tools/bench: the v2 series): its column, its
# ratio to the base, and the goal of being no worse than it.
mkdir -p "$tmp/peer"
{ echo "KERNEL 6.12.117"; for r in 0 1 2 3 4; do
	echo "BENCH tun-write-1400 run=$r packets=10000 ns=45000000 slab=10000"
	echo "BENCH tun-echo-64 run=$r packets=20000 ns=140000000 slab=100"
done; echo BENCH-DONE; } > "$tmp/peer/raw-v2.txt"
if BENCH_PEER_DESC="v2 @ abc" /usr/bin/python3 "$top/tools/bench-guest/report.py" \
	--peer "$tmp/peer/raw-v2.txt" "$tmp/out/bench/raw-base.txt" \
	"$tmp/out/bench/raw-patched.txt" "$tmp/peer" > "$tmp/peer.out" 2>&1; then
	json_is "$tmp/peer/results.json" '.peer' '"6.12.117 (v2 @ abc)"'
	json_is "$tmp/peer/results.json" '.workloads[0] | [.peer, .ratio_peer, .ratio_to_peer, .slab_heads_per_1000_peer]' '[4500,0.9,0.8889,1000]'
	json_is "$tmp/peer/results.json" '.workloads[1] | [.peer, .ratio_peer, .slab_heads_per_1000_peer]' '[7000,0.7,5]'
	json_is "$tmp/peer/results.json" '[.workloads[] | select(.name == "skb-head-pair") | has("peer")]' '[false]'
	has "$tmp/peer/results.md" '^\| workload \| unit \| base \| v2 \| patched \| v2/base \| patched/base \| goal \|'
	has "$tmp/peer/results.md" '^\| tun-write-1400 \| instructions/packet \| 5000\.0 \| 4500\.0 \| 4000\.0 \| 0\.900 \| 0\.800 \| <= 0\.80 met; <= v2 met \|.* \| 1000\.0 -> 1000\.0 -> 2\.0 \|'
	has "$tmp/peer/results.md" '^\| tun-echo-64 \| .* \| 7000\.0 \| 7500\.0 \| 0\.700 \| 0\.750 \| <= 0\.90 met; <= v2 MISSED \|'
	has "$tmp/peer/results.md" 'v2 `6\.12\.117 \(v2 @ abc\)`'
	has "$tmp/peer/chart.dat" '^tun-write-1400 5000\.0 4000\.0 0\.800 4500\.0 0\.900$'
	has "$tmp/peer/chart.dat" '^skb-head-pair 500\.0 200\.0 0\.400 - -$'
else
	fail "report.py --peer failed:"; sed 's/^/  | /' "$tmp/peer.out"
fi

# BH sections per packet from the profile step's alloc-cost.json, only
# where it is of the same patched tree; a row over the base says so.
cat > "$tmp/peer/alloc-cost.json" <<'JSON'
{"patched_tree": "t1", "workloads": [
 {"name": "tun-write-1400", "base": {"bh_enables": 3.0, "bh_outer": 2.0},
  "patched": {"bh_enables": 4.004, "bh_outer": 1.02}, "v2": {"bh_enables": 3.5}},
 {"name": "tun-echo-64", "base": {"bh_enables": 2.0},
  "patched": {"bh_enables": 2.0}, "v2": null},
 {"name": "vpn-tcp-0", "base": {"bh_enables": 3.03},
  "patched": {"bh_enables": 0.98}, "v2": null}]}
JSON
# vpn-tcp, a workload without sizes: NAME-0 in the profile's sections
mkdir -p "$tmp/bh"
for k in base patched; do
	{ cat "$tmp/out/bench/raw-$k.txt"; for r in 0 1 2 3 4; do
		echo "BENCH vpn-tcp run=$r packets=10000 ns=80000000 slab=0"
	done; } > "$tmp/bh/raw-$k.txt"
done
bh_report() { # TREE
	BENCH_PATCHED_TREE=$1 /usr/bin/python3 "$top/tools/bench-guest/report.py" \
		--peer "$tmp/peer/raw-v2.txt" "$tmp/bh/raw-base.txt" \
		"$tmp/bh/raw-patched.txt" "$tmp/peer" > "$tmp/bh.out" 2>&1 ||
		fail "report.py with alloc-cost.json failed: $(cat "$tmp/bh.out")"
}
bh_report t1
json_is "$tmp/peer/results.json" '.workloads[0] | [.bh_base, .bh_peer, .bh]' '[3,3.5,4]'
json_is "$tmp/peer/results.json" '.workloads[1] | [.bh_base, has("bh_peer"), .bh]' '[2,false,2]'
# of them outermost, where the profile counted them (skb_prof_cal.ko)
json_is "$tmp/peer/results.json" '.workloads[0] | [.bh_outer_base, .bh_outer, has("bh_outer_peer")]' '[2,1.02,false]'
json_is "$tmp/peer/results.json" '.workloads[1] | has("bh_outer")' 'false'
has "$tmp/peer/results.md" '\| BH sections/pkt base -> v2 -> patched \| of them outermost base -> v2 -> patched \|$'
has "$tmp/peer/results.md" '^\| tun-write-1400 \| .* \| 3\.00 -> 3\.50 -> 4\.00 \(> base\) \| 2\.00 -> n/a -> 1\.02 \|$'
has "$tmp/peer/results.md" '^\| tun-echo-64 \| .* \| 2\.00 -> n/a -> 2\.00 \| n/a \|$'
json_is "$tmp/peer/results.json" '.workloads[] | select(.name == "vpn-tcp") | [.bh_base, .bh]' '[3.03,0.98]'
bh_report t2
json_is "$tmp/peer/results.json" '[.workloads[] | has("bh")] | any' 'false'
has "$tmp/bh.out" 'alloc-cost.json is of another patched tree'
grep -q 'BH sections' "$tmp/peer/results.md" && fail "BH column of another tree's profile"
rm "$tmp/peer/alloc-cost.json"

# The PREEMPT_RT pair (tools/bench --rt): its own directories, every
# row's goal the base, the rt table of tools/tables.
mkdir -p "$tmp/out/bench-rt"
cp "$tmp/out/bench/raw-base.txt" "$tmp/out/bench-rt/raw-base.txt"
grep -v '^BENCH skb\|^BENCH lock' "$tmp/out/bench/raw-patched.txt" > "$tmp/out/bench-rt/raw-patched.txt"
SKBPOOL_OUT=$tmp/out "$top/tools/bench" --rt report > "$tmp/rt.out" 2>&1 ||
	fail "tools/bench --rt report failed: $(cat "$tmp/rt.out")"
json_is "$tmp/out/bench-rt/results.json" '[.workloads[] | [.name, .goal]]' '[["tun-write-1400",1],["tun-echo-64",1]]'
json_is "$tmp/out/bench-rt/results.json" '.command' '"make bench-rt"'
json_is "$tmp/out/bench-rt/results.json" '.method | test("PREEMPT_RT")' 'true'
has "$tmp/rt.out" 'not every workload measured .*/results/bench-rt.json left as it was'
mkdir -p "$tmp/rtres" && cp "$tmp/out/bench-rt/results.json" "$tmp/rtres/bench-rt.json"
"$top/tools/tables" --results "$tmp/rtres" --print bench-rt > "$tmp/rt.md" 2>&1 ||
	fail "tables --print bench-rt failed: $(cat "$tmp/rt.md")"
has "$tmp/rt.md" '^\| tun-write-1400 \| 5000\.0 \| 4000\.0 \| 0\.800 \| <= 1\.00 met \|'
has "$tmp/rt.md" 'both PREEMPT_RT; made by `make bench-rt`'
# --rt --profile: the profiling kernels are RT too; without them built,
# the profile step names the RT build to run
mkdir -p "$tmp/cache/bench-work-rt" && : | gzip > "$tmp/cache/bench-work-rt/initramfs-base.gz"
mkdir -p "$tmp/cache/build/bench-patched-rt-prof/arch/x86/boot"
touch "$tmp/cache/build/bench-patched-rt-prof/arch/x86/boot/bzImage"
if SKBPOOL_OUT=$tmp/out "$top/tools/bench" --rt --profile --only tun-write profile > "$tmp/rtp.out" 2>&1; then
	fail "--rt --profile with no RT profiling kernel built succeeded"
fi
has "$tmp/rtp.out" "no worktree .*/bench-src/patched: run '.* --rt --profile build' first"
# a worktree, and a profiling kernel without the stamp of its sources
git -C "$tmp" init -q wt && git -C "$tmp/wt" -c user.name=t -c user.email=t@t commit -q --allow-empty -m t
mkdir -p "$tmp/cache/bench-src" && ln -s "$tmp/wt" "$tmp/cache/bench-src/patched"
if SKBPOOL_OUT=$tmp/out "$top/tools/bench" --rt --profile --only tun-write profile > "$tmp/rtp.out" 2>&1; then
	fail "--rt --profile with an unstamped RT profiling kernel succeeded"
fi
has "$tmp/rtp.out" "bench-patched-rt-prof was not built from .* run '.* --rt --profile build' first"
rm "$tmp/cache/bench-src/patched"

# One commit in place of the series (tools/bench --patched): its own
# directory, its command in the table, never the checkout's results.
mkdir -p "$tmp/out/bench-variant"
git -C "$tmp/cache" init -q -b series tree
for c in 1 2 3; do
	git -C "$tmp/cache/tree" -c user.name=t -c user.email=t@t commit -q --allow-empty -m "patch $c"
done
cp "$tmp/out/bench-rt/raw-base.txt" "$tmp/out/bench-rt/raw-patched.txt" "$tmp/out/bench-variant/"
SKBPOOL_OUT=$tmp/out "$top/tools/bench" --patched series~2 report > "$tmp/var.out" 2>&1 ||
	fail "tools/bench --patched report failed: $(cat "$tmp/var.out")"
json_is "$tmp/out/bench-variant/results.json" '[.command, (.workloads | length)]' '["tools/bench --patched series~2",2]'
has "$tmp/var.out" 'series~2 is not the series: wrote .*/results/variants/series-2\.json, not .*/results/bench\.json'
[ ! -e "$tmp/results/bench.json" ] || fail "--patched wrote results/bench.json"
json_is "$tmp/results/variants/series-2.json" '.command' '"tools/bench --patched series~2"'
# The variant's kernel as recorded, with its subject from the tree
echo "$(git -C "$tmp/cache/tree" rev-parse series~1) t8" > "$tmp/out/bench-variant/kernel-patched.txt"
SKBPOOL_OUT=$tmp/out "$top/tools/bench" --patched series~2 report > "$tmp/var.out" 2>&1 ||
	fail "tools/bench --patched report failed: $(cat "$tmp/var.out")"
json_is "$tmp/out/bench-variant/results.json" '[.patched, .patched_tree]' \
	"[\"6.12.117 (series~2 @ $(git -C "$tmp/cache/tree" rev-parse --short=12 series~1) (patch 2))\",\"t8\"]"
if "$top/tools/bench" --patched series~2 --rt report > "$tmp/varrt.out" 2>&1; then
	fail "--patched with --rt accepted"
fi
has "$tmp/varrt.out" 'not with --rt or --profile'

# A missed goal says so.
sed -i 's/ns=150000000/ns=190000000/' "$tmp/out/bench/raw-patched.txt"
SKBPOOL_OUT=$tmp/out "$top/tools/bench" report > "$tmp/report2.out" 2>&1 ||
	fail "second report failed"
has "$md" '^\| tun-echo-64 \| .* \| 0\.950 \| <= 0\.90 MISSED \|'

# Nothing measured on both kernels: an error, not an empty table.
rm -f "$tmp/out/bench/raw-"*-smp2.txt
grep -v '^BENCH tun' "$tmp/out/bench/raw-base.txt" > "$tmp/b" && mv "$tmp/b" "$tmp/out/bench/raw-base.txt"
grep -v '^BENCH skb' "$tmp/out/bench/raw-patched.txt" > "$tmp/p" && mv "$tmp/p" "$tmp/out/bench/raw-patched.txt"
if SKBPOOL_OUT=$tmp/out "$top/tools/bench" report > "$tmp/report3.out" 2>&1; then
	fail "report with no common workload succeeded"
fi
# No raw files: an error naming the step to run.
rm -f "$tmp/out/bench/raw-"*
if SKBPOOL_OUT=$tmp/out "$top/tools/bench" report > "$tmp/report4.out" 2>&1; then
	fail "report without raw files succeeded"
fi
has "$tmp/report4.out" "run '.*run' first"
# Options are checked.
grep -q '^Usage: bench' <<<"$("$top/tools/bench" --help)" || fail "--help"
if "$top/tools/bench" --runs 3 report > /dev/null 2>&1; then fail "--runs 3 accepted"; fi
if "$top/tools/bench" --bogus > /dev/null 2>&1; then fail "--bogus accepted"; fi

# profile-diff: calls per packet over the warm-up and the run (2 x 1000
# packets); only functions whose count differs are listed.
prof() { # KERNEL-FILE build_skb-hits kmem_cache_free-hits
	cat > "$1" <<PROF
BENCH-START tun-write 64
BENCH tun-write-64 run=0 packets=1000 ns=2000000 slab=1000
PROFILE-BEGIN tun-write-64
  Function                               Hit    Time            Avg             s^2
  --------                               ---    ----            ---             ---
  tun_get_user                          2000    1000.0 us       0.5 us          0.1 us
  $2
  $3
PROFILE-END tun-write-64
PROF
}
prof "$tmp/pb.txt" "build_skb 2000 900.0 us 0.4 us 0.1 us" \
	"kmem_cache_free 2020 800.0 us 0.4 us 0.1 us"
prof "$tmp/pp.txt" "build_skb_bh 2000 900.0 us 0.4 us 0.1 us" \
	"kmem_cache_free 20 10.0 us 0.4 us 0.1 us"
/usr/bin/python3 "$top/tools/bench-guest/profile-diff.py" "$tmp/pb.txt" \
	"$tmp/pp.txt" > "$tmp/pd.md" || fail "profile-diff failed"
has "$tmp/pd.md" '^## tun-write-64$'
has "$tmp/pd.md" '^\| `kmem_cache_free` \| 1\.01 \| 0\.01 \|$'
has "$tmp/pd.md" '^\| `build_skb` \| 1\.00 \| - \|$'
has "$tmp/pd.md" '^\| `build_skb_bh` \| - \| 1\.00 \|$'
grep -q 'tun_get_user' "$tmp/pd.md" && fail "profile-diff lists an unchanged function"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "ok"

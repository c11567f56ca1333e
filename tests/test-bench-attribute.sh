#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/bench-attribute's report (tools/bench-guest/attribute.py) from
# toy instruction counts by address of a toy "vmlinux" (two functions
# at kernel addresses): a function's addresses summed, the "before" boot
# subtracted, divided by the packets; user space and modules a row each;
# rows sorted by the size of the difference, equal ones left out; a
# malformed count line an error. And tools/bench-attribute's argument
# checks. No kernel.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tool=$here/../tools/bench-guest/attribute.py
# shellcheck source=lib.sh
source "$here/lib.sh"

printf 'void fa(void) {}\nvoid fb(void) {}\nvoid _start(void) {}\n' > "$tmp/f.c"
gcc -O0 -nostdlib -static -fno-pic -no-pie -Wl,-Ttext=0xffffffff81000000 \
	-o "$tmp/vmlinux" "$tmp/f.c" || { echo "SKIP: gcc cannot link the toy vmlinux"; exit 77; }
fa=$(nm "$tmp/vmlinux" | awk '$3 == "fa" { print $1 }')
fb=$(nm "$tmp/vmlinux" | awk '$3 == "fb" { print $1 }')
fa1=$(printf '%x' $((0x$fa + 1)))
# 100 packets. base: fa 10 a packet (two addresses), fb 5; patched: fa
# 10, fb 8, user space 1 more, a module 2 fewer. The before boots hold
# what the window must not count (the boot, earlier workloads).
cat > "$tmp/b0" <<C
$fa 700
$fb 300
400000 50
C
cat > "$tmp/b1" <<C
$fa 1200
$fa1 500
$fb 800
400000 150
ffffffffa0001000 300
C
cat > "$tmp/p0" <<C
$fa 70
$fb 30
C
cat > "$tmp/p1" <<C
$fa 570
$fa1 500
$fb 830
400000 200
ffffffffa0001000 100
C
run two 0 --name tun-echo-64 --packets 100 \
	"$tmp/vmlinux" "$tmp/b0" "$tmp/b1" "$tmp/vmlinux" "$tmp/p0" "$tmp/p1"
has two '^# tun-echo-64: instructions a packet by function, base against patched$'
has two '^Total: base 19\.00, patched 21\.00, difference \+2\.00\.$'
# the largest difference first: fb +3, then the module -2, user space +1
has two '^\| \+3\.00 \| 5\.00 \| 8\.00 \| fb \|$'
has two '^\| -2\.00 \| 3\.00 \| 1\.00 \| \[modules\] \|$'
has two '^\| \+1\.00 \| 1\.00 \| 2\.00 \| \[user space\] \|$'
order=$(grep -E '^\| [-+]' "$tmp/two.out" | awk -F'|' '{ print $5 }' | tr -d ' ' | paste -sd,)
[ "$order" = 'fb,[modules],[userspace]' ] || fail "rows in order '$order', expected fb, modules, user space"
# fa costs 10 a packet on both (its two addresses summed): not listed
hasnt two '\| fa \|'
printf 'x\n' > "$tmp/bad"
run bad 1 --name x --packets 1 "$tmp/vmlinux" "$tmp/b0" "$tmp/bad" "$tmp/vmlinux" "$tmp/p0" "$tmp/p1"
has bad "bad:1: not 'ADDRESS COUNT'"
run usage 2 --name x --packets 1 "$tmp/vmlinux"

# The shell tool's argument checks (before it looks for a kernel)
tool=$here/../tools/bench-attribute
run no-size 1 udp-lo
has no-size 'udp-lo: not NAME-SIZE'
run xcpu 1 tun-echo-xcpu-64
has xcpu 'not a one-vCPU workload'
run skb-head 1 skb-head-0
has skb-head 'skb-head has no packets'
run none 2
exit $((fails > 0))

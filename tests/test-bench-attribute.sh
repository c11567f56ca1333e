#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/bench-attribute's report (tools/bench-guest/attribute.py) from
# toy plugin dumps of a toy "vmlinux" (two functions at kernel
# addresses): a function's addresses summed and divided by the packets;
# user space and modules a row each; rows sorted by the size of the
# difference, equal ones left out; a dump of another number of timed
# runs than --windows, and a malformed line, an error. And
# tools/bench-attribute's argument checks. No kernel.
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
# 100 packets in 8 timed runs. base: fa 10 a packet (two addresses),
# fb 5, user space 1, a module 3; patched: fa 10, fb 8, user space 2,
# the module 1.
cat > "$tmp/base" <<C
# windows 8
$fa 500
$fa1 500
$fb 500
400000 100
ffffffffa0001000 300
C
cat > "$tmp/patched" <<C
# windows 8
$fa 1000
$fb 800
400000 200
ffffffffa0001000 100
C
run two 0 --name tun-echo-64 --packets 100 --windows 8 \
	"$tmp/vmlinux" "$tmp/base" "$tmp/vmlinux" "$tmp/patched"
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
run runs 1 --name x --packets 100 --windows 6 \
	"$tmp/vmlinux" "$tmp/base" "$tmp/vmlinux" "$tmp/patched"
has runs 'base: 8 timed runs, expected 6'
printf 'x\n' > "$tmp/bad"
run bad 1 --name x --packets 1 "$tmp/vmlinux" "$tmp/base" "$tmp/vmlinux" "$tmp/bad"
has bad "bad:1: not 'ADDRESS COUNT'"
run usage 2 --name x --packets 1 "$tmp/vmlinux"

# The shell tool's argument checks (before it looks for a kernel)
tool=$here/../tools/bench-attribute
run no-size 1 udp-lo
has no-size 'udp-lo: not NAME-SIZE'
run unknown 1 tun-nothing-64
has unknown 'tun-nothing-64: not a workload of'
run skb-head 1 skb-head-0
has skb-head 'skb-head has no packets'
run none 2
exit $((fails > 0))

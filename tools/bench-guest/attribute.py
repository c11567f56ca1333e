#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Instructions a packet per kernel function, base against patched.

tools/bench-attribute's report. For each kernel: the instruction counts
by guest address that insncount.so summed over the workload's timed
runs (its dump: a "# windows K" line, then "ADDRESS COUNT" lines),
divided by PACKETS, the packets of those runs (warm-up included).
Addresses map to the vmlinux symbol at or below them (nm -n); user
space and modules are one row each.

Usage: attribute.py --name NAME --packets N [--windows K] [--top T]
                    BASE_VMLINUX BASE_COUNTS PATCHED_VMLINUX PATCHED_COUNTS
"""
import argparse
import bisect
import subprocess
import sys
from typing import Dict, List, Tuple

KERNEL_START = 0xFFFFFFFF80000000
MODULES_START = 0xFFFFFFFFA0000000


Symbols = Tuple[List[int], List[str]]


def symbols(vmlinux: str) -> Symbols:
    """Sorted (addresses, names) of vmlinux's text symbols."""
    out = subprocess.run(["nm", "-n", "--defined-only", vmlinux], check=True,
                         capture_output=True, text=True).stdout
    addrs: List[int] = []
    names: List[str] = []
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 3 and f[1] in "tTwW":
            addrs.append(int(f[0], 16))
            names.append(f[2])
    if not addrs:
        sys.exit(f"attribute.py: no text symbols in {vmlinux}")
    return addrs, names


def per_function(counts: str, syms: Symbols, windows: int) -> Dict[str, int]:
    """{function: instructions} of one insncount.so dump."""
    addrs, names = syms
    res: Dict[str, int] = {}
    with open(counts) as f:
        for n, line in enumerate(f, 1):
            if line.startswith("# windows "):
                got = int(line.split()[2])
                if windows and got != windows:
                    sys.exit(f"attribute.py: {counts}: {got} timed runs, expected {windows}")
                continue
            try:
                sa, sc = line.split()
                a, c = int(sa, 16), int(sc)
            except ValueError:
                sys.exit(f"attribute.py: {counts}:{n}: not 'ADDRESS COUNT'")
            if a < KERNEL_START:
                name = "[user space]"
            elif a >= MODULES_START:
                name = "[modules]"
            else:
                i = bisect.bisect_right(addrs, a) - 1
                name = names[i] if i >= 0 else "[before _text]"
            res[name] = res.get(name, 0) + c
    return res


def window(vmlinux: str, counts: str, packets: int, windows: int) -> Dict[str, float]:
    w = per_function(counts, symbols(vmlinux), windows)
    return {k: v / packets for k, v in w.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--name", required=True)
    ap.add_argument("--packets", type=int, required=True)
    ap.add_argument("--windows", type=int, default=0,
                    help="the timed runs each dump must hold (0: any)")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("files", nargs=4)
    a = ap.parse_args()
    f = a.files
    base = window(f[0], f[1], a.packets, a.windows)
    pat = window(f[2], f[3], a.packets, a.windows)
    tb, tp = sum(base.values()), sum(pat.values())
    rows = sorted(((pat.get(k, 0) - base.get(k, 0), k) for k in set(base) | set(pat)),
                  key=lambda r: (-abs(r[0]), r[1]))
    print(f"# {a.name}: instructions a packet by function, base against patched\n")
    print(f"{a.packets} packets in the workload's timed runs (warm-up included): "
          f"every instruction inside them, user space and interrupts included.\n")
    print(f"Total: base {tb:.2f}, patched {tp:.2f}, difference {tp - tb:+.2f}.\n")
    print("| difference | base | patched | function |")
    print("|---|---|---|---|")
    for d, k in rows[:a.top]:
        if abs(d) < 0.005:
            break
        print(f"| {d:+.2f} | {base.get(k, 0):.2f} | {pat.get(k, 0):.2f} | {k} |")


if __name__ == "__main__":
    main()

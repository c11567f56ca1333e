#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the function profiles of the base and patched profiling boots.

Usage: profile-diff.py PROFILE-BASE PROFILE-PATCHED > profile-diff.md

Each input is a guest serial log written by `tools/bench --profile`: per
workload a 'BENCH <name> run=0 packets=N' line and ftrace's function
profile (self time, top 80 functions) between PROFILE-BEGIN and
PROFILE-END. The profiler covers the warm-up run and one run, 2*N
packets. Hit counts are exact; its times include the profiler's own
cost per call, hundreds of instructions, and are not used. For each workload the output lists the functions called a
different number of times per packet on the two kernels.
"""
import re
import sys

ROW = re.compile(r'^\s*(\S+)\s+(\d+)\s+([\d.]+) us\s')


def parse(path):
    prof, packets, cur = {}, {}, None
    with open(path, errors='replace') as f:
        for line in f:
            m = re.match(r'BENCH (\S+) run=0 packets=(\d+)', line)
            if m:
                packets[m.group(1)] = int(m.group(2))
            elif line.startswith('PROFILE-BEGIN '):
                cur = line.split()[1]
                prof[cur] = {}
            elif line.startswith('PROFILE-END'):
                cur = None
            elif cur:
                m = ROW.match(line)
                if m:
                    prof[cur][m.group(1)] = (int(m.group(2)),
                                             float(m.group(3)) * 1000)
    return prof, packets


def main():
    if len(sys.argv) != 3 or sys.argv[1] in ('-h', '--help'):
        print(__doc__.strip())
        sys.exit(0 if len(sys.argv) == 2 else 2)
    base, bpk = parse(sys.argv[1])
    patched, ppk = parse(sys.argv[2])
    names = [w for w in patched if w in base]
    if not names:
        sys.exit('profile-diff: no workload profiled on both kernels')
    print('# Function profiles, base vs patched\n')
    print('Calls per packet, from the ftrace function profiler of the '
          'profiling kernels (top 80 functions by self time of each '
          'kernel; a function outside them shows as -). The profiler '
          'costs hundreds of instructions per call, so its times are not '
          'shown. Made by `tools/bench --profile build profile`.\n')
    for w in names:
        nb, np_ = 2 * bpk.get(w, 0), 2 * ppk.get(w, 0)
        if not nb or not np_:
            continue
        b, p = base[w], patched[w]
        print(f'## {w}\n')
        print('Called a different number of times per packet:\n')
        print('| function | base calls | patched calls |')
        print('|---|---:|---:|')
        diff = []
        for fn in set(b) | set(p):
            cb = b[fn][0] / nb if fn in b else None
            cp = p[fn][0] / np_ if fn in p else None
            if abs((cb or 0) - (cp or 0)) >= 0.05:
                diff.append((fn, cb, cp))
        for fn, cb, cp in sorted(diff, key=lambda d: -abs((d[1] or 0) -
                                                          (d[2] or 0))):
            fmt = lambda v: '-' if v is None else f'{v:.2f}'
            print(f'| `{fn}` | {fmt(cb)} | {fmt(cp)} |')
        calls = lambda prof, n: sum(h for h, _ in prof.values()) / n
        print(f'\nFunction calls per packet in the top 80: base '
              f'{calls(b, nb):.1f}, patched {calls(p, np_):.1f}.')
        print()


if __name__ == '__main__':
    main()

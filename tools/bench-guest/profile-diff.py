#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the function profiles of the base, patched and v2 profiling boots.

Usage: profile-diff.py BASE PATCHED [V2] > profile-diff.md

Each argument is a guest serial log written by `tools/bench --profile`,
or several, comma-separated (the 1-vCPU boot's and the 2-vCPU boot's of
one kernel): per workload a 'BENCH <name> run=0 packets=N' line and
ftrace's function profile (self time) between PROFILE-BEGIN and
PROFILE-END, each CPU's list in turn (the top 80 functions of the 1-vCPU
boot; every function of the 2-vCPU boot's), a function's hits summed
over the CPUs. The profiler covers the warm-up run and one run, 2*N
packets. Hit counts are exact; its times include the profiler's own
cost per call, hundreds of instructions, and are not used. For each
workload the output lists the functions called a different number of
times per packet on any two of the kernels.
"""
import re
import sys

Profile = dict[str, tuple[int, float]]

ROW = re.compile(r'^\s*(\S+)\s+(\d+)\s+([\d.]+) us\s')


def parse(paths: str) -> tuple[dict[str, Profile], dict[str, int]]:
    """paths: comma-separated logs of one kernel; a workload profiled in
    two of them is taken from the first."""
    prof: dict[str, Profile] = {}
    packets: dict[str, int] = {}
    for path in paths.split(','):
        cur: Profile | None = None
        with open(path, errors='replace') as f:
            for line in f:
                m = re.match(r'BENCH (\S+) run=0 packets=(\d+)', line)
                if m:
                    packets.setdefault(m.group(1), int(m.group(2)))
                elif line.startswith('PROFILE-BEGIN '):
                    w = line.split()[1]
                    cur = None if w in prof else prof.setdefault(w, {})
                elif line.startswith('PROFILE-END'):
                    cur = None
                elif cur is not None:
                    m = ROW.match(line)
                    if m:
                        h, t = cur.get(m.group(1), (0, 0.0))
                        cur[m.group(1)] = (h + int(m.group(2)),
                                           t + float(m.group(3)) * 1000)
    return prof, packets


def main():
    helps = len(sys.argv) > 1 and sys.argv[1] in ('-h', '--help')
    if len(sys.argv) not in (3, 4) or helps:
        print(__doc__.strip(), file=sys.stdout if helps else sys.stderr)
        sys.exit(0 if helps else 2)
    kernels = [(k, *parse(a)) for k, a in zip(('base', 'patched', 'v2'),
                                               sys.argv[1:])]
    # every workload profiled on base and patched, in patched's order
    names = [w for w in kernels[1][1] if w in kernels[0][1]]
    if not names:
        sys.exit('profile-diff: no workload profiled on both kernels')
    print('# Function profiles, ' + ' vs '.join(k for k, _, _ in kernels) +
          '\n')
    print('Calls per packet, from the ftrace function profiler of the '
          'profiling kernels, summed over the CPUs (1-vCPU boot: the top '
          '80 functions by self time; 2-vCPU boot, the -xcpu workloads: '
          'all of them; a function not listed shows as -). The profiler '
          'costs hundreds of instructions per call, so its times are not '
          'shown. Made by `tools/bench --profile build profile`.\n')
    fmt = lambda v: '-' if v is None else f'{v:.2f}'
    for w in names:
        ks = [(k, prof[w], 2 * pk.get(w, 0)) for k, prof, pk in kernels
              if w in prof and pk.get(w)]
        if len(ks) < 2 or ks[0][0] != 'base' or ks[1][0] != 'patched':
            continue
        print(f'## {w}\n')
        print('Called a different number of times per packet:\n')
        print('| function | ' + ' | '.join(f'{k} calls' for k, _, _ in ks) +
              ' |')
        print('|---|' + '---:|' * len(ks))
        diff = []
        for fn in set().union(*(p for _, p, _ in ks)):
            c = [p[fn][0] / n if fn in p else None for _, p, n in ks]
            v = [x or 0 for x in c]
            if max(v) - min(v) >= 0.05:
                diff.append((max(v) - min(v), fn, c))
        for _, fn, c in sorted(diff, key=lambda d: (-d[0], d[1])):
            print(f'| `{fn}` | ' + ' | '.join(fmt(x) for x in c) + ' |')
        calls = lambda prof, n: sum(h for h, _ in prof.values()) / n
        print('\nFunction calls per packet in the lists: ' +
              ', '.join(f'{k} {calls(p, n):.1f}' for k, p, n in ks) + '.')
        print()


if __name__ == '__main__':
    main()

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Instructions per packet in skb-head allocation and freeing, per kernel.

Usage: alloc-cost.py OUTDIR NAME=PROFILE[,PROFILE...] [NAME=...]

Each PROFILE is a guest serial log of a profiling kernel booted by
`tools/bench profile` (bench.profile=1 bench.alloc=1, see
tools/bench-guest/init); a kernel's 2-vCPU boot (the -xcpu workloads)
follows its 1-vCPU one after a comma, and a section already read is not
taken again from a later log. Per workload, after the unfiltered
profile, an ALLOC-BEGIN/ALLOC-END section: ftrace's function profile
(graph-time on: a function's time is its whole interval, callees
included; each CPU's list in turn, a function's hits and time summed
over the CPUs) of a run
restricted to the allocator functions below, the out-of-line BH
enables and the calibration pair, and SLUB lines (per slab cache with
activity in the run: name, aliases, allocations, frees). Before the
workloads, the same for the calibration module skb_prof_cal.ko (section
skb_prof_cal, with CAL-PLAIN lines: its loops without the profiler) and,
on a kernel with it, the bench module skb_head_bench.ko. And per
workload, a BH-OUTER NAME COUNT line: the BH enables that ended an
outermost BH-disabled section in a run of its own, without the
profiler (skb_prof_cal.ko's /proc/skb_bh_outer), 'bh_outer' per packet.
A workload with a BENCH-FAIL line in a kernel's logs is left out for
that kernel.

Writes OUTDIR/alloc-cost.md and OUTDIR/alloc-cost.json. The method
(docs/bench.md, "Allocator instructions per packet"):

- Calibration. skb_prof_cal_leaf() is 2 instructions (lea, ret; the
  fentry site not counted), skb_prof_cal_outer() 3 (call, add, ret)
  and calls the leaf: the profiler adds O_in to the interval of every
  traced call (leaf avg - 2) and, to a traced caller, O_out per traced
  call nested in it (outer avg - 3 - 2 - 2 O_in).
- A function's real instructions: its time - hits x O_in - for each
  traced callee nested in it, n x (callee's avg + O_out). Its untraced
  callees are in it, as they are in the real instruction count.
- Nested calls (NESTS): a callee's hits are given to its traced callers
  in the order listed, up to calls-per-call x the caller's hits.
- Slab functions also serve other caches: of kmem_cache_alloc*'s single
  calls, the share that are skb heads is min(skbuff_head_cache
  allocations, calls - allocations of the other non-kmalloc caches with
  one or more per 100 packets) / calls; of kmem_cache_free's,
  min(skbuff_head_cache frees, calls) / calls; bulk calls are all heads.
- Three runs per workload: per function, the run with the lowest
  average time a call (a timer interrupt in a traced call, and the
  softirqs run on its exit, are in that call's time).
- The NAPI cache's in-line fast paths (skb_pool_get() and
  skb_pool_put(), inlined into build_skb_bh(), __alloc_skb(),
  kfree_skbmem(), napi_consume_skb()...) are not functions: counted from
  the disassembly, INLINE_GET instructions a get (count, head, prefetch
  of the next) and INLINE_PUT a put, times the heads per packet
  (HEADS_PER_PACKET, one skb per packet in every workload) that came
  neither from a slab call nor in bulk, resp. went neither to the slab
  nor to another CPU.
- napi_skb_cache_get_bulk's own instructions (beyond skb_pool_get_bulk
  and the slab calls nested in it) are the zeroing of the heads
  (skbuff_clear(), done by build_skb() on the slab path outside the
  allocator): shown apart as 'zeroing', not in the allocator figure.

Per packet: the profiled run covers the warm-up run and one run, 2 x N
packets of the BENCH line before the section.
"""
import json
import os
import re
import sys
from typing import Any

ROW = re.compile(r'^\s*(\S+)\s+(\d+)\s+([\d.]+) us\s')
CAL_LEAF, CAL_OUTER = 'skb_prof_cal_leaf', 'skb_prof_cal_outer'
LEAF_INSNS, OUTER_INSNS = 2, 3       # objdump -d skb_prof_cal.ko
SLAB_ALLOC = ('kmem_cache_alloc_noprof', 'kmem_cache_alloc_node_noprof',
              'kmem_cache_alloc_lru_noprof')
SLAB_FREE = ('kmem_cache_free',)
SLAB_BULK = ('kmem_cache_alloc_bulk_noprof', 'kmem_cache_free_bulk')
POOL = ('skb_pool_get_bulk', 'skb_pool_refill', 'skb_pool_flush',
        'napi_skb_cache_put_bulk', 'skb_attempt_defer_free')
ZEROING = ('napi_skb_cache_get_bulk',)
BH = ('__local_bh_enable_ip', '_local_bh_enable')
# callee: [(traced caller, most calls of the callee per call)], in order
NESTS = {
    'kmem_cache_alloc_bulk_noprof': [('skb_pool_refill', 1),
                                     ('skb_pool_get_bulk', 2),
                                     ('napi_skb_cache_get_bulk', 2)],
    'kmem_cache_free_bulk': [('skb_pool_flush', 1)],
    'skb_pool_get_bulk': [('napi_skb_cache_get_bulk', 1)],
    'skb_pool_flush': [('napi_skb_cache_put_bulk', 1)],
    CAL_LEAF: [(CAL_OUTER, 1)],
}
HEAD_CACHE = 'skbuff_head_cache'
# objdump -d of bench-patched-prof: build_skb_bh()'s in-line get (this
# CPU's pool, count, test, the head, the new count, test, the prefetch
# of the next head: 14) and kfree_skbmem()'s put (10, not the
# skb_head_to_napi_cache() test before it); 7.3's napi_skb_cache_get()
# and _put() have the same shape.
INLINE_GET, INLINE_PUT = 14, 10
HEADS_PER_PACKET = 1
# The zeroing of a head in napi_skb_cache_get_bulk() (skbuff_clear()),
# instructions: measured on the bench module's bulk loops where it runs
# (4 loops of NHEADS_BULK heads), else this.
ZERO_PER_HEAD, NHEADS_BULK = 42.0, 4 * 16384


def parse(path: str) -> dict[str, Any]:
    """{'sections': {name: {'prof': {fn: (hits, ns)}, 'slub': {cache:
    (aliases, allocs, frees)}, 'packets': N}}, 'plain': {loop: ns/iter}}"""
    out: dict[str, Any] = {'sections': {}, 'plain': {}, 'prof_loops': {},
                           'bh_outer': {}, 'failed': set()}
    cur: dict[str, Any] | None = None
    packets = 0
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            m = re.match(r'BENCH (\S+) run=0 packets=(\d+)', line)
            if m:
                packets = int(m.group(2))
                continue
            m = re.match(r'BENCH-FAIL (\S+)$', line)
            if m:
                out['failed'].add(m.group(1))
                continue
            m = re.match(r'BH-OUTER (\S+) (\d+)$', line)
            if m:
                out['bh_outer'][m.group(1)] = int(m.group(2))
                continue
            m = re.match(r'CAL-(PLAIN|PROF) (\S+) (\S+) (\d+) (\d+)', line)
            if m:
                key = 'plain' if m.group(1) == 'PLAIN' else 'prof_loops'
                v = int(m.group(5)) / int(m.group(4))
                out[key][m.group(3)] = min(v, out[key].get(m.group(3), v))
                continue
            if line.startswith('ALLOC-BEGIN '):
                cur = {'prof': {}, 'slub': {}, 'packets': packets}
                out['sections'].setdefault(line.split()[1], []).append(cur)
            elif line.startswith('ALLOC-END'):
                if cur is not None and not cur['prof']:
                    name = line.split()[1]
                    print(f'alloc-cost: {path}: empty profile of {name}, '
                          'left out', file=sys.stderr)
                    out['sections'][name].pop()
                cur = None
            elif cur is not None:
                m = ROW.match(line)
                if m:
                    h, t = cur['prof'].get(m.group(1), (0, 0.0))
                    cur['prof'][m.group(1)] = (h + int(m.group(2)),
                                               t + float(m.group(3)) * 1000)
                elif line.startswith('SLUB '):
                    _, cache, aliases, a, fr = line.split()
                    cur['slub'][cache] = (aliases, int(a), int(fr))
    # A workload that failed in any of its runs on this kernel is left
    # out: its figures are of a run that did not do what it should.
    for name in sorted(out['failed']):
        print(f'alloc-cost: {path}: {name} failed (BENCH-FAIL), left out',
              file=sys.stderr)
        out['sections'].pop(name, None)
        out['bh_outer'].pop(name, None)
    # Per function, the run with the lowest average: an interrupt inside
    # a traced call only adds. The SLUB lines of the first run.
    for name, reps in list(out['sections'].items()):
        if not reps:
            del out['sections'][name]
            continue
        merged = dict(reps[0], prof={})
        for fn in set().union(*(r['prof'] for r in reps)):
            merged['prof'][fn] = min(
                (r['prof'][fn] for r in reps if fn in r['prof']),
                key=lambda hn: hn[1] / hn[0])
        out['sections'][name] = merged
    return out


def calibrate(sec):
    """O_in, O_out from the skb_prof_cal section."""
    p = sec['prof']
    if CAL_LEAF not in p or CAL_OUTER not in p:
        sys.exit('alloc-cost: no calibration pair in the skb_prof_cal profile')
    leaf = p[CAL_LEAF][1] / p[CAL_LEAF][0]
    outer = p[CAL_OUTER][1] / p[CAL_OUTER][0]
    o_in = leaf - LEAF_INSNS
    o_out = outer - OUTER_INSNS - LEAF_INSNS - 2 * o_in
    return o_in, o_out


def real_insns(prof, o_in, o_out):
    """{fn: (hits, real instructions)}: nested callees taken out."""
    nested: dict[str, list[tuple[str, int]]] = {}  # caller -> [(callee, n)]
    for callee, callers in NESTS.items():
        if callee not in prof:
            continue
        left = prof[callee][0]
        for caller, per in callers:
            if caller in prof and left:
                n = min(left, per * prof[caller][0])
                nested.setdefault(caller, []).append((callee, n))
                left -= n
    real = {}
    for fn, (hits, ns) in prof.items():
        t = ns - hits * o_in
        for callee, n in nested.get(fn, []):
            t -= n * (prof[callee][1] / prof[callee][0] + o_out)
        real[fn] = (hits, t)
    return real


def is_other(cache, aliases):
    """A cache of no skb head and no kmalloc() (those are not allocated
    through kmem_cache_alloc*)."""
    names = [cache] + ([] if aliases == '-' else aliases.split(','))
    return HEAD_CACHE not in names and not any(
        n.startswith('kmalloc-') for n in names)


def head_shares(prof, slub, pk):
    """Share of the single-object slab calls that are skb heads: at most
    the heads the slab gave (SLUB), and for allocations not those of the
    other caches allocated per packet (at least one per 100 packets; the
    small data heads of skb_small_head_cache, which are freed by kfree(),
    not kmem_cache_free())."""
    head = next((v for k, v in slub.items()
                 if k == HEAD_CACHE or HEAD_CACHE in v[0].split(',')),
                ('-', 0, 0))
    other_a = sum(v[1] for k, v in slub.items()
                  if is_other(k, v[0]) and v[1] >= pk / 100)
    shares = {}
    for fns, heads, other in ((SLAB_ALLOC, head[1], other_a),
                              (SLAB_FREE, head[2], 0)):
        calls = sum(prof.get(f, (0, 0))[0] for f in fns)
        if calls:
            share = min(heads, max(0, calls - other)) / calls
            for f in fns:
                shares[f] = share
    for f in SLAB_BULK:
        shares[f] = 1.0
    return shares


def zero_per_head(log, o_in, o_out):
    sec = log['sections'].get('skb_head_bench')
    if not sec or ZEROING[0] not in sec['prof']:
        return None
    real = real_insns(sec['prof'], o_in, o_out)
    return real[ZEROING[0]][1] / NHEADS_BULK


def analyse(sec, o_in, o_out, zph=ZERO_PER_HEAD):
    prof, pk = sec['prof'], 2 * sec['packets']
    if not pk:
        return None
    real = real_insns(prof, o_in, o_out)
    shares = head_shares(prof, sec['slub'], pk)
    fns, insns, calls = {}, 0.0, 0.0
    for fn, (hits, t) in real.items():
        if fn in shares or fn in POOL:
            s = shares.get(fn, 1.0)
            fns[fn] = {'calls': s * hits / pk, 'instructions': s * t / pk,
                       'share': s}
            insns += s * t
            calls += s * hits
    zero = sum(real[f][1] for f in ZEROING if f in real)
    zcalls = sum(real[f][0] for f in ZEROING if f in real)
    # the heads of the in-line fast paths
    single = lambda fs: sum(fns[f]['calls'] for f in fs if f in fns)
    bulk = min(HEADS_PER_PACKET, zero / pk / zph)
    gets = max(0.0, HEADS_PER_PACKET - single(SLAB_ALLOC) - bulk)
    puts = max(0.0, HEADS_PER_PACKET - single(SLAB_FREE) -
               single(('skb_attempt_defer_free',)))
    inline = INLINE_GET * gets + INLINE_PUT * puts
    return {
        'packets': pk,
        'instructions': insns / pk + inline,
        'out_of_line': insns / pk,
        'inline': inline,
        'inline_gets': gets,
        'inline_puts': puts,
        'bulk_heads': bulk,
        'calls': (calls + zcalls) / pk,
        'zeroing': zero / pk,
        'bh_enables': sum(prof.get(f, (0, 0))[0] for f in BH) / pk,
        'functions': fns,
    }


def validation(log, o_in, o_out):
    """Per head: the slab pair by the profile vs without it."""
    res = {}
    sec = log['sections'].get('skb_prof_cal')
    plain = log['plain']
    if sec and 'kmem-pair' in plain and 'cal-empty' in plain:
        p = sec['prof']
        prof = sum(p[f][1] / p[f][0] - o_in
                   for f in ('kmem_cache_alloc_noprof', 'kmem_cache_free'))
        # the loop's own 10 instructions a pair and the 2 fentry nops
        res['kmem-pair'] = {'profile': prof,
                            'plain': plain['kmem-pair'] - 10 - 2}
    sec = log['sections'].get('skb_head_bench')
    if sec and 'kmem_cache_alloc_noprof' in sec['prof']:
        p = sec['prof']
        res['skb-head-slab'] = {'profile': sum(
            p[f][1] / p[f][0] - o_in
            for f in ('kmem_cache_alloc_noprof', 'kmem_cache_free'))}
        for k in ('skb-head-slab', 'skb-head-pair', 'skb-floor-pair'):
            if k in plain:
                res['skb-head-slab'][k] = plain[k]
        # the profiler's cost in the loop: two traced calls a head, each
        # O_in + O_out, less the fentry nop it replaces
        lp = log['prof_loops']
        if 'skb-head-slab' in lp and 'skb-head-slab' in plain:
            res['skb-head-slab']['profiler_cost'] = \
                lp['skb-head-slab'] - plain['skb-head-slab']
            res['skb-head-slab']['profiler_cost_calibrated'] = \
                2 * (o_in + o_out) - 2
    return res


def main():
    args = sys.argv[1:]
    if not args or args[0] in ('-h', '--help') or len(args) < 2 or \
            not all('=' in a for a in args[1:]):
        print(__doc__.strip())
        sys.exit(0 if args and args[0] in ('-h', '--help') else 2)
    outdir, kernels = args[0], []
    for a in args[1:]:
        name, paths = a.split('=', 1)
        log = parse(paths.split(',')[0])
        for path in paths.split(',')[1:]:
            more = parse(path)
            for w, sec in more['sections'].items():
                log['sections'].setdefault(w, sec)
            for w, n in more['bh_outer'].items():
                log['bh_outer'].setdefault(w, n)
            log['failed'] |= more['failed']
        kernels.append((name, log))
    res: dict[str, Any] = {
        'method': 'ftrace function profiler, filtered, graph-time on, '
                  'calibrated (docs/bench.md, "Allocator instructions '
                  'per packet")',
        'kernels': {}, 'workloads': []}
    # tools/bench: the source tree the profiling kernels were built from
    # (report.py takes the BH sections only for the same tree)
    if os.environ.get('BENCH_PATCHED_TREE'):
        res['patched_tree'] = os.environ['BENCH_PATCHED_TREE']
    order = []
    for name, log in kernels:
        cal = log['sections'].get('skb_prof_cal')
        if not cal:
            sys.exit(f'alloc-cost: {name}: no skb_prof_cal calibration')
        o_in, o_out = calibrate(cal)
        res['kernels'][name] = {'o_in': o_in, 'o_out': o_out,
                                'zero_per_head': zero_per_head(log, o_in,
                                                               o_out),
                                'validation': validation(log, o_in,
                                                        o_out)}
        for w in log['sections']:
            if w not in ('skb_prof_cal', 'skb_head_bench') and w not in order:
                order.append(w)
    # the zeroing per head of a kernel with the bench module, for all
    zph = next((k['zero_per_head'] for k in res['kernels'].values()
                if k['zero_per_head']), ZERO_PER_HEAD)
    res['zero_per_head'] = zph
    for w in order:
        row: dict[str, Any] = {'name': w}
        for name, log in kernels:
            k = res['kernels'][name]
            sec = log['sections'].get(w)
            row[name] = analyse(sec, k['o_in'], k['o_out'], zph) if sec \
                else None
            # the unfiltered run's outermost enables, over its packets
            if row[name]:
                n = log['bh_outer'].get(w)
                row[name]['bh_outer'] = None if n is None else \
                    n / row[name]['packets']
        res['workloads'].append(row)
    with open(f'{outdir}/alloc-cost.json', 'w') as f:
        json.dump(res, f, indent=1)
        f.write('\n')
    names = [n for n, _ in kernels]
    md = ['# Allocator instructions per packet\n',
          'Instructions per packet in skb-head allocation and freeing '
          '(slab calls of skbuff_head_cache, the NAPI cache\'s and '
          'skb_pool\'s out-of-line functions), their calls per packet, '
          'and BH enables (BH disable/enable pairs) per packet, from the '
          'filtered, calibrated function profile of the profiling '
          'kernels (`tools/bench profile`; method: docs/bench.md, '
          '"Allocator instructions per packet"), and of them, those '
          'that ended an outermost section, which may run softirqs '
          '(BH outer: skb_prof_cal.ko\'s count, in a run of its own '
          'without the profiler). Goal: <= 50 instructions per packet on every packet '
          'workload.\n']
    head = '| workload | ' + ' | '.join(
        f'{n} insns | {n} calls | {n} BH | {n} BH outer'
        for n in names) + ' |'
    md += [head, '|---|' + '---:|' * (4 * len(names))]
    fmt = lambda v, d=1: '-' if v is None else f'{v:.{d}f}'
    for row in res['workloads']:
        cells = []
        for n in names:
            r = row[n]
            cells += [fmt(r and r['instructions']), fmt(r and r['calls'], 2),
                      fmt(r and r['bh_enables'], 2),
                      fmt(r and r['bh_outer'], 2)]
        md.append(f'| {row["name"]} | ' + ' | '.join(cells) + ' |')
    zs = []
    for n in names:
        z = ', '.join(f'{row["name"]} {row[n]["zeroing"]:.1f}'
                      for row in res['workloads']
                      if row[n] and row[n]['zeroing'] > 0.05)
        zs.append(f'{n}: {z or "none"}')
    md.append('\nIncluded: the NAPI cache\'s in-line get and put, '
              f'{INLINE_GET} and {INLINE_PUT} instructions (disassembly), '
              'per head not taken from or given to the slab or in bulk. '
              'Not included: the heads\' zeroing in '
              '`napi_skb_cache_get_bulk()` (' +
              f'{res["zero_per_head"]:.1f} a head; per packet: ' +
              '; '.join(zs) + ').\n')
    md.append('Calibration (profiler cost per traced call, instructions): ' +
              '; '.join(f'{n}: inside the interval {k["o_in"]:.1f}, '
                        f'outside {k["o_out"]:.1f}'
                        for n, k in res['kernels'].items()) + '.\n')
    for n, k in res['kernels'].items():
        v = k['validation']
        if 'kmem-pair' in v:
            md.append(f'Validation, {n}: kmem_cache_alloc() + '
                      f'kmem_cache_free() of an skb head, '
                      f'{v["kmem-pair"]["profile"]:.1f} instructions by the '
                      f'profile, {v["kmem-pair"]["plain"]:.1f} without it.')
        if 'skb-head-slab' in v:
            s = v['skb-head-slab']
            md.append(f'Validation, {n}: the skb-head-slab loop\'s slab pair '
                      f'{s["profile"]:.1f} instructions a head by the profile.')
            if 'profiler_cost' in s:
                md.append(f'Validation, {n}: the profiler\'s cost in the '
                          f'skb-head-slab loop, {s["profiler_cost"]:.1f} a '
                          f'head measured, '
                          f'{s["profiler_cost_calibrated"]:.1f} by the '
                          'calibration.')
    md.append('')
    md.append('Per function (instructions per packet / calls per packet):\n')
    for row in res['workloads']:
        parts = []
        for n in names:
            r = row[n]
            if not r:
                continue
            fs = sorted(r['functions'].items(),
                        key=lambda kv: -kv[1]['instructions'])
            parts.append(f'{n}: ' + (', '.join(
                f'`{fn}` {d["instructions"]:.1f}/{d["calls"]:.3f}'
                for fn, d in fs if d['calls'] >= 0.0005) or 'none'))
        md.append(f'- {row["name"]}: ' + '; '.join(parts))
    with open(f'{outdir}/alloc-cost.md', 'w') as f:
        f.write('\n'.join(md) + '\n')


if __name__ == '__main__':
    main()

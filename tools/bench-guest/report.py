#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the raw guest output of tools/bench into results.json/.md (+ gnuplot data).

Usage: report.py RAW_BASE RAW_PATCHED OUTDIR [COMMAND]

RAW_BASE and RAW_PATCHED may each name several raw files of one kernel,
comma-separated (tools/bench: the 1-vCPU boot's and the 2-vCPU boot's
of the *-xcpu workloads); their BENCH lines are merged.

A raw file holds the guest's serial log; the lines used are
  KERNEL <release>
  BENCH <workload> run=<i> packets=<n> ns=<delta> slab=<heads>
Anything else is ignored. A run's figure is ns/packets: instructions per
packet (qemu -icount shift=0). A workload's figure is the median of its
runs; min and max are kept for both kernels.

skb-head-*: the patched kernel alone runs three loops; the base column is
the slab pair (skb-head-slab), the patched column skb-head-pair or
skb-head-bulk64.
"""
import fileinput
import json
import os
import re
import statistics
import sys

ORDER = ["tun-write-1400", "tun-write-64", "tun-echo-1400", "tun-echo-64",
         "vhost-batch-1400", "vhost-batch-64", "tap-vhost-batch-1400",
         "tap-vhost-batch-64", "veth-xdp-1400", "veth-xdp-64",
         "skb-head-pair", "skb-head-bulk64"]
# The cross-CPU workloads (2 vCPUs, a boot of their own): no goal.
ORDER += ["tun-echo-xcpu-1400", "tun-echo-xcpu-64", "vhost-batch-xcpu-1400",
          "vhost-batch-xcpu-64"]
# No goal for tap-vhost-batch-* and veth-xdp-*: the issue that added them
# set none, and they measure paths (macvlan, XDP redirect) the series
# does not touch beside the one it does.
GOALS = {"tun-write-1400": 0.88, "tun-write-64": 0.85,
         "tun-echo-1400": 0.85, "tun-echo-64": 0.82,
         "vhost-batch-1400": 0.85, "vhost-batch-64": 0.80,
         "skb-head-pair": 0.5, "skb-head-bulk64": 0.4}
SLAB_GOAL = 10.0
MICRO = {"skb-head-pair": "skb-head-pair", "skb-head-bulk64": "skb-head-bulk64"}
MICRO_BASE = "skb-head-slab"
# The same loops with the heads reused and no allocator (bench module):
# each micro row's floor, and series/floor beside series/slab.
FLOOR = {"skb-head-pair": "skb-floor-pair", "skb-head-bulk64": "skb-floor-bulk64"}
# Printed by the bench module beside the table's loops, per iteration;
# listed under the table, not compared with the base.
DIAG = {"skb-head-bulk32": "napi_skb_cache_get_bulk(32) + build_skb_around() + consume_skb_bh(), per head",
        "lock-bh-pair": "local_bh_disable() + local_bh_enable() around a per-CPU increment",
        "lock-local-pair": "local_lock() + local_unlock() around a per-CPU increment"}

LINE = re.compile(r"BENCH (\S+) run=(\d+) packets=(\d+) ns=(\d+) slab=(\d+)")

METHOD = (
    "qemu-system-x86_64 -icount shift=0,sleep=off (TCG, 1 vCPU, no -accel): one guest "
    "nanosecond is one guest instruction, so CLOCK_MONOTONIC deltas taken in the guest "
    "around a loop of N packets are instruction counts. Both kernels: tinyconfig + "
    "tools/bench-guest/kernel.config (non-debug, -O2, SMP, SLUB_STATS), the pinned base "
    "and the base + the whole series. One boot per kernel runs every workload: an "
    "untimed warm-up run of N packets, then R timed runs of N packets. Unit: "
    "instructions per packet (per head for skb-head-*), including the guest "
    "program's loop and syscalls. base/patched = median of the runs; ratio = "
    "patched/base (lower is better); min/max = of the patched runs (base_min/base_max "
    "of the base runs). slab_heads_per_1000 = skb heads taken from the slab "
    "(skbuff_head_cache alloc_fastpath+alloc_slowpath deltas) per 1000 packets, "
    "median of the patched runs (slab_heads_per_1000_base for the base). "
    "skb-head-*: in-kernel loops on the patched kernel only (bench-only module); the "
    "base column is build_skb()+consume_skb() (slab), per head.")
METHOD += (
    " *-xcpu: a second boot of each kernel with -smp 2, the writer on CPU 0 and the "
    "reader or vhost worker on CPU 1; TCG runs the vCPUs round-robin on one "
    "instruction counter, so a guest nanosecond is one instruction of either vCPU "
    "and the figure is the instructions of both per packet.")


def parse(paths):
    runs, release = {}, None
    with fileinput.input(paths.split(","), encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("KERNEL "):
                release = line.split()[1]
            m = LINE.search(line)
            if m:
                name, _, n, ns, slab = m.groups()
                n, ns, slab = int(n), int(ns), int(slab)
                if n <= 0:
                    continue
                runs.setdefault(name, []).append((ns / n, slab * 1000.0 / n, n))
    return release, runs


def summary(rs):
    per = [r[0] for r in rs]
    slab = [r[1] for r in rs]
    return {"median": statistics.median(per), "min": min(per), "max": max(per),
            "slab": statistics.median(slab), "runs": len(rs), "packets": min(r[2] for r in rs)}


def r1(x):
    return None if x is None else round(x, 1)


def main():
    if len(sys.argv) not in (4, 5):
        sys.stderr.write(__doc__)
        return 2
    rel_b, base = parse(sys.argv[1])
    rel_p, patched = parse(sys.argv[2])
    outdir = sys.argv[3]
    command = sys.argv[4] if len(sys.argv) == 5 else "make bench"
    rows = []
    for name in ORDER:
        if name in MICRO:
            b = patched.get(MICRO_BASE)
            p = patched.get(MICRO[name])
        else:
            b = base.get(name)
            p = patched.get(name)
        if not b or not p:
            continue
        sb, sp = summary(b), summary(p)
        micro = name in MICRO
        rows.append({
            "name": name,
            "unit": "instructions/head" if micro else "instructions/packet",
            "base": r1(sb["median"]), "patched": r1(sp["median"]),
            "ratio": round(sp["median"] / sb["median"], 4),
            "min": r1(sp["min"]), "max": r1(sp["max"]),
            "base_min": r1(sb["min"]), "base_max": r1(sb["max"]),
            "packets": sp["packets"], "runs": min(sb["runs"], sp["runs"]),
            "slab_heads_per_1000": None if micro else r1(sp["slab"]),
            "slab_heads_per_1000_base": None if micro else r1(sb["slab"]),
            "spread_pct": round(100 * max((sp["max"] - sp["min"]) / sp["median"],
                                          (sb["max"] - sb["min"]) / sb["median"]), 3),
            "goal": GOALS.get(name),
        })
        fl = patched.get(FLOOR.get(name, ""))
        if micro and fl:
            f = summary(fl)
            rows[-1]["floor"] = r1(f["median"])
            rows[-1]["ratio_floor"] = round(sp["median"] / f["median"], 4)
    if not rows:
        sys.stderr.write("report.py: no workload has results on both kernels\n")
        return 1
    # tools/bench says which trees the kernels came from.
    desc_b = os.environ.get("BENCH_BASE_DESC")
    desc_p = os.environ.get("BENCH_PATCHED_DESC")
    rel_b = (rel_b or "unknown") + (" (%s)" % desc_b if desc_b else "")
    rel_p = (rel_p or "unknown") + (" (%s)" % desc_p if desc_p else "")
    diags = []
    for name, what in DIAG.items():
        if patched.get(name):
            d = summary(patched[name])
            diags.append({"name": name, "what": what, "instructions": r1(d["median"]),
                          "min": r1(d["min"]), "max": r1(d["max"]), "runs": d["runs"]})
    res = {"method": METHOD, "base": rel_b, "patched": rel_p,
           "command": command, "workloads": rows, "diagnostics": diags}
    with open(f"{outdir}/results.json", "w") as f:
        json.dump(res, f, indent=2)
        f.write("\n")

    md = ["| workload | unit | base | patched | ratio | goal | patched min..max | "
          "base min..max | slab heads/1000 pkts base -> patched | runs x packets |",
          "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for w in rows:
        goal = w["goal"]
        gtxt = "" if goal is None else ("<= %.2f %s" % (goal, "met" if w["ratio"] <= goal else "MISSED"))
        slab = "n/a" if w["slab_heads_per_1000"] is None else \
            "%.1f -> %.1f%s" % (w["slab_heads_per_1000_base"], w["slab_heads_per_1000"],
                                "" if w["slab_heads_per_1000"] <= SLAB_GOAL else " (> %g)" % SLAB_GOAL)
        md.append("| %s | %s | %.1f | %.1f | %.3f | %s | %.1f..%.1f | %.1f..%.1f | %s | %d x %d |" % (
            w["name"], w["unit"], w["base"], w["patched"], w["ratio"], gtxt,
            w["min"], w["max"], w["base_min"], w["base_max"], slab, w["runs"], w["packets"]))
    md.append("")
    md.append("Base `%s`, patched `%s`; made by `%s`. Ratio = patched/base of the "
              "medians, lower is better. Steady-state slab goal: <= %g heads per 1000 packets." % (
                  res["base"], res["patched"], command, SLAB_GOAL))
    md.append("Largest run-to-run spread ((max-min)/median, either kernel): %.3f%%." %
              max(w["spread_pct"] for w in rows))
    floors = [w for w in rows if "floor" in w]
    if floors:
        md.append("")
        md.append("Floors (the same loop, heads reused, no allocator: build_skb_around() + "
                  "page_frag_free() of the data; the head-state release is left out, so a "
                  "floor is a few instructions low):")
        for w in floors:
            md.append("- `%s`: floor %.1f; series/floor %.3f, series/slab %.3f" % (
                w["name"], w["floor"], w["ratio_floor"], w["ratio"]))
    if diags:
        md.append("")
        md.append("Diagnostics of the bench module on the patched kernel (instructions per "
                  "iteration, median of %d runs):" % min(d["runs"] for d in diags))
        for d in diags:
            md.append("- `%s`: %.1f (%.1f..%.1f): %s" % (d["name"], d["instructions"],
                                                        d["min"], d["max"], d["what"]))
    with open(f"{outdir}/results.md", "w") as f:
        f.write("\n".join(md) + "\n")
    with open(f"{outdir}/chart.dat", "w") as f:
        f.write("# workload base patched ratio\n")
        for w in rows:
            f.write("%s %.1f %.1f %.3f\n" % (w["name"], w["base"], w["patched"], w["ratio"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the raw guest output of tools/bench into results.json/.md (+ gnuplot data).

results.json holds the figures; results.md is the table made from it by
tools/pylib/skbpool_results.py, which also renders the tables of the
README and docs/bench.md from the copy tools/bench keeps in
results/bench.json (tools/tables).

Usage: report.py [--peer RAW_PEER] RAW_BASE RAW_PATCHED OUTDIR [COMMAND]

--peer: the raw files of a third kernel, the series this one grew from
(tools/bench: the v2 series, BENCH_PEER_DESC names it); its figures go
next to the base's, with the ratio peer/base and the goal that this
series is not above the peer where both ran a workload.

BH sections: where OUTDIR/alloc-cost.json (tools/bench profile) is of the
same patched tree (its patched_tree, BENCH_PATCHED_TREE here), each row
gets its BH sections per packet on each kernel (bh_base, bh, bh_peer):
the out-of-line BH enables the filtered profile counted, one per
local_bh_disable()/local_bh_enable() pair or _bh lock section, nested
ones included; and of them, those that ended an outermost section and
so may run pending softirqs (bh_outer_base, bh_outer, bh_outer_peer).

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

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "pylib"))
import skbpool_results as sr  # noqa: E402

# per workload, per run: (ns a packet, slab heads a 1000 packets, packets)
Runs = dict[str, list[tuple[float, float, int]]]
# The workloads file, the one list of them (tools/bench runs it)
WORKLOADS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "workloads")


def workload_rows(path: str) -> list[str]:
    """The table's rows, in order, from the workloads file tools/bench
    runs (NAME SIZES VCPUS a line): NAME-SIZE for each size, NAME for a
    workload with none, the skb-head module's rows for skb-head."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            name, sizes, _vcpus = line.split()
            if name == "skb-head":
                rows += list(MICRO)
            elif sizes == "-":
                rows.append(name)
            else:
                rows += [f"{name}-{size}" for size in sizes.split(",")]
    return rows


# The goals on 7.3, patched/base of the medians; the skb-head
# loops against their floors (FLOOR_GOALS: series/floor); the cross-CPU
# workloads: no more instructions and no more slab heads than the base.
GOALS = {"tun-write-1400": 0.80, "tun-write-64": 0.80,
         "tun-echo-1400": 0.90, "tun-echo-64": 0.90,
         "vhost-batch-1400": 0.85, "vhost-batch-64": 0.84,
         "tap-vhost-batch-1400": 0.85, "tap-vhost-batch-64": 0.85,
         "veth-xdp-1400": 0.95, "veth-xdp-64": 0.95}
FLOOR_GOALS = {"skb-head-pair": 1.10, "skb-head-bulk64": 1.05}
MICRO = {"skb-head-pair": "skb-head-pair", "skb-head-bulk64": "skb-head-bulk64"}
MICRO_BASE = "skb-head-slab"
# The same loops with the heads reused and no allocator (bench module):
# each micro row's floor, and series/floor next to series/slab.
FLOOR = {"skb-head-pair": "skb-floor-pair", "skb-head-bulk64": "skb-floor-bulk64"}
# Printed by the bench module with the table's loops, per iteration;
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
# BENCH_RT=1 (tools/bench --rt): both kernels PREEMPT_RT, every row's
# goal the base's figure.
RT_METHOD = (
    " Here both kernels also have tools/bench-guest/rt.config (PREEMPT_RT), "
    "and every row's goal is the base's figure (ratio <= 1.00).")
RT_GOAL = 1.0
METHOD += (
    " *-xcpu: a second boot of each kernel with -smp 2, the writer on CPU 0 and the "
    "reader or vhost worker on CPU 1; TCG runs the vCPUs round-robin on one "
    "instruction counter, so a guest nanosecond is one instruction of either vCPU "
    "and the figure is the instructions of both per packet.")


def parse(paths: str) -> tuple[str | None, Runs]:
    runs: Runs = {}
    release = None
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


def bh_sections(outdir: str, tree: str | None) -> dict[str, dict]:
    """Per workload, BH sections per packet per kernel from
    OUTDIR/alloc-cost.json, when it is of patched tree TREE; else {}."""
    try:
        with open(f"{outdir}/alloc-cost.json", encoding="utf-8") as f:
            cost = json.load(f)
    except FileNotFoundError:
        return {}
    if not tree or cost.get("patched_tree") != tree:
        sys.stderr.write("report.py: %s/alloc-cost.json is of another patched "
                         "tree: no BH sections column (run tools/bench "
                         "--profile build profile)\n" % outdir)
        return {}
    out = {}
    for row in cost["workloads"]:
        # a workload without sizes is NAME-0 in the guest's sections
        name = row["name"][:-2] if row["name"].endswith("-0") else row["name"]
        out[name] = {k: (round(row[k]["bh_enables"], 2),
                         None if row[k].get("bh_outer") is None else
                         round(row[k]["bh_outer"], 2))
                     for k in ("base", "patched", "v2") if row.get(k)}
    return out


def main():
    args = sys.argv[1:]
    peer_raw = None
    if len(args) >= 2 and args[0] == "--peer":
        peer_raw, args = args[1], args[2:]
    if len(args) not in (3, 4):
        sys.stderr.write(__doc__)
        return 2
    rel_b, base = parse(args[0])
    rel_p, patched = parse(args[1])
    rel_v, peer = parse(peer_raw) if peer_raw else (None, {})
    outdir = args[2]
    command = args[3] if len(args) == 4 else "make bench"
    rt = os.environ.get("BENCH_RT") == "1"
    bh = bh_sections(outdir, os.environ.get("BENCH_PATCHED_TREE"))
    rows = []
    for name in workload_rows(WORKLOADS):
        if name in MICRO:
            b = patched.get(MICRO_BASE)
            p = patched.get(MICRO[name])
            v = None
        else:
            b = base.get(name)
            p = patched.get(name)
            v = peer.get(name)
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
            "goal": RT_GOAL if rt else GOALS.get(name),
        })
        w = rows[-1]
        if v:
            sv = summary(v)
            w.update({"peer": r1(sv["median"]), "peer_min": r1(sv["min"]),
                      "peer_max": r1(sv["max"]),
                      "ratio_peer": round(sv["median"] / sb["median"], 4),
                      "ratio_to_peer": round(sp["median"] / sv["median"], 4),
                      "slab_heads_per_1000_peer": r1(sv["slab"]),
                      "runs": min(w["runs"], sv["runs"]),
                      "spread_pct": max(w["spread_pct"], round(
                          100 * (sv["max"] - sv["min"]) / sv["median"], 3))})
        for key, kernel in (("bh_base", "base"), ("bh", "patched"),
                            ("bh_peer", "v2")):
            if kernel in bh.get(name, {}):
                w[key], outer = bh[name][kernel]
                if outer is not None:
                    w[key.replace("bh", "bh_outer")] = outer
        fl = patched.get(FLOOR.get(name, ""))
        if micro and fl:
            f = summary(fl)
            w["floor"] = r1(f["median"])
            w["ratio_floor"] = round(sp["median"] / f["median"], 4)
            w["goal_floor"] = FLOOR_GOALS.get(name)
    if not rows:
        sys.stderr.write("report.py: no workload has results on both kernels\n")
        return 1
    # tools/bench says which trees the kernels came from.
    def described(rel, var):
        desc = os.environ.get(var)
        return (rel or "unknown") + (" (%s)" % desc if desc else "")
    res = {"method": METHOD + (RT_METHOD if rt else ""), "base": described(rel_b, "BENCH_BASE_DESC"),
           "patched": described(rel_p, "BENCH_PATCHED_DESC"), "command": command}
    # The patched kernel's source tree (git's tree hash): tools/mbox
    # quotes the table only in the mails of that series.
    if os.environ.get("BENCH_PATCHED_TREE"):
        res["patched_tree"] = os.environ["BENCH_PATCHED_TREE"]
    if peer_raw:
        res["peer"] = described(rel_v, "BENCH_PEER_DESC")
    diags = []
    for name, what in DIAG.items():
        if patched.get(name):
            d = summary(patched[name])
            diags.append({"name": name, "what": what, "instructions": r1(d["median"]),
                          "min": r1(d["min"]), "max": r1(d["max"]), "runs": d["runs"]})
    res.update({"spread_pct_max": max(w["spread_pct"] for w in rows),
                "workloads": rows, "diagnostics": diags})
    with open(f"{outdir}/results.json", "w") as f:
        json.dump(res, f, indent=2)
        f.write("\n")

    with open(f"{outdir}/results.md", "w") as f:
        f.write(sr.bench_full(res) + "\n")
    with open(f"{outdir}/chart.dat", "w") as f:
        f.write("# workload base patched ratio peer peer_ratio (peer: - where none)\n")
        for w in rows:
            f.write("%s %.1f %.1f %.3f %s %s\n" % (
                w["name"], w["base"], w["patched"], w["ratio"],
                "-" if w.get("peer") is None else "%.1f" % w["peer"],
                "-" if w.get("ratio_peer") is None else "%.3f" % w["ratio_peer"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

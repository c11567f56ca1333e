# SPDX-License-Identifier: GPL-2.0
"""The results the project commits, and every table made from them.

results/ in the checkout holds one JSON file per kind of result, each
written by the tool that measures it:

  bench.json     tools/bench (report step, tools/bench-guest/report.py)
  kunit.json     tools/run-kunit, one entry per cell (tools/matrix-table)
  coverage.json  tools/coverage (tools/coverage-summary --json)

The tables of README.md and docs/*.md are rendered from them, here, by
tools/tables (which also checks that a page and its JSON agree); the
bench report's out/bench/results.md and the cover letters' table of
tools/mbox use the same functions. Standard library only.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

Json = dict[str, Any]

# The bench's steady-state slab goal: heads per 1000 packets.
SLAB_GOAL = 10.0
# The cells, in the order of the flow: make (uml), make test (rt), make
# test-all (x86_64).
CELLS = ["uml", "rt", "x86_64"]


class ResultsError(Exception):
    """A results file missing, unreadable or without what a table needs."""


def load(results_dir: str, name: str) -> Json:
    """results_dir/name.json, a JSON object; for "variants", every
    results_dir/variants/*.json (tools/bench --patched), by file name."""
    if name == "variants":
        vdir = os.path.join(results_dir, "variants")
        try:
            names = sorted(f[:-5] for f in os.listdir(vdir)
                           if f.endswith(".json"))
        except OSError as e:
            raise ResultsError(f"cannot read {vdir}: {e.strerror}")
        return {n: load(vdir, n) for n in names}
    path = os.path.join(results_dir, f"{name}.json")
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise ResultsError(f"cannot read {path}: {e.strerror}")
    except json.JSONDecodeError as e:
        raise ResultsError(f"{path}: not valid JSON: {e}")
    if not isinstance(data, dict):
        raise ResultsError(f"{path}: not a JSON object")
    return data


def dump(path: str, data: Json) -> None:
    """Write data to path as the results files are written: indented,
    a newline at the end, through a temporary file."""
    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2)
        f.write("\n")
    os.replace(tmp, path)


# --- bench -------------------------------------------------------------------

def _f1(x: float | None) -> str:
    return "n/a" if x is None else "%.1f" % x


def _f2(x: float | None) -> str:
    return "n/a" if x is None else "%.2f" % x


def _f3(x: float | None) -> str:
    return "n/a" if x is None else "%.3f" % x


def _rows(res: Json) -> list[Json]:
    rows = res.get("workloads")
    if not isinstance(rows, list) or not rows:
        raise ResultsError("bench results: no 'workloads'")
    return rows


def has_peer(res: Json) -> bool:
    """Whether a third kernel (the v2 series) was measured."""
    return res.get("peer") is not None


def goal_text(w: Json) -> str:
    """The goal cell of row w: each goal it has, met or MISSED."""
    out = []
    if w.get("goal") is not None:
        out.append("<= %.2f %s" % (w["goal"], "met" if w["ratio"] <= w["goal"]
                                   else "MISSED"))
    if w.get("goal_floor") is not None and w.get("ratio_floor") is not None:
        out.append("<= %.2f x floor %s" % (
            w["goal_floor"],
            "met" if w["ratio_floor"] <= w["goal_floor"] else "MISSED"))
    if "-xcpu-" in w["name"]:
        ok = (w["ratio"] <= 1.0 and
              w["slab_heads_per_1000"] <= w["slab_heads_per_1000_base"])
        out.append("<= base %s" % ("met" if ok else "MISSED"))
    if w.get("peer") is not None:
        out.append("<= v2 %s" % ("met" if w["patched"] <= w["peer"]
                                 else "MISSED"))
    return "; ".join(out)


def spread_max(res: Json) -> float:
    """The largest run-to-run spread, in percent, of any row and kernel."""
    if res.get("spread_pct_max") is not None:
        return float(res["spread_pct_max"])
    return max(float(w["spread_pct"]) for w in _rows(res))


def bench_full(res: Json) -> str:
    """The whole bench table with what goes under it: docs/bench.md's
    "Latest results" and out/bench/results.md."""
    peer = has_peer(res)
    rows = _rows(res)

    def slab_text(w: Json) -> str:
        if w["slab_heads_per_1000"] is None:
            return "n/a"
        seq = [w["slab_heads_per_1000_base"]]
        if peer:
            seq.append(w.get("slab_heads_per_1000_peer"))
        seq.append(w["slab_heads_per_1000"])
        over = ("" if w["slab_heads_per_1000"] <= SLAB_GOAL
                else " (> %g)" % SLAB_GOAL)
        return " -> ".join(_f1(x) for x in seq) + over

    bh = any("bh" in w for w in rows)

    def bh_text(w: Json) -> str:
        seq = [w.get("bh_base")] + ([w.get("bh_peer")] if peer else []) + \
            [w.get("bh")]
        if all(x is None for x in seq):
            return "n/a"
        over = ("" if None in (w.get("bh"), w.get("bh_base")) or
                w["bh"] <= w["bh_base"] else " (> base)")
        return " -> ".join(_f2(x) for x in seq) + over

    outer = any("bh_outer" in w for w in rows)

    def outer_text(w: Json) -> str:
        return bh_text({k.replace("bh_outer", "bh"): v for k, v in w.items()
                        if k.startswith("bh_outer")})

    kernels_seq = "base -> v2 -> patched" if peer else "base -> patched"
    if peer:
        md = ["| workload | unit | base | v2 | patched | v2/base | "
              "patched/base | goal | patched min..max | v2 min..max | "
              "base min..max | slab heads/1000 pkts base -> v2 -> patched "
              "| runs x packets |",
              "|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|"]
    else:
        md = ["| workload | unit | base | patched | ratio | goal | "
              "patched min..max | base min..max | slab heads/1000 pkts base "
              "-> patched | runs x packets |",
              "|---|---|---:|---:|---:|---|---:|---:|---:|---:|"]
    if bh:
        md[0] += " BH sections/pkt %s |" % kernels_seq
        md[1] += "---:|"
    if outer:
        md[0] += " of them outermost %s |" % kernels_seq
        md[1] += "---:|"
    for w in rows:
        cells = [w["name"], w["unit"], "%.1f" % w["base"]]
        if peer:
            cells += [_f1(w.get("peer")), "%.1f" % w["patched"],
                      _f3(w.get("ratio_peer"))]
        else:
            cells.append("%.1f" % w["patched"])
        cells += ["%.3f" % w["ratio"], goal_text(w),
                  "%.1f..%.1f" % (w["min"], w["max"])]
        if peer:
            cells.append("n/a" if w.get("peer") is None else
                         "%.1f..%.1f" % (w["peer_min"], w["peer_max"]))
        cells += ["%.1f..%.1f" % (w["base_min"], w["base_max"]),
                  slab_text(w), "%d x %d" % (w["runs"], w["packets"])]
        if bh:
            cells.append(bh_text(w))
        if outer:
            cells.append(outer_text(w))
        md.append("| " + " | ".join(cells) + " |")
    md.append("")
    kernels = "Base `%s`, patched `%s`" % (res["base"], res["patched"])
    if peer:
        kernels += ", v2 `%s`" % res["peer"]
    md.append("%s; made by `%s`. Ratios = of the medians, lower is better. "
              "Steady-state slab goal: <= %g heads per 1000 packets." % (
                  kernels, res.get("command") or "make bench", SLAB_GOAL))
    md.append("Largest run-to-run spread ((max-min)/median, any kernel): "
              "%.3f%%." % spread_max(res))
    if bh:
        md.append("BH sections per packet: BH enables counted by the "
                  "profiling kernels' filtered profile (`make bench "
                  "PROFILE=1`, alloc-cost.json), nested ones included; goal: "
                  "patched <= base." + (
                      " Of them outermost: those that ended an outermost "
                      "BH-disabled section, where pending softirqs run in "
                      "the caller's context (skb_prof_cal.ko's "
                      "/proc/skb_bh_outer)." if outer else ""))
    floors = [w for w in rows if "floor" in w]
    if floors:
        md.append("")
        md.append("Floors (the same loop, heads reused, no allocator: "
                  "build_skb_around() + the release consume_skb() does, but "
                  "for the free of the head):")
        for w in floors:
            md.append("- `%s`: floor %.1f; series/floor %.3f, series/slab "
                      "%.3f" % (w["name"], w["floor"], w["ratio_floor"],
                                w["ratio"]))
    diags = res.get("diagnostics") or []
    if diags:
        md.append("")
        md.append("Diagnostics of the bench module on the patched kernel "
                  "(instructions per iteration, median of %d runs):" %
                  min(d["runs"] for d in diags))
        for d in diags:
            md.append("- `%s`: %.1f (%.1f..%.1f): %s" % (
                d["name"], d["instructions"], d["min"], d["max"], d["what"]))
    return "\n".join(md)


def bench_readme(res: Json) -> str:
    """README's table: the 64-byte workloads, base, v2 and the series,
    their ratios and slab heads."""
    peer = has_peer(res)
    rows = [w for w in _rows(res) if w["name"].endswith("-64")]
    if not rows:
        raise ResultsError("bench results: no -64 workload")
    if peer:
        md = ["| workload | base | v2 | this series | v2/base | series/base "
              "| slab heads/1000, base -> series |",
              "|---|---:|---:|---:|---:|---:|---:|"]
    else:
        md = ["| workload | base | this series | series/base | slab "
              "heads/1000, base -> series |", "|---|---:|---:|---:|---:|"]
    for w in rows:
        cells = [w["name"], "%.1f" % w["base"]]
        if peer:
            cells.append(_f1(w.get("peer")))
        cells.append("%.1f" % w["patched"])
        if peer:
            cells.append(_f3(w.get("ratio_peer")))
        cells += ["%.3f" % w["ratio"], "%.0f -> %.0f" % (
            w["slab_heads_per_1000_base"], w["slab_heads_per_1000"])]
        md.append("| " + " | ".join(cells) + " |")
    return "\n".join(md)


def _pair_table(rows: list[Json], goal: bool = False) -> str:
    """Base and series per row: figures, ratio, spreads, slab heads (and
    the goal's verdict)."""
    md = ["| workload | base | patched | ratio |%s patched min..max | base "
          "min..max | slab heads/1000 pkts base -> patched |" % (
              " goal |" if goal else ""),
          "|---|---:|---:|---:|%s---:|---:|---:|" % ("---|" if goal else "")]
    for w in rows:
        md.append("| %s | %.1f | %.1f | %.3f |%s %.1f..%.1f | %.1f..%.1f | "
                  "%.1f -> %.1f |" % (
                      w["name"], w["base"], w["patched"], w["ratio"],
                      " %s |" % goal_text(w) if goal else "",
                      w["min"], w["max"], w["base_min"], w["base_max"],
                      w["slab_heads_per_1000_base"],
                      w["slab_heads_per_1000"]))
    return "\n".join(md)


def bench_xcpu(res: Json) -> str:
    """docs/bench.md's cross-CPU table: the -xcpu rows, base and series."""
    rows = [w for w in _rows(res) if "-xcpu-" in w["name"]]
    if not rows:
        raise ResultsError("bench results: no -xcpu workload")
    return _pair_table(rows)


def bench_rt(res: Json) -> str:
    """docs/bench.md's PREEMPT_RT table (make bench-rt): every row, base
    and series on PREEMPT_RT, the goal (at most the base), the kernels
    and the spread."""
    md = [_pair_table(_rows(res), goal=True), ""]
    md.append("Base `%s`, patched `%s`, both PREEMPT_RT; made by `%s`. "
              "Largest run-to-run spread: %.3f%%." % (
                  res["base"], res["patched"],
                  res.get("command") or "make bench-rt", spread_max(res)))
    return "\n".join(md)


def bench_v2(res: Json) -> str:
    """docs/bench.md's v2 table: the one-CPU packet workloads, base,
    series and v2 ('n/a' where v2 did not run one)."""
    if not has_peer(res):
        raise ResultsError("bench results: no v2 kernel ('peer')")
    rows = [w for w in _rows(res) if w["unit"] == "instructions/packet"
            and "-xcpu-" not in w["name"]]
    md = ["| workload | base | series | v2 | v2/base | v2 slab heads/1000 "
          "pkts |", "|---|---:|---:|---:|---:|---:|"]
    for w in rows:
        md.append("| %s | %.1f | %.1f | %s | %s | %s |" % (
            w["name"], w["base"], w["patched"], _f1(w.get("peer")),
            _f3(w.get("ratio_peer")), _f1(w.get("slab_heads_per_1000_peer"))))
    return "\n".join(md)


def bench_mail(res: Json) -> str:
    """The table as plain text for a cover letter: workload, unit, base,
    v2 (when measured), patched, the ratios and the slab heads."""
    peer = has_peer(res)
    hdr = ["workload", "unit", "base"] + (["v2"] if peer else []) + \
        ["patched"] + (["v2/base", "patched/base"] if peer else ["ratio"]) + \
        ["slab heads/1000"]
    table = [hdr]
    for w in _rows(res):
        slab = "n/a"
        if w["slab_heads_per_1000"] is not None:
            seq = [w["slab_heads_per_1000_base"]]
            if peer:
                seq.append(w.get("slab_heads_per_1000_peer"))
            seq.append(w["slab_heads_per_1000"])
            slab = " -> ".join(_f1(x) for x in seq)
        row = [w["name"], w["unit"].replace("instructions/", "insns/"),
               "%.1f" % w["base"]]
        if peer:
            row.append(_f1(w.get("peer")))
        row.append("%.1f" % w["patched"])
        if peer:
            row.append(_f3(w.get("ratio_peer")))
        row += ["%.3f" % w["ratio"], slab]
        table.append(row)
    width = [max(len(r[k]) for r in table) for k in range(len(hdr))]
    out = []
    for r in table:
        line = "  %-*s  %-*s" % (width[0], r[0], width[1], r[1])
        for k in range(2, len(hdr) - 1):
            line += "  %*s" % (width[k], r[k])
        out.append(line + "  " + r[-1])
    return "\n".join(out)


# The workloads of the prefix table, 64-byte rows.
PREFIX_ROWS = ["tun-write-64", "tun-echo-64", "vhost-batch-64", "vhost-rx-64",
               "tun-udp-local-64", "tun-echo-xcpu-64", "vhost-batch-xcpu-64"]


def _row_of(res: Json, name: str) -> Json | None:
    return next((w for w in _rows(res) if w["name"] == name), None)


def bench_prefixes(variants: Json) -> str:
    """docs/bench.md's table of the series up to each patch
    (results/variants/series-N.json, tools/bench --patched series~N):
    the 64-byte rows, the base of the first run, then one line a prefix,
    the longest last."""
    pre = sorted((k for k in variants if k.startswith("series-")),
                 key=lambda k: -int(k.split("-")[1]))
    if not pre:
        raise ResultsError("no results/variants/series-N.json")
    first = variants[pre[0]]
    md = ["| up to and with | " + " | ".join(PREFIX_ROWS) + " |",
          "|---|" + "---:|" * len(PREFIX_ROWS)]

    def cell(res: Json, name: str, key: str) -> str:
        w = _row_of(res, name)
        return "n/a" if w is None else "%.1f" % w[key]

    md.append("| base (the %s run) | " % pre[0].replace("-", "~") +
              " | ".join(cell(first, n, "base") for n in PREFIX_ROWS) + " |")
    for k in pre:
        subject = variants[k]["patched"].split(" (", 2)[-1].rstrip(")")
        md.append("| `%s`: %s | " % (k.replace("-", "~"), subject) +
                  " | ".join(cell(variants[k], n, "patched")
                             for n in PREFIX_ROWS) + " |")
    return "\n".join(md)


# --- kunit ---------------------------------------------------------------------

def _cells(kunit: Json) -> list[tuple[str, Json]]:
    cells = kunit.get("cells")
    if not isinstance(cells, dict) or not cells:
        raise ResultsError("kunit results: no 'cells'")
    order = CELLS + sorted(c for c in cells if c not in CELLS)
    return [(c, cells[c]) for c in order if c in cells]


def kunit_matrix(kunit: Json) -> str:
    """README's matrix: per cell, what it is and what its last run gave."""
    md = ["| cell | arch | CPUs | preemption | checkers | cases run | passed "
          "| skipped | splats | command |",
          "|---|---|---|---|---|---|---|---|---|---|"]
    for cell, c in _cells(kunit):
        md.append("| %s | %s | %s | %s | %s | %d | %d | %d | %s | `%s` |" % (
            cell, c["arch"], c["cpus"], c["preemption"],
            ", ".join(c["checkers"]) or "-", c["cases"], c["passed"],
            c["skipped"], c["splats"], c["command"]))
    return "\n".join(md)


def kunit_verdict(kunit: Json, cell: str = "uml") -> str:
    """The end of a cell's last run, as tools/run-kunit prints it: the
    splat scan, tools/check-kunit-results' table and the verdict (an
    indented block, as README shows the end of 'make')."""
    c = dict(_cells(kunit)).get(cell)
    if c is None or not c.get("suites"):
        raise ResultsError(f"kunit results: no suites of cell {cell}")
    suites: Json = c["suites"]
    width = max([len("suite")] + [len(s) for s in suites])
    hdr = f"{'suite':<{width}}  {'cases':>5} {'expect':>6} " \
          f"{'passed':>6} {'failed':>6} {'skipped':>7}"
    out = [f"scan-splats: {c['splats']} splats in .../out/kunit-{cell}.log "
           f"(N lines)", hdr, "-" * len(hdr)]
    for name in sorted(suites):
        s = suites[name]
        out.append(f"{name:<{width}}  {s['cases']:>5} {s['expected']:>6} "
                   f"{s['passed']:>6} {s['failed']:>6} {s['skipped']:>7}")
    out.append("-" * len(hdr))
    out.append(f"{c['passed']} passed, {c['failed']} failed"
               + (f", {c['skipped']} skipped" if c["skipped"] else ""))
    ok = (c["failed"] == 0 and c["splats"] == "0" and
          all(s["cases"] == s["expected"] for s in suites.values()))
    out.append(f"run-kunit: cell {cell} {'passed' if ok else 'FAILED'} "
               f"(...)")
    return "\n".join("    " + line for line in out)


# --- coverage ------------------------------------------------------------------

def rate(hit: int, found: int) -> str:
    """genhtml's rate(), as tools/coverage-summary prints it: one
    decimal, never 0.0 with hits, never 100.0 with misses."""
    if not found:
        return "-"
    r = "%.1f" % (hit * 100 / found)
    if float(r) == 0 and hit > 0:
        r = "0.1"
    elif float(r) == 100 and hit != found:
        r = "99.9"
    return r


def _changed(cov: Json) -> Json:
    ch = cov.get("changed")
    if not isinstance(ch, dict):
        raise ResultsError("coverage results: no 'changed'")
    return ch


def coverage_readme(cov: Json) -> str:
    """README's sentence: the new and changed functions' figures."""
    ch = _changed(cov)
    adj = ch["found"] - ch["unreachable"]
    return ("%s%% of the lines of the functions the series adds or changes "
            "(%s%% without the lines listed as unreachable; threshold %g%%; "
            "series %s, %s)" % (
                rate(ch["hit"], ch["found"]), rate(ch["hit"], adj),
                ch["threshold"], cov["series"], cov["date"]))


def coverage_doc(cov: Json) -> str:
    """docs/coverage.md's figures: the new and changed functions, then
    each file's line coverage."""
    ch = _changed(cov)
    adj = ch["found"] - ch["unreachable"]
    ok = adj == 0 or ch["hit"] * 100 >= ch["threshold"] * adj
    files = []
    for f in cov.get("files") or []:
        if f.get("lines_found"):
            pct = rate(f["lines_hit"], f["lines_found"])
        else:
            pct = "%.1f" % f["lines_pct"]
        files.append("%s %s%%" % (os.path.basename(f["file"]),
                                  "100" if pct == "100.0" else pct))
    return ("On %s (%s, the series at %s, `%s`): new and changed functions "
            "%d/%d lines = %s%%, %s%% without the %d lines "
            "`kunit/coverage-threshold` lists as unreachable from KUnit "
            "(threshold %g%%: %s); per file, %s of all their lines." % (
                cov["base"], cov["date"], cov["series"],
                cov.get("command") or "make coverage", ch["hit"], ch["found"],
                rate(ch["hit"], ch["found"]), rate(ch["hit"], adj),
                ch["unreachable"], ch["threshold"], "pass" if ok else "FAIL",
                ", ".join(files)))


# --- the pages ---------------------------------------------------------------

# NAME -> (results file, renderer, inline): what a
# '<!-- generated: NAME -->' block of a page holds. An inline block is
# text in a paragraph; the others are whole lines between the markers.
Renderer = Callable[[Json], str]
TABLES: dict[str, tuple[str, Renderer, bool]] = {
    "bench-readme": ("bench", bench_readme, False),
    "bench-latest": ("bench", bench_full, False),
    "bench-xcpu": ("bench", bench_xcpu, False),
    "bench-v2": ("bench", bench_v2, False),
    "bench-rt": ("bench-rt", bench_rt, False),
    "bench-prefixes": ("variants", bench_prefixes, False),
    "kunit-matrix": ("kunit", kunit_matrix, False),
    "kunit-uml-verdict": ("kunit", kunit_verdict, False),
    "coverage-readme": ("coverage", coverage_readme, True),
    "coverage-doc": ("coverage", coverage_doc, True),
}


def render(name: str, results_dir: str,
           cache: dict[str, Json] | None = None) -> str:
    """Table NAME from the results in results_dir."""
    if name not in TABLES:
        raise ResultsError(f"no table '{name}' (known: "
                           f"{', '.join(sorted(TABLES))})")
    kind, fn, _ = TABLES[name]
    cache = {} if cache is None else cache
    if kind not in cache:
        cache[kind] = load(results_dir, kind)
    try:
        return fn(cache[kind])
    except (KeyError, TypeError, ValueError) as e:
        raise ResultsError(f"{kind}.json lacks what table {name} needs: "
                           f"{type(e).__name__}: {e}")


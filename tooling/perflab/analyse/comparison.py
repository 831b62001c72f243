"""The comparison (analysis, above tooling/perflab/analyse/stats.py): every variant against the baseline on every metric, the sentence
that says why the verdict came out so, the A/A calibration of a cell, the checks of a run (one set of comparison
operators for the A/B runner's checks and a command experiment's), and the overall verdict: whether each primary
verdict is what the file expects. Pure functions of runs and the experiment; nothing here runs or writes."""
import math
import statistics
from collections.abc import Callable, Mapping
from typing import Any

from perflab.plan import interleave
from perflab.results import schema
from perflab.analyse import stats
from perflab.analyse import stats_calibration
from perflab.results.schema import meets
from perflab.results.units import a_to_b, label, pct


def declared_mechanisms(e: dict[str, Any]) -> list[str]:
    """The mechanisms that explain the primary verdict: [primary] mechanisms, else every [[mechanism]] that does not
    say `explains = false`."""
    declared: list[str] = e["primary"].get("mechanisms", [m["name"] for m in e.get("mechanism", []) if m.get("explains", True)])
    return declared


def because(e: dict[str, Any], rows: list[dict[str, Any]], primary_row: dict[str, Any], also_moved: bool = True) -> str:
    """'p95 −62 % (better), because statements per transfer 12 → 5 and Hikari pending 123 → 0'. A verdict is
    explained by the declared mechanisms that moved the same way (better with better, worse with worse); when none
    did, it says "mechanism not shown". Other mechanisms that moved that way are named as "also" (unless
    also_moved=False: the docs' verdict tables leave them to the report)."""
    declared = declared_mechanisms(e)
    verdict = primary_row["verdict"]
    mechanisms = [m["name"] for m in e.get("mechanism", [])]
    moved = [moved_text(r) for r in rows if r["metric"] in declared and r["verdict"] == verdict]
    also = [moved_text(r) for r in rows if r["metric"] in mechanisms and r["metric"] not in declared and r["verdict"] == verdict]
    head = f"{label(primary_row['metric'])} {pct(primary_row['ratio'])} ({verdict})"
    tail = f"; also {', '.join(also)}" if also and also_moved else ""
    if verdict in ("better", "worse"):
        if moved:
            return f"{head}, because " + " and ".join(moved) + tail
        if not declared:  # e.g. a capacity search: no run reads a mechanism
            return f"{head}, no mechanism declared{tail}"
        still = [moved_text(r) for r in rows if r["metric"] in declared]
        return (f"{head}, mechanism not shown (declared: {'; '.join(still) or 'none'}): the difference came from "
                f"somewhere else{tail}")
    return head + (f"; mechanisms: {'; '.join(moved_text(r) for r in rows if r['metric'] in declared)}" if declared else "")


def moved_text(row: dict[str, Any]) -> str:
    """'statements per transfer 12 → 5': a metric's row in the "because" sentence, its median A → B."""
    return f"{label(row['metric'])} {a_to_b(row)}"


# ---------------------------------------------------------------------- every variant against the baseline

def metric_list(e: dict[str, Any]) -> list[str]:
    return schema.run_metrics(e) + [m["name"] for m in e["mechanism"]]


def claimed_metrics(e: dict[str, Any]) -> list[str]:
    """The metrics a verdict is claimed on: the primary, then `[primary] also`."""
    return [e["primary"]["metric"], *e["primary"].get("also", [])]


def reference(e: dict[str, Any], variant: dict[str, Any]) -> str:
    """The variant a candidate is compared with: its `against`, when that variant runs, else the baseline."""
    labels: list[str] = [v["label"] for v in e["variants"]]
    against: str | None = variant.get("against")
    return against if against in labels and against != variant["label"] else labels[0]


def lower_is_better(e: dict[str, Any], metric: str) -> bool:
    if metric in schema.DIRECTIONS:
        lower: bool = schema.DIRECTIONS[metric]
    else:
        lower = next(m.get("better", "lower") == "lower" for m in e["mechanism"] if m["name"] == metric)
    return lower


def values(runs: list[dict[str, Any]], label: str, metric: str) -> list[float]:
    out = []
    for r in runs:
        if r["variant"] == label:
            v = r.get(metric, r.get("mechanism", {}).get(metric))
            out.append(float("nan") if v is None else float(v))
    return out


def held_the_max(runs: list[dict[str, Any]], label: str) -> int:
    """How many of a variant's capacity searches never broke: each one reached the search's max, so its capacity
    is a lower bound, not a measurement."""
    return sum(1 for r in runs if r["variant"] == label and "broke_at" in r and r["broke_at"] is None)


def held_the_peak(runs: list[dict[str, Any]], label: str) -> int:
    """How many of a variant's ramped runs held every stage: each one's breaking rate is a lower bound."""
    return sum(1 for r in runs if r["variant"] == label and r.get("held_peak"))


def censor(row: dict[str, Any], runs: list[dict[str, Any]], baseline: str, candidate: str,
           maximum: float) -> dict[str, Any]:
    """The capacity comparison when a search held the max. A bound keeps a verdict that points its way (only the
    candidate censored: its capacity can only be higher, so "better" stands; only the baseline: "worse" stands);
    any other verdict becomes "inconclusive", with a warning that says to raise `[capacity] max`."""
    held = {label: held_the_max(runs, label) for label in (baseline, candidate)}
    return bounded(row, held, lambda counts: f"{counts} searches held the search's max ({maximum:g}/s) without "
                   f"breaking: a capacity of at least {maximum:g}/s, not a measurement; raise [capacity] max")


def censor_ramp(row: dict[str, Any], runs: list[dict[str, Any]], baseline: str, candidate: str,
                peak: float) -> dict[str, Any]:
    """The breaking-rate comparison when a ramp held its peak, judged as censor() judges a capacity search."""
    held = {label: held_the_peak(runs, label) for label in (baseline, candidate)}
    return bounded(row, held, lambda counts: f"{counts} ramps held every stage up to the peak ({peak:g}/s) within "
                   f"the SLO: a breaking rate above {peak:g}/s, not a measurement; raise [load] ramp")


def bounded(row: dict[str, Any], held: dict[str, int], note: Callable[[str], str]) -> dict[str, Any]:
    """A comparison of lower bounds: held = {label: runs censored}; a verdict that points the bound's way stands,
    any other becomes "inconclusive", with note(counts) as a warning."""
    if not any(held.values()):
        return row
    baseline, candidate = held
    bound_way = "better" if not held[baseline] else "worse" if not held[candidate] else None
    counts = " and ".join(f"{held[label]} of {label}'s" for label in held if held[label])
    return dict(row, verdict=row["verdict"] if row["verdict"] == bound_way else "inconclusive", censored=held,
                warnings=row.get("warnings", []) + [note(counts)])


def compare(e: dict[str, Any], runs: list[dict[str, Any]], delta: float,
            also_delta: Mapping[str, float] | None = None) -> list[dict[str, Any]]:
    """Every variant against the baseline (or the variant its `against` names), every metric; Holm across the
    secondary metrics (the claimed ones, the primary and `[primary] also`, are judged on their own intervals). A
    variant's `also_against` adds its comparison with that variant, as a control (`control`: never claimed).
    `also_delta`: the δ of a metric `[primary] also` claims, its own A/A floor's (planner.also_deltas_for); every
    other metric is judged at `delta`."""
    out = []
    for v in e["variants"][1:]:
        out.append(compare_pair(e, runs, delta, reference(e, v), v["label"], also_delta))
        if v.get("also_against") in (x["label"] for x in e["variants"]):
            out.append(dict(compare_pair(e, runs, delta, v["also_against"], v["label"], also_delta), control=True))
    return out


def estimator(e: dict[str, Any]) -> str:
    """B/A's estimator: interleaved (or in a duet), each round is a pair measured at once, so the geometric mean of the
    rounds' B/A (the round's own level cancels in its ratio; on the wallet's A/A it put the p95 floor at 2.8 %, where
    the ratio of medians put it at 4.4 % and the median of ratios at 3.7 %); otherwise the ratio of the two sides'
    medians; a file's `estimator` overrides both (on the wallet's separate-JVM A/A on localhost the geometric mean of
    the rounds' B/A put the floor at 12.5 % where the ratio of medians put it at 23.3 %)."""
    if e.get("estimator"):  # the file's own choice (stats.ESTIMATORS)
        chosen: str = e["estimator"]
        return chosen
    return "geometric mean of ratios" if e.get("interleave") or e.get("duet") else stats.DEFAULT_ESTIMATOR


def compare_pair(e: dict[str, Any], runs: list[dict[str, Any]], delta: float, baseline: str,
                 candidate: str, also_delta: Mapping[str, float] | None = None) -> dict[str, Any]:
    """One candidate against one baseline on every metric (see compare())."""
    own_delta = {m: d for m, d in (also_delta or {}).items() if m in e["primary"].get("also", [])}
    primary = e["primary"]["metric"]
    claimed = claimed_metrics(e)
    rows = []
    for metric in metric_list(e):
        a, b = values(runs, baseline, metric), values(runs, candidate, metric)
        if metric not in claimed and all(x != x for x in a + b):
            continue  # a metric no run read (a mechanism of a capacity search, a search stored before it was
            # measured): no row of dashes
        row = stats.compare(a, b, lower_is_better=lower_is_better(e, metric), delta=own_delta.get(metric, delta),
                            estimator=estimator(e))
        if row["n"] < 2:  # one run per side cannot show a difference from noise, however far apart they are
            row = dict(row, verdict="inconclusive")
        if metric == "capacity":
            row = censor(row, runs, baseline, candidate, e["capacity"]["max"])
        if metric == "breaking_rate":
            row = censor_ramp(row, runs, baseline, candidate, max(e["load"]["ramp"]))
        rows.append(dict(row, metric=metric, lower_is_better=lower_is_better(e, metric)))
    secondary = [r for r in rows if r["metric"] not in claimed]
    for r, adjusted in zip(secondary, stats.holm([r["p_value"] for r in secondary])):
        r["p_holm"] = adjusted
    primary_row = next(r for r in rows if r["metric"] == primary)
    return {"baseline": baseline, "candidate": candidate, "rows": rows, "primary": primary_row,
            "because": because(e, rows, primary_row)}


def leakage(e: dict[str, Any], runs: list[dict[str, Any]], delta: float) -> list[dict[str, Any]]:
    """The leakage check (--leakage): each variant interleaved (the candidate) against itself alone (the baseline,
    interleave.alone's label), on every metric; "no difference" says the other arms' requests leave it alone."""
    return [compare_pair(e, runs, delta, interleave.alone(v["label"]), v["label"]) for v in e["variants"]]


def grows(e: dict[str, Any], comparisons: list[dict[str, Any]]) -> bool:
    """Whether an inconclusive cell gets more rounds: some claimed candidate's primary verdict is inconclusive and
    not a capacity search that held its max (a control never grows a run, nor does a bound: more would too)."""
    return any(r["verdict"] == "inconclusive" and schema.expected_of(e, c) != "any" and not r.get("censored")
               for c in comparisons for r in [c["primary"], *also_rows(e, c)])


def also_rows(e: dict[str, Any], c: dict[str, Any]) -> list[dict[str, Any]]:
    """A comparison's rows of the metrics `[primary] also` claims, in the file's order."""
    by_metric = {r["metric"]: r for r in c.get("rows", [])}
    return [by_metric[m] for m in e["primary"].get("also", []) if m in by_metric]


# ---------------------------------------------------------------------- A/A calibration

def lifetime_ratios(e: dict[str, Any], runs: list[dict[str, Any]], metric: str) -> list[float]:
    """The second variant's median over the first's, per instance lifetime (how far two instances differ)."""
    a_label, b_label = (v["label"] for v in e["variants"][:2])
    out = []
    for life in sorted({r["lifetime"] for r in runs if r.get("lifetime") is not None}):
        a, b = ([v for v in values([r for r in runs if r.get("lifetime") == life], label, metric) if v == v]
                for label in (a_label, b_label))
        if a and b and statistics.median(a):
            out.append(statistics.median(b) / statistics.median(a))
    return out


def primary_calibrations(calibration: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """The calibrations of the primary metric (what δ and the A/A verdict rest on), not of a co-primary."""
    return [c for c in calibration or [] if not c.get("co_primary")]


def calibrate(e: dict[str, Any], cells: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per cell, the A/A calibration of the primary metric, then of each co-primary (`[primary] also`: e.g. the request
    thread's CPU per request), each with its own noise floor."""
    out = []
    for metric in [e["primary"]["metric"], *e["primary"].get("also", [])]:
        out += [dict(c, co_primary=True) if metric != e["primary"]["metric"] else c for c in _calibrate(e, cells, metric)]
    return out


def _calibrate(e: dict[str, Any], cells: list[dict[str, Any]], metric: str) -> list[dict[str, Any]]:
    out = []
    for cell in cells:
        a_label, b_label = (v["label"] for v in e["variants"])
        if len(values(cell["runs"], a_label, metric)) < 3:
            out.append({"profile": cell["profile"], "metric": metric, "skipped": "fewer than 3 A/A rounds: no calibration"})
            continue
        # the floor is for an A/B of the file's rounds, or the plan's (--planned; the A/A's own may have grown while it was inconclusive),
        # over instance lifetimes as the A/B has them; interleaved, both arms share every lifetime, whose luck
        # cancels in each round's ratio: the round is the unit
        lifetimes = [None if e.get("interleave") else r.get("lifetime") for r in cell["runs"] if r["variant"] == a_label]
        c = stats_calibration.calibrate(values(cell["runs"], a_label, metric), values(cell["runs"], b_label, metric),
                                        rounds=max(stats.MIN_INTERVAL_ROUNDS, cell.get("planned", {}).get("rounds", e["rounds"])),
                                        lower_is_better=lower_is_better(e, metric),
                                        lifetimes=None if None in lifetimes else lifetimes, estimator=estimator(e))
        out.append(dict(c, profile=cell["profile"], metric=metric))
    return out


def power(e: dict[str, Any], cells: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The power check (--plant): per cell, how often an analysis of the file's rounds calls the planted twin worse
    at the cell's δ (stats_calibration.power over the run's pairs)."""
    metric = e["primary"]["metric"]
    a_label, b_label = (v["label"] for v in e["variants"])
    out = []
    for cell in cells:
        p = stats_calibration.power(values(cell["runs"], a_label, metric), values(cell["runs"], b_label, metric),
                                    rounds=max(stats.MIN_INTERVAL_ROUNDS, e.get("analysis_rounds", e["rounds"])),
                                    lower_is_better=lower_is_better(e, metric), delta=cell.get("delta", stats.MIN_DELTA),
                                    estimator=estimator(e))
        out.append(dict(p, profile=cell["profile"], metric=metric))
    return out


def repeats(e: dict[str, Any], cells: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """--repeat N: per profile, how many of the N separate runs (cells with a `repeat`) gave each primary verdict of the
    last variant; for the power check (--plant), how many called the planted twin worse, of the 8 in 10 it asks for."""
    out = []
    for profile in dict.fromkeys(c["profile"] for c in cells if c.get("repeat")):
        primaries = [c["comparisons"][-1]["primary"] for c in cells
                     if c["profile"] == profile and c.get("repeat") and c.get("comparisons")]
        verdicts = [p["verdict"] for p in primaries]
        expect = e["primary"].get("expect", "better")
        out.append({"profile": profile, "metric": e["primary"]["metric"], "runs": len(verdicts), "expect": expect,
                    "verdicts": {v: verdicts.count(v) for v in dict.fromkeys(verdicts)},
                    "met": sum(meets(v, expect) for v in verdicts), "ratios": [p["ratio"] for p in primaries]})
    return out


# ---------------------------------------------------------------------- checks and the overall verdict

OPS: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda v, t: v == t or (_number(v) and _number(t) and abs(v - t) < 1e-9),
    "<=": lambda v, t: v <= t, ">=": lambda v, t: v >= t, "<": lambda v, t: v < t, ">": lambda v, t: v > t}


def _number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def eval_op(value: Any, op: str, target: Any) -> bool:
    """A check's comparison, the same for a run's mechanism (A/B) and a command experiment's row: ==, <=, >=, <, >;
    numbers are equal within 1e-9 (a value read back from a float sum)."""
    return OPS[op](value, target)


def smoke_checks(e: dict[str, Any], cells: list[dict[str, Any]],
                 say: Callable[[str], object] | None = None) -> dict[str, Any]:
    """Deterministic checks (mechanism values per variant) and the invariants, over every run; say(line) is told
    each check's line ("  ok    ..." or "  FAIL  ...") as it is judged."""
    passed, failed = 0, []
    labels = {"baseline": e["variants"][0]["label"], "candidate": e["variants"][-1]["label"]}
    for cell in cells:
        for check in e.get("check", []):
            label_ = labels.get(check.get("side"), check.get("variant"))
            for run in (r for r in cell["runs"] if r["variant"] == label_):
                value = run.get(check["mechanism"], run.get("mechanism", {}).get(check["mechanism"]))
                ok = value is not None and not (isinstance(value, float) and math.isnan(value)) and eval_op(value, check["op"], check["value"])
                line = f"{cell['tag']} {label_}: {check['mechanism']} = {value} (expected {check['op']} {check['value']})"
                if say:
                    say(("  ok    " if ok else "  FAIL  ") + line)
                if ok:
                    passed += 1
                else:
                    failed.append(line)
        for run in cell["runs"]:
            for inv in run.get("invariants", []):
                if inv["ok"]:
                    passed += 1
                else:
                    failed.append(f"{run['testid']}: invariant '{inv['name']}' broken ({inv.get('value', '')})")
    return {"passed": passed, "failed": failed}


def command_checks(e: dict[str, Any], rows: list[dict[str, Any]], exit_code: int, output: str) -> dict[str, Any]:
    """A command experiment's checks: the command exited 0, and each `[[check]]` holds for every row of its metric
    (and `where` fields); a check without a row fails."""
    checks: dict[str, Any] = {"passed": 0, "failed": []}
    if exit_code != 0:
        checks["failed"].append(f"command exited {exit_code}: {output.strip()[-500:]}")
    for check in e.get("check", []):
        hits = [r for r in rows if r["metric"] == check["metric"] and all(r.get(k) == v for k, v in check.get("where", {}).items())]
        ok = bool(hits) and all(eval_op(r[check["field"]], check["op"], check["value"]) for r in hits)
        if ok:
            checks["passed"] += 1
        else:
            checks["failed"].append(f"{check['metric']} {check['field']} {check['op']} {check['value']}: {hits or 'no row'}")
    return checks


def also_verdicts(e: dict[str, Any], c: dict[str, Any], expect: str) -> list[dict[str, Any]]:
    """The verdicts of `[primary] also`, each judged as the primary is: [{metric, verdict, expect, ok}]; a claimed
    metric no run measured is "inconclusive"."""
    by_metric = {r["metric"]: r for r in c["rows"]}
    out = []
    for metric in e["primary"]["also"]:
        verdict = by_metric[metric]["verdict"] if metric in by_metric else "inconclusive"
        out.append({"metric": metric, "verdict": verdict, "expect": expect, "ok": meets(verdict, expect)})
    return out


def overall(e: dict[str, Any], cells: list[dict[str, Any]], aa: bool,
            calibration: list[dict[str, Any]] | None) -> dict[str, Any]:
    """Whether the primary verdicts came out as the experiment expects. An A/A is judged at δ = the noise floor it
    measured (the δ an A/B on this profile gets), where a calibration has one: at a δ below the floor its verdict
    says only that the floor is above δ."""
    at_floor = {c["profile"]: c["observed"]["verdict"] for c in primary_calibrations(calibration) if "observed" in c}
    per_cell = []
    for cell in cells:
        for c in cell.get("comparisons", []):
            verdict = at_floor.get(cell["profile"], c["primary"]["verdict"]) if aa else c["primary"]["verdict"]
            expect = "no difference" if aa else schema.expected_of(e, c)
            judged = {"profile": cell["profile"], "value": cell["value"], "candidate": c["candidate"],
                      **({"baseline": c["baseline"], "control": True} if c.get("control") else {}),
                      "verdict": verdict, "expect": expect, "ok": meets(verdict, expect)}
            if not aa and e["primary"].get("also"):
                judged["also"] = also_verdicts(e, c, expect)
            per_cell.append(judged)
    # nothing compared fails, unless the file has one variant: a pilot, measured and not claimed
    ok = all(p["ok"] and all(a["ok"] for a in p.get("also", [])) for p in per_cell) if per_cell else len(e["variants"]) == 1
    if aa and calibration:
        ok = ok and all(c["fpr_ok"] for c in calibration if "skipped" not in c)
    return {"ok": ok, "cells": per_cell}

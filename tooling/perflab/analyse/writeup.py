"""The write-up beside perflab: an experiment's `[[writeup]]` tables give, per stage of the case study (a variant
of the file), the figures the write-up reports; this sets perflab's median over the cell's runs beside each, in
the write-up's unit, and each stage's ratio on both sides to the stage it is set against (its variant's `against`,
the write-up's own stage-over-stage claim) or else to the first, and says per metric whether the two move the same
way. Pure functions of the experiment and a cell's runs (analysis, beside tooling/perflab/analyse/comparison.py).

Units: latencies (mean, p50 ... max) in ms, as perflab records them; tps and breaking_rate per second;
error_rate a fraction; a mechanism in its own unit, one measured in seconds ("... (s)") given in ms.

Where a stage differs from the write-up (a figure off by more than FAR, or moving the other way), the table names
the figures and carries the stage's `why`, the one-line reason the file gives for it.
"""
import math
import re
import statistics
from typing import Any

from perflab.analyse import comparison
from perflab.results import schema
from perflab.analyse import stats
from perflab.results.units import is_seconds

def metric_of(key: str) -> str:
    """A figure's key as the run metric it names: "mean" -> "avg"."""
    return schema.FIGURE_ALIASES.get(key, key)


def unit(key: str) -> str:
    metric = metric_of(key)
    if metric in schema.LATENCY or is_seconds(metric) or metric.endswith(("(ms)", "_ms")):
        return "ms"
    if metric in ("tps", "breaking_rate", "capacity", "served") or metric.endswith("(/s)"):
        return "/s"
    return ""


def perflab_value(runs: list[dict[str, Any]], label: str, key: str) -> float:
    """perflab's figure for one stage: the median over the variant's runs, in the write-up's unit."""
    metric = metric_of(key)
    found = [v for v in comparison.values(runs, label, metric) if not math.isnan(v)]
    if not found:
        return math.nan
    middle = statistics.median(found)
    return 1000 * middle if is_seconds(metric) else middle


def direction(ratio: float | None, delta: float) -> str | None:
    """Which way a stage moved from the first: "lower", "higher", or "about the same" (within stats.margins(δ))."""
    if ratio is None or math.isnan(ratio):
        return None
    lo, hi = stats.margins(delta)
    return "lower" if ratio < lo else "higher" if ratio > hi else "about the same"


def ratio(value: float, base: float | None) -> float:
    return value / base if base and not math.isnan(value) and not math.isnan(base) else math.nan


FAR = 2.0  # a figure "differs" when perflab's is more than this factor off the write-up's (the first stage's values,
# a later stage's ratio to the stage it is set against): the machines differ, so closer figures need no reason


def far_apart(perflab: float, writeup_: float) -> bool:
    """Whether two positive figures differ by more than FAR either way (an unknown or non-positive one never does)."""
    if math.isnan(perflab) or math.isnan(writeup_) or perflab <= 0 or writeup_ <= 0:
        return False
    return max(perflab / writeup_, writeup_ / perflab) > FAR


def differing(rows: list[dict[str, Any]], directions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The stages that differ from the write-up, each {"stage", "metrics", "why"}: its figures off by more than FAR
    (the first stage by value, a later one by its ratio to the stage it is set against) or moving the other way."""
    other_way = {(d["metric"], s["stage"]) for d in directions for s in d["stages"] if s["writeup"] != s["perflab"]}
    stages: dict[str, dict[str, Any]] = {}
    for r in rows:
        first = r["over"] == r["stage"]
        far = far_apart(r["perflab"], r["writeup"]) if first else far_apart(r["perflab_ratio"], r["writeup_ratio"])
        if far or (r["metric"], r["stage"]) in other_way:
            stage = stages.setdefault(r["stage"], {"stage": r["stage"], "metrics": [], "why": r["why"]})
            stage["metrics"].append(r["metric"])
    return list(stages.values())


def stage_of(w: dict[str, Any]) -> str:
    return str(w.get("stage", w["variant"]))


def bases(e: dict[str, Any], tables: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each stage's base, by variant: the `[[writeup]]` of the variant it is set `against` (the write-up's own
    stage-over-stage claim, as route-stages' fastjson2 over Jackson), else the first stage's."""
    by_variant = {w["variant"]: w for w in reversed(tables)}  # a variant's first [[writeup]]
    against = {v["label"]: v.get("against") for v in e.get("variants", [])}
    return {w["variant"]: by_variant.get(against.get(w["variant"]) or "", tables[0]) for w in tables}


def stage_over_stage(t: dict[str, Any]) -> bool:
    """Whether some stage of a table is set against another than the first (its ratios are then stage over stage)."""
    return any(r["over"] not in (t["baseline_stage"], r["stage"]) for r in t["rows"])


def stage_number(stage: str) -> str:
    """A stage as a ratio's base names it: its leading "(2)", else the whole name."""
    found = re.match(r"\(\d+\)", stage)
    return found.group(0) if found else stage


def table(e: dict[str, Any], runs: list[dict[str, Any]], delta: float = stats.MIN_DELTA) -> dict[str, Any] | None:
    """The write-up beside perflab for one cell: {"baseline_stage", "rows", "directions", "differ"}, or None when no
    `[[writeup]]` names a variant that ran. rows: one per stage and figure: stage, variant, source, metric (the
    figure's key), unit, writeup, perflab, over (the stage it is set against: `bases`) and each side's ratio to that
    stage's same figure. directions: per metric, whether every later stage moved the same way on both sides (a move
    within stats.margins(δ) is "about the same"). differ: the stages that differ (`differing`), with the `why` of their
    `[[writeup]]` (None when it gives none)."""
    ran = {r["variant"] for r in runs}
    tables = [w for w in e.get("writeup", []) if w["variant"] in ran]
    if not tables:
        return None
    base_of = bases(e, tables)
    rows = []
    for w in tables:
        base = tables[0] if w is tables[0] else base_of[w["variant"]]
        for key, figure in w["figures"].items():
            value = perflab_value(runs, w["variant"], key)
            base_figure = base["figures"].get(key)
            rows.append({"stage": stage_of(w), "variant": w["variant"], "source": w["source"],
                         "metric": key, "unit": unit(key), "writeup": figure, "perflab": value, "why": w.get("why"),
                         "over": stage_of(base),
                         "writeup_ratio": ratio(figure, base_figure) if base_figure is not None else math.nan,
                         "perflab_ratio": ratio(value, perflab_value(runs, base["variant"], key)) if base_figure is not None else math.nan})
    directions = []
    for key in dict.fromkeys(r["metric"] for r in rows):
        later = [r for r in rows if r["metric"] == key and r["over"] != r["stage"]]
        moves = [(r["stage"], direction(r["writeup_ratio"], delta), direction(r["perflab_ratio"], delta)) for r in later]
        moves = [m for m in moves if None not in m]
        if moves:
            directions.append({"metric": key, "agrees": all(w == p for _, w, p in moves),
                               "stages": [{"stage": s, "writeup": w, "perflab": p} for s, w, p in moves]})
    return {"baseline_stage": stage_of(tables[0]), "rows": rows, "directions": directions,
            "differ": differing(rows, directions)}

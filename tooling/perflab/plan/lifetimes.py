"""JVM lifetimes as the unit (docs/experiments.md, "Planning lifetimes"): from a pilot A/A of separate JVMs, its rounds
grouped by instance lifetime, how many lifetimes and rounds in each an A/B needs for its noise floor to reach a
target, and how long that takes on this machine (Kalibera and Jones, ISMM 2013; stats.variance_components and
stats.lifetimes_plan do the arithmetic).

- pilot(result, cell, calibration) -> the pilot's per-round log A2/A1 with their lifetimes, floor and design
- costs(result, cell)              -> seconds per round (every variant) and per lifetime (start, warm-up, primers)
- plan(result, target, confidence) -> per profile: the plan, or why there is none
- apply(e, plans)                  -> the experiment with each profile's rounds and lifetimes from its plan
"""
import math
from typing import Any

from perflab.analyse import comparison
from perflab.analyse import stats

STARTUP_SECONDS = 10.0  # an app's start, when a pilot did not record its lifetimes' seconds (this machine: 6-12 s)


def pilot(result: dict[str, Any], cell: dict[str, Any], calibration: dict[str, Any]) -> dict[str, Any]:
    """The pilot's per-round log A2/A1 of the calibrated metric, each round's lifetime, and the design its floor is
    for: analyses of calibration["rounds"] rounds in whole lifetimes."""
    e = result["experiment"]
    a_label, b_label = (v["label"] for v in e["variants"])
    metric = calibration["metric"]
    a, b = comparison.values(cell["runs"], a_label, metric), comparison.values(cell["runs"], b_label, metric)
    groups = [r.get("lifetime") for r in cell["runs"] if r["variant"] == a_label]
    logs = [math.log(y / x) if x > 0 and y > 0 else float("nan") for x, y in zip(a, b)]
    return {"logs": logs, "lifetimes": groups, "floor": calibration["noise_floor"], "rounds": calibration["rounds"]}


def _seconds(text: object) -> float:
    text = str(text)
    return float(text[:-2]) / 1000 if text.endswith("ms") else float(text.rstrip("s"))


def costs(result: dict[str, Any], cell: dict[str, Any]) -> tuple[float, float, str]:
    """(seconds per round of every variant, seconds per lifetime, how they were found). Runs and lifetimes record
    their seconds (the runner since lifetimes.py); an older pilot's are modelled from its took_seconds: a run takes
    its duration plus an overhead o (reset, scrapes, JFR), a lifetime per app STARTUP_SECONDS, the warm-up and
    `primer` runs, and o is what makes the cells' sum the result's time."""
    e = result["experiment"]
    apps = len(e["variants"])
    runs = [r["seconds"] for r in cell["runs"] if r.get("seconds")]
    lives = [life["seconds"] for life in cell.get("lifetimes", []) if life.get("seconds")]
    if runs and lives:
        return sum(runs) / len(runs) * apps, sum(lives) / len(lives), "measured in the pilot"
    load = e["load"]
    duration, warmup = _seconds(load.get("duration", "30s")), _seconds(load.get("warmup", "0s"))
    primer = int(load.get("primer", 0))
    cells = result["cells"]
    fixed = sum(len(c["runs"]) * duration + len(c["lifetimes"]) * apps * (STARTUP_SECONDS + warmup + primer * duration)
                for c in cells)
    per_run = sum(len(c["runs"]) + len(c["lifetimes"]) * apps * primer for c in cells)
    overhead = max(0.0, (result["took_seconds"] - fixed) / per_run)
    run = duration + overhead
    return run * apps, apps * (STARTUP_SECONDS + warmup + primer * run), \
        f"modelled from the pilot's {result['took_seconds']:.0f} s (a run {run:.1f} s)"


CAUTIOUS = 0.8  # the confidence --plan names beside its plan, when --confidence did not choose one


def plan(result: dict[str, Any], target: float, confidence: float | None = None) -> list[dict[str, Any]]:
    """Per profile of the pilot A/A `result`: {"profile", "plan" (stats.lifetimes_plan), "components", "costs",
    "uncertainty"}, or {"profile", "why"} when it cannot be planned from it.
    The pilot's variance is an estimate from a few lifetimes: with a `confidence` (e.g. 0.8) the plan is sized for
    its upper confidence bound (stats.variance_inflation) instead of the estimate itself, so that the floor reaches
    the target with that confidence if the machine stays as it was in the pilot."""
    out = []
    for calibration in comparison.primary_calibrations(result.get("calibration")):
        profile = calibration["profile"]
        if calibration.get("noise_floor") is None:
            out.append({"profile": profile, "why": calibration.get("skipped", "no noise floor")})
            continue
        cell = next(c for c in result["cells"] if c["profile"] == profile)
        p = pilot(result, cell, calibration)
        if None in p["lifetimes"]:
            out.append({"profile": profile, "why": "the pilot's rounds carry no instance lifetime (an interleaved or "
                                                    "single-start run): its variance has one level"})
            continue
        components = stats.variance_components(p["logs"], p["lifetimes"])
        round_s, lifetime_s, how = costs(result, cell)
        inflation, df = stats.variance_inflation(components, confidence or CAUTIOUS)
        floor = p["floor"] * math.sqrt(inflation) if confidence else p["floor"]
        design = stats.lifetimes_plan(components, floor, p["rounds"] / components["per_lifetime"],
                                      components["per_lifetime"], target, round_s, lifetime_s)
        out.append({"profile": profile, "metric": calibration["metric"], "plan": design, "components": components,
                    "pilot_floor": p["floor"], "pilot_rounds": p["rounds"],
                    "uncertainty": {"confidence": confidence or CAUTIOUS, "df": df, "inflation": inflation,
                                    "applied": bool(confidence)},
                    "costs": {"round": round_s, "lifetime": lifetime_s, "how": how}})
    return out


def describe(plans: list[dict[str, Any]], source: str) -> str:
    """The plan as the runner prints it: one paragraph per profile."""
    lines = [f"planned from the pilot A/A {source}:"]
    for p in plans:
        if "why" in p:
            lines.append(f"  {p['profile']}: no plan: {p['why']}")
            continue
        c, d, k, u = p["components"], p["plan"], p["costs"], p["uncertainty"]
        lines.append(
            f"  {p['profile']} ({p['metric']}): rounds vary {100 * math.sqrt(c['within']):.1f} % (sd of a round's A2/A1), "
            f"lifetimes {100 * math.sqrt(c['between']):.1f} % beyond that"
            + ("" if c["separable"] else " (the pilot's lifetimes differ no more than their rounds explain)")
            + f"; the pilot's floor {100 * p['pilot_floor']:.1f} % at {p['pilot_rounds']} rounds")
        lines.append(f"    a round {k['round']:.0f} s, a lifetime {k['lifetime']:.0f} s ({k['how']})")
        freedom = f"{u['df']} degree{'' if u['df'] == 1 else 's'} of freedom"
        bound = (f"its variance rests on {freedom}: at {100 * u['confidence']:.0f} % confidence it is up to "
                 f"{u['inflation']:.2f}x the estimate")
        lines.append(f"    {bound}; " + ("planned for that bound" if u["applied"] else
                                         f"--confidence {100 * u['confidence']:.0f}% plans for that bound"))
        verb = "reaches" if d["reachable"] else "cannot reach"
        lines.append(f"    -> {d['lifetimes']} lifetimes x {d['per_lifetime']} rounds = {d['rounds']} rounds per variant, "
                     f"about {d['seconds'] / 60:.0f} min: predicted floor {100 * d['predicted_floor']:.1f} % "
                     f"({verb} {100 * d['target']:.0f} %)")
    return "\n".join(lines)


def apply(e: dict[str, Any], plans: list[dict[str, Any]]) -> dict[str, Any]:
    """e with e["planned"][profile] = that profile's plan (run_cell takes its rounds and lifetimes from it); raises
    SystemExit naming a profile the pilot has no plan for, or one the target is out of reach on."""
    missing = [p for p in e["profiles"] if p not in {q["profile"] for q in plans if "plan" in q}]
    if missing:
        raise SystemExit(f"--planned: no plan for {', '.join(missing)} (--plan shows why); choose --profile")
    out_of_reach = [q["profile"] for q in plans if q["profile"] in e["profiles"] and not q["plan"]["reachable"]]
    if out_of_reach:
        raise SystemExit(f"--planned: the target is out of reach on {', '.join(out_of_reach)} in separate JVMs (--plan "
                         "shows the figures); the interleaved mode (docs/experiments.md) or a larger target")
    e["planned"] = {q["profile"]: q["plan"] for q in plans if q["profile"] in e["profiles"]}
    return e


def for_cell(e: dict[str, Any], profile: str) -> dict[str, Any]:
    """The rounds, cap and restart_every a planned profile runs with, as overrides of e; {} when not planned."""
    d = e.get("planned", {}).get(profile)
    if not d:
        return {}
    return {"rounds": d["rounds"], "max_rounds": d["rounds"], "load": {**e["load"], "restart_every": d["per_lifetime"]}}

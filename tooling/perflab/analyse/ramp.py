"""A ramping open load (`[load] ramp = [r1, r2, ...]`, `step = "20s"`): the stages of one run, each stage's
requests read from the per-request CSV, and the rate at which the experiment's `[slo]` first breaks. Pure
functions of the run's requests (layer 1: it imports only stats).

The script climbs to each stage's rate in `rise` seconds (default 5), then holds it for `step`; a stage's figures count the
requests sent while it held (the climbs are left out, so that a request a second early or late never lands in the
wrong stage), and its dropped iterations (k6 could not start them in time) count as errors.

`ramp_kind = "linear"` (with `segments`, one climb per stage, and `fall`) climbs from 0 to each rate in turn without a
plateau, as case study 004's script did: a stage's figures are the requests sent during its climb, and the fall back to
0 is no stage's.
"""
import math
from collections.abc import Sequence
from typing import Any, cast

from perflab.analyse import stats

RISE_S = 5  # the climb before each stage's plateau, unless [load] rise says (the script's RISE; k6/transfer.js MODE=ramp)
KINDS = ("plateaus", "linear")  # [load] ramp_kind: a climb then a plateau per stage, or one linear climb per stage
FALL_S = 30  # a linear ramp's final climb down to 0, unless [load] fall says


def seconds(text: object) -> float:
    """'20s' -> 20.0, '2m' -> 120.0, 15 -> 15.0."""
    text = str(text)
    for unit, factor in (("ms", 0.001), ("s", 1), ("m", 60)):
        if text.endswith(unit) and text[: -len(unit)].replace(".", "", 1).isdigit():
            return float(text[: -len(unit)]) * factor
    if text.replace(".", "", 1).isdigit():
        return float(text)
    raise ValueError(f"duration {text!r}: use e.g. 20s or 2m")


def of(load: dict[str, Any]) -> list[float] | None:
    """The load's ramp as [rates], or None for a load without one."""
    return [float(r) for r in load["ramp"]] if load.get("ramp") else None


def step_seconds(load: dict[str, Any]) -> float:
    return seconds(load.get("step", "20s"))


def rise_seconds(load: dict[str, Any]) -> float:
    """`[load] rise`: the climb to each stage's rate (default RISE_S; a smoke's short ramp climbs faster)."""
    return seconds(load.get("rise", RISE_S))


def is_linear(load: dict[str, Any]) -> bool:
    return bool(load.get("ramp_kind", "plateaus") == "linear")


def segment_seconds(load: dict[str, Any]) -> list[float]:
    """`[load] segments` of a linear ramp: each stage's climb, in seconds."""
    return [seconds(s) for s in load["segments"]]


def fall_seconds(load: dict[str, Any]) -> float:
    """`[load] fall` of a linear ramp: the climb down to 0 after the last stage (default FALL_S)."""
    return seconds(load.get("fall", FALL_S))


def windows(load: dict[str, Any]) -> list[tuple[float, float]]:
    """Each stage's [from, to) in seconds after the run's start: its plateau (after its climb), or for a linear ramp
    its climb segment."""
    if is_linear(load):
        lengths = segment_seconds(load)
        return [(sum(lengths[:i]), sum(lengths[:i]) + length) for i, length in enumerate(lengths)]
    step, rise = step_seconds(load), rise_seconds(load)
    return [(i * (rise + step) + rise, i * (rise + step) + rise + step) for i in range(len(load["ramp"]))]


def total_seconds(load: dict[str, Any]) -> float:
    """The measured run's length: a climb and a plateau per stage, or a linear ramp's segments and its fall."""
    if is_linear(load):
        return sum(segment_seconds(load)) + fall_seconds(load)
    return len(load["ramp"]) * (rise_seconds(load) + step_seconds(load))


def describe(load: dict[str, Any]) -> str:
    """How the stages run, for the report's title: 'each stage 20s after a 5 s climb', or a linear ramp's."""
    if is_linear(load):
        climbs = ", ".join(f"{s:g}" for s in segment_seconds(load))
        return f"each stage a linear climb from the one before ({climbs} s), then {fall_seconds(load):g} s down to 0"
    return f"each stage {load.get('step', '20s')} after a {rise_seconds(load):g} s climb"


def stage_label(stage: dict[str, Any]) -> str:
    """A stage's rate as the report labels it: '200' for a plateau, '0→86' for a linear climb."""
    if "from" in stage:
        return f"{stage['from']:g}→{stage['rate']:g}"
    return f"{stage['rate']:g}"


def k6_env(load: dict[str, Any]) -> dict[str, str]:
    """What the script reads to run the ramp (MODE=ramp, RAMP, STEP in seconds, RISE) and enough virtual users for
    the peak: PRE_VUS as many as the peak's arrivals per second, MAX_VUS (unless the file sets it) twice that, at
    least 1,000 (a run that needs more has a p95 far beyond any SLO; what k6 then drops counts as errors)."""
    rates = cast(list[float], of(load))  # a ramped load's
    peak = max(rates)
    vus = {"PRE_VUS": str(int(math.ceil(peak))),
           "MAX_VUS": str(load.get("env", {}).get("MAX_VUS", max(1000, int(math.ceil(2 * peak)))))}
    if is_linear(load):  # RAMP_KIND=linear, SEGMENTS and FALL in seconds
        return {"MODE": "ramp", "RAMP_KIND": "linear", "RAMP": ",".join(f"{r:g}" for r in rates),
                "SEGMENTS": ",".join(f"{s:g}" for s in segment_seconds(load)), "FALL": f"{fall_seconds(load):g}", **vus}
    return {"MODE": "ramp", "RAMP": ",".join(f"{r:g}" for r in rates), "STEP": f"{step_seconds(load):g}",
            "RISE": f"{rise_seconds(load):g}", **vus}


def slo_of(e: dict[str, Any]) -> tuple[float, float]:
    """The experiment's [slo] as (p95 limit in ms, error-rate limit as a fraction): `error_rate`, or the capacity
    search's `max_error_rate`."""
    slo = e.get("slo", {})
    return float(slo["p95_ms"]), float(slo.get("error_rate", slo.get("max_error_rate", 0.01)))


def stages(load: dict[str, Any], latencies: Sequence[float], times: Sequence[float], failed: Sequence[bool],
           dropped: Sequence[tuple[float, int]], slo: tuple[float, float]) -> list[dict[str, Any]]:
    """One entry per stage: {rate, requests, avg, p95, max, error_rate, dropped, held}, and a linear stage's `from`
    (the rate its climb starts at). latencies (ms), times (seconds, the CSV's whole seconds) and failed are per
    request, in the CSV's order; dropped: (time, count) of k6's dropped iterations. The run's start is its first
    request's second (the script starts with the climb). `held`: the stage's p95 and error rate are both under the
    SLO (a stage without a request broke)."""
    rates = cast(list[float], of(load))  # a ramped load's
    p95_ms, max_errors = slo
    start = min(times) if times else 0
    out: list[dict[str, Any]] = []
    for i, (rate, (begin, end)) in enumerate(zip(rates, windows(load))):
        lo, hi = start + begin, start + end
        inside = [k for k, t in enumerate(times) if lo <= t < hi]
        lat = [latencies[k] for k in inside]
        errors = sum(1 for k in inside if k < len(failed) and failed[k])
        lost = sum(n for t, n in dropped if lo <= t < hi)
        sent = len(lat) + lost
        summary = stats.summarize(lat)
        error_rate = (errors + lost) / sent if sent else 1.0
        held = bool(lat) and summary["p95"] < p95_ms and error_rate < max_errors
        out.append({"rate": rate, "requests": len(lat), "avg": summary["avg"], "p95": summary["p95"],
                    "max": summary["max"], "error_rate": error_rate, "dropped": lost, "held": held})
        if is_linear(load):
            out[-1]["from"] = rates[i - 1] if i else 0.0
    return out


def breaking_rate(stage_list: list[dict[str, Any]]) -> tuple[float, bool]:
    """(the first stage's rate at which the SLO broke, whether every stage held). When every stage held, the
    breaking rate is the peak's: a lower bound (censored), as a capacity search that held its max."""
    broke = next((s["rate"] for s in stage_list if not s["held"]), None)
    if broke is None:
        return (stage_list[-1]["rate"] if stage_list else math.nan), True
    return broke, False


def record(load: dict[str, Any], latencies: Sequence[float], times: Sequence[float], failed: Sequence[bool],
           dropped: Sequence[tuple[float, int]], slo: tuple[float, float]) -> dict[str, Any]:
    """What a ramped run adds to its record: its stages, breaking_rate and held_peak."""
    stage_list = stages(load, latencies, times, failed, dropped, slo)
    rate, held = breaking_rate(stage_list)
    return {"stages": stage_list, "breaking_rate": rate, "held_peak": held}


def median_stages(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The stages of several runs (a variant's rounds) as one list: each figure the median over the runs, `held`
    the number of runs whose stage held, `runs` how many there were."""
    ramped = [r["stages"] for r in runs if r.get("stages")]
    if not ramped:
        return []
    out = []
    for i in range(min(len(s) for s in ramped)):
        column = [s[i] for s in ramped]
        row = {"rate": column[0]["rate"], "runs": len(column), "held": sum(1 for s in column if s["held"])}
        if "from" in column[0]:
            row["from"] = column[0]["from"]
        for key in ("requests", "avg", "p95", "max", "error_rate", "dropped"):
            row[key] = _median([s[key] for s in column])
        out.append(row)
    return out


def _median(values: list[Any]) -> Any:
    values = sorted(v for v in values if v is not None and not (isinstance(v, float) and math.isnan(v)))
    if not values:
        return math.nan
    n = len(values)
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2


def targets_from_rule(setting: dict[str, Any], seconds_per_transfer: float) -> list[int]:
    """A `[setting]`'s ramp: the peak P = connections / the pilot's seconds per transfer (Little's law: the rate at
    which that many connections are busy), each stage's target its fraction of P, rounded to whole transfers per
    second (halves up)."""
    peak = float(setting["connections"]) / seconds_per_transfer
    return [int(math.floor(float(f) * peak + 0.5)) for f in setting["fractions"]]

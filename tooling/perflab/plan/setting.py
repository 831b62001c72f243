"""A `[setting]` applied on the machine that runs it: the file's ramp is the rule applied to the pilot published
with it, which was measured on one machine; on another (or with none published) the rule's input is measured again
here, by running the pilot first (the runner's apply_setting), and the ramp is the same rule applied to that figure.

`--setting auto` (the default) runs the pilot here when the published one was measured elsewhere or is missing;
`here` always runs it; `published` keeps the file's ramp and says where its pilot ran. The rule itself (connections,
fractions) is the file's, written before the run: only its input is this machine's."""
import math
import statistics
from collections.abc import Mapping
from typing import Any

from perflab.analyse import ramp
from perflab.results import store

SOURCES = ("auto", "here", "published")


def pilot_of(e: Mapping[str, Any]) -> str | None:
    """The pilot experiment whose figure the file's rule reads, if it has one."""
    pilot: str | None = e.get("setting", {}).get("pilot")
    return pilot


def figure(result: Mapping[str, Any], metric: str) -> float | None:
    """The rule's input from a pilot's result: the median of `metric` over the runs of its (only) variant; None when
    no run measured it (a window with no transfer records NaN)."""
    label = result["experiment"]["variants"][0]["label"]
    values = [float(v) for c in result["cells"] for r in c["runs"] if r["variant"] == label
              for v in [r.get("mechanism", {}).get(metric)] if v is not None and not math.isnan(v)]
    return statistics.median(values) if values else None


def unsteady(result: Mapping[str, Any]) -> list[str]:
    """The pilot's runs whose latency still trended through their window (a JIT still compiling, a cache filling, the
    senders' fresh tokens verified in the first seconds), each with the runner's reason: the run names them beside
    the figure they gave."""
    return [f"{r['variant']}: {r['steady'].get('reason', 'not steady')}" for c in result["cells"] for r in c["runs"]
            if r.get("steady") and not r["steady"].get("steady", True)]


def source(e: Mapping[str, Any], wanted: str, here: Mapping[str, Any]) -> tuple[str, str]:
    """Where this run takes its rule's input from, "here" or "published", and why, in words."""
    name = pilot_of(e)
    if wanted not in SOURCES:
        raise SystemExit(f"--setting {wanted!r}: one of {', '.join(SOURCES)}")
    if name is None:
        if wanted == "here":
            raise SystemExit(f"--setting here: {e['name']} has no [setting] pilot whose figure a rule reads")
        return "published", "no pilot"
    if wanted != "auto":
        return wanted, f"--setting {wanted}"
    published = store.published(name)
    if published is None:
        return "here", f"no {name} is published (docs/results/{name})"
    elsewhere = store.measured_elsewhere(published, here)
    if elsewhere:
        return "here", f"the published {name} was measured on another machine: {elsewhere}"
    return "published", f"the published {name} was measured on this machine"


def apply(e: dict[str, Any], seconds: float, where: str, unsteady: list[str] | None = None) -> list[int]:
    """The file's rule on `seconds` (the pilot's figure): the ramp's targets, set in `e`, with each mechanism scaled
    by the ramp's peak (Little's law's connections busy at the peak) following it; the figure and where it was
    measured recorded in `e["setting"]["applied"]` (with the pilot's runs that were not steady, if any), which the
    result keeps. The new ramp."""
    load = e["load"]
    old_ramp = list(load["ramp"])
    old_peak = max(old_ramp)
    targets = ramp.targets_from_rule(e["setting"], seconds)
    load["ramp"] = targets
    for m in e.get("mechanism", []):
        if m.get("scale") == old_peak:
            m["scale"] = max(targets)
    e["setting"]["applied"] = {"pilot_figure": seconds, "measured": where, "ramp": targets, "file_ramp": old_ramp,
                               **({"unsteady": unsteady} if unsteady else {})}
    return targets

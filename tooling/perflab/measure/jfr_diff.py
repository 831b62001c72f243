"""Two JFR profile summaries (tooling/perflab/measure/jfr.py's summary) side by side, A against B, for the report: per section, rows
{name, a, b, change, relative}, largest change first. Pure functions of the two summaries."""
from collections.abc import Callable
from typing import Any

SAMPLES = {"jdk.CPUTimeSample": "CPU-time samples (system calls included)",
           "jdk.ExecutionSample": "execution samples (Java code only)"}
TOP = 20


def rows(a: dict[str, float], b: dict[str, float], top: int = TOP, by_size: bool = False) -> list[dict[str, Any]]:
    """Side-by-side rows of two {name: number} maps, largest absolute change first (by_size: largest on either side
    first, for a breakdown such as CPU by library); a missing name is 0."""
    table: list[dict[str, Any]] = []
    for name in set(a) | set(b):
        value_a, value_b = a.get(name) or 0, b.get(name) or 0
        table.append({"name": name, "a": value_a, "b": value_b, "change": round(value_b - value_a, 6),
                      "relative": round(value_b / value_a - 1, 4) if value_a else None})
    table.sort(key=lambda row: (-max(row["a"], row["b"]) if by_size else -abs(row["change"]), row["name"]))
    return table[:top]


def _by(entries: list[dict[str, Any]], key: str, value: str) -> dict[str, Any]:
    return {entry[key]: entry[value] for entry in entries}


BREAKDOWNS = {"cpu_layers"}  # diff sections listed largest first: where the CPU goes on each side, then what changed


def _samples_name(profile_a: dict[str, Any], profile_b: dict[str, Any]) -> str:
    """What the CPU sections count, named for the report; both kinds when the two sides differ (a summary stored
    before `event` was recorded counted execution samples)."""
    a, b = (SAMPLES[p["cpu"].get("event", "jdk.ExecutionSample")] for p in (profile_a, profile_b))
    return a if a == b else f"CPU samples (A: {a}; B: {b})"


def diff(profile_a: dict[str, Any], profile_b: dict[str, Any], top: int = TOP) -> dict[str, Any]:
    """A against B for the report: each section is {"unit": ..., "rows": [{name, a, b, change, relative}]}, largest
    change first (CPU by library: largest share first).
    Allocation is compared per request when both profiles know their request count, else in bytes."""
    allocated = "bytes_per_request" if profile_a.get("requests") and profile_b.get("requests") else "bytes"
    allocated_unit = allocated.replace("_", " ")
    samples = _samples_name(profile_a, profile_b)
    sections: dict[str, tuple[str, Callable[[dict[str, Any]], dict[str, Any]]]] = {  # name: (unit, {row name: number} of one profile)
        "cpu_layers": (f"share of {samples}, by library", lambda p: _by(p["cpu"].get("layers", []), "layer", "share")),
        "cpu_self": (f"share of {samples} (top frame)",
                     lambda p: _by(p["cpu"]["methods"], "method", "self_share")),
        "cpu_total": (f"share of {samples} (on the stack)",
                      lambda p: _by(p["cpu"]["inclusive"], "method", "total_share")),
        "allocation": (allocated_unit, lambda p: _by(p["allocation"]["classes"], "class", allocated)),
        "monitor_enter": ("ms blocked entering synchronized",
                          lambda p: _by(p["locks"]["monitor_enter"]["classes"], "class", "total_ms")),
        "thread_park": ("ms parked", lambda p: _by(p["locks"]["thread_park"]["classes"], "class", "total_ms")),
        "monitor_sites": ("ms blocked entering synchronized, by waiting method",
                          lambda p: _by(p["locks"]["monitor_enter"]["sites"], "site", "total_ms")),
        "park_sites": ("ms parked, by waiting method",
                       lambda p: _by(p["locks"]["thread_park"]["sites"], "site", "total_ms")),
        "gc": ("", lambda p: {"collections": p["gc"]["count"], "total pause ms": p["gc"]["total_pause_ms"],
                              "max pause ms": p["gc"]["max_pause_ms"]}),
        "jit": ("", lambda p: {"compilations": p["jit"]["compilations"], "compile time ms": p["jit"]["compile_ms"],
                               "failed compilations": p["jit"]["failed"],
                               "deoptimizations": p["jit"]["deoptimizations"]}),
        "totals": ("", lambda p: {"CPU samples": p["cpu"]["samples"],
                                  f"allocated {allocated_unit}": p["allocation"][allocated]}),
    }
    return {name: {"unit": unit, "rows": rows(pick(profile_a), pick(profile_b), top, by_size=name in BREAKDOWNS)}
            for name, (unit, pick) in sections.items()}

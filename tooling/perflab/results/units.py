"""How a result's values read: the metrics' names and units, numbers to a few significant digits, durations,
ratios and percentages. Pure functions on values (tooling/perflab/render/report.py, tooling/perflab/render/charts.py and the comparison's "because"
sentence all write with them)."""
import math
import re
from typing import Any

NAMES = {"avg": "avg (ms)", "p50": "p50 (ms)", "p90": "p90 (ms)", "p95": "p95 (ms)", "p99": "p99 (ms)", "max": "max (ms)",
         "tps": "throughput (/s)", "error_rate": "errors", "capacity": "capacity (/s)",
         "served": "served at capacity (/s)", "first_ms": "first request (ms)",
         "second_ms": "second request (ms)", "first_over_second": "first / second", "idle_first_ms": "first after idle (ms)",
         "idle_second_ms": "second after idle (ms)", "idle_first_over_second": "first / second after idle", "ready_ms": "ready (ms)",
         "success_pct": "success (%)", "first100_p99": "first 100 p99 (ms)", "first1000_p99": "first 1k p99 (ms)",
         "steady_p99": "steady p99 (ms)", "first100_p99_over_steady": "first 100 p99 / steady",
         "jit_compile_ms": "compile time (ms)", "jit_compilations": "compilations", "c2_compile_ms": "C2 compile time (ms)",
         "c2_compilations": "C2 compilations", "deoptimizations": "deoptimizations", "young_gcs": "young GCs",
         "old_gcs": "old GCs", "gc_pause_ms": "GC pauses (ms)", "focus_compile_ms": "focus compile time (ms)",
         "focus_cpu_pct": "focus CPU (%)",
         "breaking_rate": "breaking rate (/s)"}
SECONDS = re.compile(r"(?: \(s\)$|\bseconds\b)")  # a metric measured in seconds: "... (s)", "decode seconds per request"


def nan(v: object) -> bool:
    return v is None or (isinstance(v, float) and (math.isnan(v) or math.isinf(v)))


def sig(v: float, digits: int = 3) -> str:
    """v to `digits` significant digits, trailing zeros dropped as %g drops them, but never in exponent notation
    (0.000075, not 7.5e-05)."""
    if v == 0 or math.isnan(v) or math.isinf(v):
        return f"{v:g}"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(v))))
    text = f"{v:.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def number(v: float) -> str:
    """A plain number: thousands with separators, tens with one decimal, the rest to 3 significant digits."""
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    if abs(v) >= 10:
        return f"{v:.1f}"
    return sig(v)


def is_seconds(metric: str) -> bool:
    return bool(metric) and bool(SECONDS.search(metric))


def duration(seconds: float) -> str:
    """A duration in seconds as a person reads it: '1.23 s' from a second up, else '42.5 ms', '0.075 ms'."""
    return f"{number(seconds)} s" if abs(seconds) >= 1 else f"{number(1000 * seconds)} ms"


def fmt(v: Any, metric: str = "") -> str:
    """Any value of a result as a report shows it: – for None or NaN, a text as it is, an error rate in %, a metric
    in seconds as a duration, else a number."""
    if nan(v):
        return "–"
    if isinstance(v, str):
        return v
    if metric == "error_rate":
        return f"{100 * v:.2f}%"
    if is_seconds(metric):
        return duration(v)
    return number(v)


def label(metric: str) -> str:
    """A metric's name in a report: the runner's names (p95 (ms)), and a metric in seconds without its "(s)",
    since its values carry their unit (42.5 ms)."""
    return NAMES.get(metric) or re.sub(r" \(s\)$", "", metric)


def short(metric: str) -> str:
    """A metric's name without its unit: "p95", "throughput", "first request"."""
    return re.sub(r" \((?:ms|s|/s|%)\)$", "", label(metric))


def ratio_text(x: float | None) -> str:
    """A B/A ratio in a sentence or on a chart: two decimals (0.37, 1.04), two significant digits below 0.1."""
    if x is None or math.isnan(x):
        return "–"
    if math.isinf(x):
        return "∞"
    if abs(x) >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}" if abs(x) >= 0.1 else sig(x, 2)


def delta_text(delta: float) -> str:
    """δ as a percentage: 25 %, 8.1 %, 3 %."""
    return f"{sig(100 * delta, 2)} %"


def pct(ratio: Any) -> str:
    """B/A as a change: +12.3%; – for None or NaN."""
    return "–" if nan(ratio) else f"{100 * (ratio - 1):+.1f}%"


def a_to_b(row: dict[str, Any]) -> str:
    """'12.0 → 5': a compared metric's medians, baseline then candidate."""
    return f"{fmt(row['median_a'], row['metric'])} → {fmt(row['median_b'], row['metric'])}"

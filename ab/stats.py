"""The A/B runner's statistics: percentiles, per-round ratios, a bootstrap interval and a verdict.

Small on purpose and tested with known inputs (test_stats.py). No third-party packages.
"""
import math
import random
import statistics


def percentile(values, p):
    """The p-th percentile (0-100) with linear interpolation between closest ranks (numpy's default)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    if len(ordered) == 1:
        return float(ordered[0])
    rank = (len(ordered) - 1) * p / 100.0
    low = math.floor(rank)
    high = math.ceil(rank)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def summarize(latencies_ms):
    """The seeds' columns for one run: avg, p50, p90, p95, p99, max (ms)."""
    if not latencies_ms:
        return {k: math.nan for k in ("avg", "p50", "p90", "p95", "p99", "max")}
    return {
        "avg": statistics.fmean(latencies_ms),
        "p50": percentile(latencies_ms, 50),
        "p90": percentile(latencies_ms, 90),
        "p95": percentile(latencies_ms, 95),
        "p99": percentile(latencies_ms, 99),
        "max": max(latencies_ms),
    }


def ratios(baseline_runs, candidate_runs, metric):
    """B/A for one metric, one ratio per round (run i of A paired with run i of B)."""
    out = []
    for a, b in zip(baseline_runs, candidate_runs):
        va, vb = a.get(metric), b.get(metric)
        if va is None or vb is None or (isinstance(va, float) and math.isnan(va)) or (isinstance(vb, float) and math.isnan(vb)):
            continue
        if va == 0:
            out.append(1.0 if vb == 0 else math.inf)
        else:
            out.append(vb / va)
    return out


def bootstrap_interval(values, confidence=0.95, resamples=10000, seed=7):
    """A percentile-bootstrap interval for the median of `values`. Seeded, so reruns agree."""
    if not values:
        return (math.nan, math.nan)
    if len(values) == 1:
        return (values[0], values[0])
    rng = random.Random(seed)
    medians = sorted(statistics.median(rng.choices(values, k=len(values))) for _ in range(resamples))
    tail = (1 - confidence) / 2
    return (percentile(medians, 100 * tail), percentile(medians, 100 * (1 - tail)))


def verdict(interval, lower_is_better, min_effect=0.03):
    """'better', 'worse' or 'no difference' for the candidate, from the interval of B/A.

    The candidate is better only when the whole interval clears `min_effect` in its favour, worse when
    the whole interval is against it, and otherwise the difference is within this run's noise.
    """
    low, high = interval
    if math.isnan(low) or math.isnan(high):
        return "no data"
    if lower_is_better:
        if high < 1 - min_effect:
            return "better"
        if low > 1 + min_effect:
            return "worse"
    else:
        if low > 1 + min_effect:
            return "better"
        if high < 1 - min_effect:
            return "worse"
    return "no difference"


def compare(baseline_runs, candidate_runs, metric, lower_is_better, min_effect=0.03):
    """Everything the report says about one metric."""
    rs = ratios(baseline_runs, candidate_runs, metric)
    interval = bootstrap_interval(rs)
    median_a = statistics.median([r[metric] for r in baseline_runs if metric in r]) if baseline_runs else math.nan
    median_b = statistics.median([r[metric] for r in candidate_runs if metric in r]) if candidate_runs else math.nan
    return {
        "metric": metric,
        "baseline": median_a,
        "candidate": median_b,
        "ratios": rs,
        "median_ratio": statistics.median(rs) if rs else math.nan,
        "interval": interval,
        "verdict": verdict(interval, lower_is_better, min_effect),
        "lower_is_better": lower_is_better,
    }

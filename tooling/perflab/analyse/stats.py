"""The A/B runner's statistics, on numpy and scipy.stats (tested with known inputs in test_stats.py).

The unit of observation is a RUN (one round of one variant), never a request: requests within a run are
correlated, and treating them as independent makes every interval falsely narrow. The runner therefore
reduces each run to one number per metric (e.g. that run's p95) and hands this module one value per round.

Public API (what the comparison, the load shapes and the runner call):

- summarize(latencies_ms)            -> avg, p50, p90, p95, p99, max of one run
- percentile(values, p)              -> one percentile (per-second series in the runner)
- schedule(labels, rounds)           -> the run order, in balanced blocks (A B B A ...)
- compare(a, b, lower_is_better)     -> ratio of medians, BCa interval, Mann-Whitney p, Hodges-Lehmann, verdict
- verdict(interval, lower_is_better) -> one of VERDICTS from an interval of B/A and the margin delta
- needs_more_rounds(result)          -> True while the verdict is inconclusive
- holm(p_values)                     -> Holm-Bonferroni adjusted p-values (secondary metrics)
- smallest_mwu_p(n_a, n_b, tests)    -> the smallest p Mann-Whitney can give at these sizes (after Holm)
- variance_components(values, groups) -> a pilot's variance between instance lifetimes and between rounds in one
- lifetimes_plan(components, ...)     -> lifetimes and rounds in each for a target noise floor (Kalibera and Jones)
- steady_state(series)               -> whether a run's per-second values still trend (e.g. JIT warm-up)

The A/A calibration and the power check, on compare(), are tooling/perflab/analyse/stats_calibration.py's.
"""
import math
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests

VERDICTS = ("better", "worse", "no difference", "inconclusive")
MIN_DELTA = 0.03          # the practical margin δ's default: every default of 3 % reads it
MIN_ROUNDS = 10           # fewer rounds than this: a warning
MIN_INTERVAL_ROUNDS = 3   # fewer than this: no interval (two rounds give only three distinct resamples)
DEFAULT_SEED = 20240611
SUMMARY_KEYS = ("avg", "p50", "p90", "p95", "p99", "max")

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.intp]
Values = Sequence[float] | FloatArray  # one value per round (NaN: none)


# --- one run ---------------------------------------------------------------------------------------------

def percentile(values: Iterable[float] | FloatArray, p: float) -> float:
    """The p-th percentile (0-100) of `values`, numpy's linear interpolation; NaN for no values."""
    arr = np.asarray(values, dtype=float)
    if arr.size == 0:
        return math.nan
    return float(np.percentile(arr, p))


def summarize(latencies_ms: Iterable[float] | FloatArray) -> dict[str, float]:
    """One run's latency columns (the seeds' table): {"avg", "p50", "p90", "p95", "p99", "max"} in ms.

    Percentiles are numpy's linear interpolation between closest ranks. Every value is NaN for no input.
    """
    arr = np.asarray(latencies_ms, dtype=float)
    if arr.size == 0:
        return {k: math.nan for k in SUMMARY_KEYS}
    p50, p90, p95, p99 = np.percentile(arr, [50, 90, 95, 99])
    return {"avg": float(arr.mean()), "p50": float(p50), "p90": float(p90), "p95": float(p95),
            "p99": float(p99), "max": float(arr.max())}


# --- run order -------------------------------------------------------------------------------------------

def schedule(labels: Iterable[str], rounds: int) -> list[str]:
    """The run order for `rounds` runs of each label, in blocks that cancel a linear drift.

    Each block runs every label once; even blocks run them in the given order, odd blocks reversed:
    two labels give A B B A A B B A ..., three give A B C C B A A B C ... Over every pair of blocks each
    label has the same mean position, so a drift that is linear in time (warming caches, a filling disk,
    thermal throttling) adds the same amount to every label and cancels in the ratio. Each label also
    sits as often at an even as at an odd position. With an odd `rounds` the last block is unpaired, so
    the balance is exact only for even `rounds`. The i-th run of each label is round i: compare() pairs
    A's and B's values by that round index.

    Returns a list of len(labels) * rounds labels. Raises ValueError for no labels, duplicate labels or
    rounds < 1.
    """
    labels = list(labels)
    if not labels:
        raise ValueError("schedule needs at least one label")
    if len(set(labels)) != len(labels):
        raise ValueError(f"schedule labels must be distinct, got {labels}")
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, got {rounds}")
    order = []
    for block in range(rounds):
        order.extend(start_order(labels, block))
    return order


def restart_due(position: int, n_labels: int, restart_every: int) -> bool:
    """Whether the run at `position` (0-based, in schedule() order) starts a new instance lifetime: every
    `restart_every` blocks (rounds of every label), never before the first run; 0 never restarts."""
    if restart_every < 0 or n_labels < 1:
        raise ValueError(f"restart_every must be >= 0 and n_labels >= 1, got {restart_every}, {n_labels}")
    return restart_every > 0 and position > 0 and position % (n_labels * restart_every) == 0


def start_order(labels: Iterable[str], lifetime: int) -> list[str]:
    """The labels in the given order for an even `lifetime` (0, 1, ...), reversed for an odd one: the order of a
    block in schedule(), and the order in which an instance lifetime starts and warms the apps, so that an effect of
    being started first or last (the app warmed first idles, and finishes compiling, while the next one warms)
    falls on every label alike over each pair of lifetimes."""
    labels = list(labels)
    return labels if lifetime % 2 == 0 else labels[::-1]


# --- one comparison --------------------------------------------------------------------------------------

def _median_ratio(a: FloatArray, b: FloatArray, axis: int = -1) -> FloatArray:
    """median(b) / median(a) along `axis`, with 0/0 = 1 (both zero: no change) and x/0 = inf."""
    ma = np.median(a, axis=axis)
    mb = np.median(b, axis=axis)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(ma == 0, np.where(mb == 0, 1.0, np.inf), mb / ma)


def _median_of_ratios(a: FloatArray, b: FloatArray, axis: int = -1) -> FloatArray:
    """The median, along `axis`, of each pair's b / a (0/0 = 1, x/0 = inf): the interleaved mode's estimator, whose
    pairs share their moment (one app, one window), so that a round's level cancels in its own ratio."""
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(a == 0, np.where(b == 0, 1.0, np.inf), b / np.where(a == 0, 1.0, a))
    return np.median(r, axis=axis)


def _geometric_mean_ratio(a: FloatArray, b: FloatArray, axis: int = -1) -> FloatArray:
    """The geometric mean, along `axis`, of each pair's b / a: exp(mean(log b - log a)); NaN where a value is not
    positive (the interval then falls back as for other degenerate data)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios: FloatArray = np.exp(np.mean(np.log(b) - np.log(a), axis=axis))
    return ratios


# what B/A is: the ratio of the two sides' medians (rounds of separate runs), or, for interleaved rounds (each a pair
# measured at once in one app, so that the round's level cancels in its own ratio), the median or the geometric
# mean of the rounds' B/A
ESTIMATORS: dict[str, Callable[[FloatArray, FloatArray], FloatArray]] = {
    "ratio of medians": _median_ratio, "median of ratios": _median_of_ratios, "geometric mean of ratios": _geometric_mean_ratio}
DEFAULT_ESTIMATOR = "ratio of medians"


def ratio_intervals(a: FloatArray, b: FloatArray, confidence: float, n_resamples: int, rng: np.random.Generator,
                    paired: bool, estimator: str = DEFAULT_ESTIMATOR) -> tuple[FloatArray, FloatArray, BoolArray]:
    """Bootstrap intervals of B/A (ESTIMATORS[estimator]) for each row of the 2-D arrays a and b (one row per analysis).

    BCa first (scipy.stats.bootstrap, method="BCa"); rows where BCa is undefined (NaN: ties, constant or
    zero data make its acceleration or bias correction 0/0) get the percentile interval of the SAME
    bootstrap distribution instead. Returns (low, high, fell_back) arrays.
    """
    with warnings.catch_warnings():
        # BCa on degenerate rows warns and returns NaN; those rows are handled below, loudly, by the caller.
        warnings.simplefilter("ignore", sps.DegenerateDataWarning)
        warnings.simplefilter("ignore", RuntimeWarning)
        statistic = ESTIMATORS[estimator]
        res = sps.bootstrap((a, b), statistic, paired=paired, vectorized=True, axis=-1,
                            confidence_level=confidence, n_resamples=n_resamples, method="BCa", rng=rng)
        low = np.atleast_1d(np.asarray(res.confidence_interval.low, dtype=float))
        high = np.atleast_1d(np.asarray(res.confidence_interval.high, dtype=float))
        fell_back = np.isnan(low) | np.isnan(high)
        if fell_back.any():
            pct = sps.bootstrap((a, b), statistic, paired=paired, vectorized=True, axis=-1,
                                confidence_level=confidence, n_resamples=0, method="percentile",
                                bootstrap_result=res, rng=rng)
            low = np.where(fell_back, np.atleast_1d(pct.confidence_interval.low), low)
            high = np.where(fell_back, np.atleast_1d(pct.confidence_interval.high), high)
    return low, high, fell_back


def margins(delta: float) -> tuple[float, float]:
    """The ratios a practical margin delta allows around 1: [1 / (1 + delta), 1 + delta].

    Multiplicative, so a margin is the same size on both sides of 1 on a log scale: B/A = 1 / (1 + delta) is as far
    from 1 as A/B = 1 + delta. An additive 1 - delta would reach 0 at delta = 100 % and call no reduction "better"
    however large it is.
    """
    return 1 / (1 + delta), 1 + delta


def reach(low: Any, high: Any) -> Any:
    """How far an interval (low, high) of B/A reaches from 1, on margins()'s scale: the smallest delta whose
    margins contain it, max(1 / low - 1, high - 1). Works on floats and on numpy arrays."""
    return np.maximum(1 / np.asarray(low, dtype=float) - 1, np.asarray(high, dtype=float) - 1)


def verdict(interval: tuple[float, float], lower_is_better: bool, delta: float = MIN_DELTA) -> str:
    """The verdict for the candidate B from an interval (low, high) of B/A and the practical margin delta.

    With (lo, hi) = margins(delta):
    - "better" / "worse": the whole interval lies beyond the margin on one side (for lower_is_better, "better"
      means high < lo and "worse" means low > hi; mirrored when higher is better);
    - "no difference": the whole interval lies inside [lo, hi];
    - "inconclusive": anything else, including an interval with NaN (no data).
    """
    low, high = interval
    if math.isnan(low) or math.isnan(high):
        return "inconclusive"
    lo, hi = margins(delta)
    below, above = high < lo, low > hi
    if below or above:
        return "better" if below == lower_is_better else "worse"
    if lo <= low and high <= hi:
        return "no difference"
    return "inconclusive"


def hodges_lehmann(a: Values, b: Values) -> float:
    """The two-sample Hodges-Lehmann shift of b against a: the median of all pairwise differences b_j - a_i.

    It is the location shift that goes with the Mann-Whitney U test (the shift that makes U balanced).
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.size == 0 or b.size == 0:
        return math.nan
    return float(np.median(np.subtract.outer(b, a)))


def _hodges_lehmann_ratio(a: Values, b: Values) -> float | None:
    """exp(HL shift of the logs): the typical ratio b/a. None unless every value is positive."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.size == 0 or b.size == 0 or (a <= 0).any() or (b <= 0).any():
        return None
    return float(np.exp(hodges_lehmann(np.log(a), np.log(b))))


def drop_missing(a: Values, b: Values, paired: bool, warns: list[str]) -> tuple[FloatArray, FloatArray]:
    """Drops NaN values (the whole round when paired) and returns float arrays."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if paired:
        if a.size != b.size:
            raise ValueError(f"paired comparison needs one value per round on both sides, got {a.size} and {b.size}")
        keep = ~(np.isnan(a) | np.isnan(b))
        if not keep.all():
            warns.append(f"{int((~keep).sum())} round(s) without a value dropped (NaN)")
        return a[keep], b[keep]
    dropped = int(np.isnan(a).sum() + np.isnan(b).sum())
    if dropped:
        warns.append(f"{dropped} run(s) without a value dropped (NaN)")
    return a[~np.isnan(a)], b[~np.isnan(b)]


def compare(a: Values, b: Values, lower_is_better: bool, delta: float = MIN_DELTA, confidence: float = 0.95,
            seed: int = DEFAULT_SEED, paired: bool = True, n_resamples: int = 9999,
            estimator: str = DEFAULT_ESTIMATOR) -> dict[str, Any]:
    """Compares candidate B with baseline A for one metric, from one value per round on each side.

    a, b: per-ROUND values (e.g. each run's p95), paired by round index when paired=True (same length;
    a round with NaN on either side is dropped). Returns a dict:

    - n: rounds used (pairs; min of both sizes when unpaired), n_a, n_b
    - median_a, median_b, ratio = median_b / median_a (0/0 counts as 1, x/0 as inf)
    - interval: (low, high) bootstrap interval of the ratio of medians at `confidence`, BCa
      (scipy.stats.bootstrap(..., paired=True, method="BCa")) over the paired rounds, seeded by `seed`
    - interval_method: "BCa"; "percentile" when BCa was undefined (see warnings); "exact" when both
      sides are constant (the interval is the point ratio); "none" below MIN_INTERVAL_ROUNDS (3) rounds
    - round_ratios: b_i / a_i per round when paired (the report's per-round points), else []
    - p_value: Mann-Whitney U two-sided (scipy.stats.mannwhitneyu), NaN below one value per side
    - hl_shift: Hodges-Lehmann shift b - a (median of all pairwise differences), in the metric's unit
    - hl_ratio: the same on the log scale, as a ratio b/a; None unless every value is > 0
    - verdict: one of VERDICTS (see verdict()), delta, confidence, lower_is_better
    - warnings: list of str: n < 10, zero variance, BCa fallback to percentile, zero values, dropped NaN
    """
    warns: list[str] = []
    raw_a, raw_b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    a, b = drop_missing(a, b, paired, warns)
    n = int(min(a.size, b.size))
    result: dict[str, Any] = {"n": n, "n_a": int(a.size), "n_b": int(b.size),
                              "median_a": float(np.median(a)) if a.size else math.nan,
                              "median_b": float(np.median(b)) if b.size else math.nan,
                              "ratio": math.nan, "interval": (math.nan, math.nan), "interval_method": "none",
                              "round_ratios": [], "p_value": math.nan, "hl_shift": hodges_lehmann(a, b),
                              "hl_ratio": _hodges_lehmann_ratio(a, b), "delta": delta, "confidence": confidence,
                              "lower_is_better": lower_is_better, "warnings": warns}
    if n < MIN_ROUNDS:
        warns.append(f"only {n} round(s), fewer than {MIN_ROUNDS}: the interval is unreliable")
    if n == 0:
        _nothing_to_pair(result, raw_a, raw_b)
        return result
    result["ratio"] = float(ESTIMATORS[estimator](a, b)) if paired else float(_median_ratio(a, b))
    result["estimator"] = estimator if paired else DEFAULT_ESTIMATOR
    result["p_value"] = float(sps.mannwhitneyu(a, b, alternative="two-sided").pvalue)
    if paired:
        result["round_ratios"] = [float(r) for r in _median_ratio(a[:, None], b[:, None])]
    if (a == 0).any() or (b == 0).any():
        warns.append("some values are zero: ratios against zero are 1 (0/0) or infinite")
    if n < MIN_INTERVAL_ROUNDS:
        warns.append(f"{n} round(s) cannot give an interval (at least {MIN_INTERVAL_ROUNDS} needed)")
    elif np.ptp(a) == 0 and np.ptp(b) == 0:
        warns.append("zero variance: every round gave the same value on each side, the interval is a point")
        result["interval"] = (result["ratio"], result["ratio"])
        result["interval_method"] = "exact"
    else:
        _bootstrap_interval(result, a, b, confidence, n_resamples, seed, paired)
    result["verdict"] = verdict(result["interval"], lower_is_better, delta)
    return result


def _nothing_to_pair(result: dict[str, Any], raw_a: FloatArray, raw_b: FloatArray) -> None:
    """compare()'s result when no pair is left: a side that reported values (a cache's hit ratio where the baseline
    has no cache) keeps its median, with a warning that there is nothing to compare; the verdict is inconclusive."""
    kept = {side: raw[~np.isnan(raw)] for side, raw in (("baseline", raw_a), ("candidate", raw_b))}
    result["median_a"], result["median_b"] = (float(np.median(v)) if v.size else math.nan for v in kept.values())
    present = [side for side, values in kept.items() if values.size]
    if len(present) == 1:
        result["warnings"].append(f"only the {present[0]} reports this metric: its median is shown, there is nothing to compare")
    result["verdict"] = "inconclusive"


def _bootstrap_interval(result: dict[str, Any], a: FloatArray, b: FloatArray, confidence: float, n_resamples: int,
                        seed: int, paired: bool) -> None:
    """compare()'s bootstrap interval of B/A (ratio_intervals with the result's estimator, seeded by `seed`) into its
    result: interval, interval_method ("BCa", or "percentile" when BCa was undefined) and a warning for a fallback or
    for no interval."""
    low, high, fell_back = ratio_intervals(a[None, :], b[None, :], confidence, n_resamples,
                                           np.random.default_rng(seed), paired, result["estimator"])
    result["interval"] = (float(low[0]), float(high[0]))
    result["interval_method"] = "percentile" if fell_back[0] else "BCa"
    if fell_back[0]:
        result["warnings"].append("degenerate bootstrap (ties or constant data): BCa undefined, percentile interval used")
    if math.isnan(low[0]) or math.isnan(high[0]):
        result["warnings"].append("no interval could be computed")


def needs_more_rounds(result: dict[str, Any]) -> bool:
    """True while compare()'s verdict is "inconclusive": the runner adds rounds up to its fixed cap."""
    inconclusive: bool = result["verdict"] == "inconclusive"
    return inconclusive


SIGNIFICANCE = 0.05  # the level a p-value column is read against


def smallest_mwu_p(n_a: int, n_b: int, tests: int = 1) -> float:
    """The smallest p the two-sided Mann-Whitney U test can give n_a values against n_b, every one of one side
    below every one of the other and no ties: 2 / C(n_a + n_b, n_a); times `tests` when Holm adjusts it among that
    many (its smallest adjusted value); at most 1. Three rounds a side can give 0.1 at best: never below 0.05."""
    if n_a < 1 or n_b < 1:
        return 1.0
    return min(1.0, tests * 2 / math.comb(n_a + n_b, n_a))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values, in the input order (statsmodels multipletests, method="holm").

    For the secondary metrics: compare each adjusted value with alpha. NaN p-values stay NaN and do not
    count in the number of tests.
    """
    p = np.asarray(p_values, dtype=float)
    out = np.full(p.shape, math.nan)
    ok = ~np.isnan(p)
    if ok.any():
        out[ok] = multipletests(p[ok], method="holm")[1]
    return [float(x) for x in out]


# --- JVM lifetimes as the unit (Kalibera and Jones, "Rigorous benchmarking in reasonable time", ISMM 2013) --------

def variance_components(values: Sequence[float], groups: Sequence[Any]) -> dict[str, Any]:
    """The two levels of a pilot's variance: one value per round (an A/A round's log A2/A1), grouped by the
    instance lifetime it ran in. Returns a dict: within (the pooled variance of rounds inside a lifetime, Kalibera
    and Jones' T1²), between (the variance of the lifetimes' own offsets: the variance of the lifetimes' means less
    what their rounds explain, within / rounds per lifetime, floored at 0: their S2²), lifetimes, per_lifetime (mean
    rounds in a lifetime), and `separable`: False when the pilot cannot tell the lifetimes' offsets from the rounds'
    noise (one lifetime, or a between-lifetime estimate at or below 0)."""
    x = np.asarray(values, dtype=float)
    g = np.asarray(groups)
    keep = np.isfinite(x)
    x, g = x[keep], g[keep]
    members = [x[g == k] for k in np.unique(g)]
    if sum(m.size - 1 for m in members) < 1:
        raise ValueError("variance_components needs a lifetime with at least 2 rounds")
    within = float(sum(((m - m.mean()) ** 2).sum() for m in members) / sum(m.size - 1 for m in members))
    per_lifetime = float(np.mean([m.size for m in members]))
    raw = float(np.var([m.mean() for m in members], ddof=1)) - within / per_lifetime if len(members) > 1 else 0.0
    return {"within": within, "between": max(0.0, raw), "lifetimes": len(members), "per_lifetime": per_lifetime,
            "rounds": int(x.size), "separable": len(members) > 1 and raw > 0}


def variance_inflation(components: dict[str, Any], confidence: float) -> tuple[float, int]:
    """How much larger than the pilot's estimate its design variance may be, at a one-sided `confidence` (e.g. 0.8):
    df / chi2.ppf(1 - confidence, df), the upper confidence bound of a variance estimated on df degrees of freedom
    (scipy.stats.chi2). The df are those of the level that carries the variance: the lifetimes' means (lifetimes - 1)
    when the pilot separates the lifetimes' offsets, else the rounds within lifetimes (rounds - lifetimes).
    Returns (inflation >= 1, df)."""
    df = components["lifetimes"] - 1 if components["separable"] else components["rounds"] - components["lifetimes"]
    if df < 1:
        raise ValueError("variance_inflation: the pilot has no degrees of freedom left for its variance")
    return float(df / sps.chi2.ppf(1 - confidence, df)), int(df)


def design_variance(components: dict[str, Any], lifetimes: float, per_lifetime: float) -> float:
    """The variance of the mean over `lifetimes` lifetimes of `per_lifetime` rounds each, for these components."""
    variance: float = (components["between"] + components["within"] / per_lifetime) / lifetimes
    return variance


def lifetimes_plan(components: dict[str, Any], pilot_floor: float, pilot_lifetimes: float, pilot_per_lifetime: float,
                   target: float, round_seconds: float, lifetime_seconds: float, min_lifetimes: int = 2,
                   max_per_lifetime: int = 40, max_lifetimes: int = 200) -> dict[str, Any]:
    """How many instance lifetimes, and rounds in each, bring the noise floor down to `target`.

    Rounds per lifetime: Kalibera and Jones' optimum, sqrt(c_L * within / (c_R * between)) (a lifetime costs c_L
    seconds to start and warm, a round c_R), the number that buys the most precision per second; with no between-
    lifetime variance the pilot could see, as many as the target needs up to `max_per_lifetime` (more lifetimes are
    still cheaper than a hidden instance effect: at least `min_lifetimes`).
    The floor is scaled from the pilot's own, calibrated one: a noise floor is a multiple of the standard error, so
    floor = pilot_floor * sqrt(design_variance(plan) / design_variance(pilot's analysis)). That keeps the
    estimator's efficiency and the tails of the real data, which a normal model would not.
    Returns a dict: lifetimes, per_lifetime, rounds, predicted_floor, seconds, reachable (within max_lifetimes)."""
    pilot_var = design_variance(components, pilot_lifetimes, pilot_per_lifetime)
    need = pilot_var * (target / pilot_floor) ** 2  # the design variance that gives the target floor
    between, within = components["between"], components["within"]

    def up(x: float) -> int:  # the next whole number, not one more for a rounding error
        return math.ceil(x - 1e-9)

    if between > 0:
        per = min(max_per_lifetime, max(1, up(math.sqrt(lifetime_seconds * within / (round_seconds * between)))))
        lifetimes = max(min_lifetimes, up((between + within / per) / need))
    else:
        per = min(max_per_lifetime, max(1, up(within / (need * min_lifetimes))))
        lifetimes = max(min_lifetimes, up(within / per / need))
    per = max(per, up(MIN_ROUNDS / lifetimes))  # fewer rounds than MIN_ROUNDS: an interval too rough to scale
    reachable = lifetimes <= max_lifetimes
    lifetimes = min(lifetimes, max_lifetimes)
    floor = pilot_floor * math.sqrt(design_variance(components, lifetimes, per) / pilot_var)
    return {"lifetimes": lifetimes, "per_lifetime": per, "rounds": lifetimes * per, "predicted_floor": floor,
            "seconds": lifetimes * (lifetime_seconds + per * round_seconds), "reachable": reachable, "target": target}


# --- steady state ----------------------------------------------------------------------------------------

def steady_state(series: Sequence[float], alpha: float = 0.05, max_change: float = 0.10,
                 times: Sequence[float] | None = None, min_points: int = 8) -> dict[str, Any]:
    """Whether one run's per-second values (e.g. p95 per second) reached a steady state.

    A run is NOT steady when its values trend through the measured window, e.g. latency still falling
    because the JIT is still compiling: both a significant monotonic trend against time (Kendall's tau,
    scipy.stats.kendalltau, p < alpha) and a practical one (the Theil-Sen line, scipy.stats.theilslopes,
    changes by more than `max_change` of the median over the window). Either alone is not enough: a long
    run makes a 1 % drift significant, and one slow second makes a short noisy run look like a trend.

    series: one value per time step (NaN steps are skipped); times: their times in seconds (default
    0, 1, 2, ...). Returns a dict: steady (bool), tested (False when fewer than `min_points` values: then
    steady is True by default), slope (per second), slope_interval (Theil-Sen, 1 - alpha), relative_change
    (fitted change over the window / median, signed), p_value, reason.
    """
    y = np.asarray(series, dtype=float)
    t = np.arange(y.size, dtype=float) if times is None else np.asarray(times, dtype=float)
    if t.size != y.size:
        raise ValueError(f"steady_state: {y.size} values but {t.size} times")
    keep = ~np.isnan(y)
    y, t = y[keep], t[keep]
    result = {"steady": True, "tested": False, "slope": math.nan, "slope_interval": (math.nan, math.nan),
              "relative_change": math.nan, "p_value": math.nan, "n": int(y.size)}
    if y.size < min_points:
        result["reason"] = f"not tested: {y.size} value(s), fewer than {min_points}"
        return result
    fit = sps.theilslopes(y, t, alpha=1 - alpha)
    tau = sps.kendalltau(t, y)
    median = float(np.median(y))
    change = fit.slope * (t[-1] - t[0])
    if median != 0:
        relative = change / abs(median)
    else:
        relative = 0.0 if change == 0 else math.copysign(math.inf, change)
    p = float(tau.pvalue) if not np.isnan(tau.pvalue) else 1.0
    trending = p < alpha and abs(relative) > max_change
    direction = "falling" if relative < 0 else "rising"
    if trending:
        reason = (f"{direction} by {100 * abs(relative):.0f} % of the median over the window "
                  f"(Kendall p = {p:.2g}): not steady, lengthen the warm-up")
    elif p < alpha:
        reason = f"{direction} by {100 * abs(relative):.1f} %, within {100 * max_change:.0f} %: steady"
    else:
        reason = f"no significant trend (Kendall p = {p:.2g}): steady"
    result.update({"steady": not trending, "tested": True, "slope": float(fit.slope),
                   "slope_interval": (float(fit.low_slope), float(fit.high_slope)),
                   "relative_change": float(relative), "p_value": p, "reason": reason})
    return result

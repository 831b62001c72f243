"""The A/A calibration and the power check, on tooling/perflab/analyse/stats.py's compare(): how large an effect this machine can tell
from noise (calibrate: the noise floor, δ and the false-positive rate, from an A/A run) and how often a known effect
is found (power, from a run whose candidate carries a planted one).

The A/A pool: the pairs (a1_i, a2_i), with a2 first scaled so that both sides have the same median.
A systematic A1/A2 difference is a finding about the runner (it shows in `observed`), not noise: left
in, it would inflate the noise floor and so hide itself.

Resampled A/A analyses: each analysis takes `rounds` pairs from the pool, without replacement when
the pool has at least `rounds` pairs (with replacement, and a warning, when it is smaller), and swaps
the two values of each pair with probability 1/2, then computes the interval of the ratio of medians
as compare() does. Whole pairs keep what the two runs of a round share (drift, a noisy neighbour). The
random swap makes the null hypothesis exactly true (A1 and A2 exchangeable; with a pool of exactly
`rounds` pairs this is the permutation distribution). Drawing without replacement keeps as many
distinct rounds as a real run has: drawing with replacement adds ties, which make BCa degenerate and
inflate the noise floor (about +15 % at 10 rounds).

noise_floor: the 95th percentile, over `analyses` analyses, of how far the interval reaches from 1,
stats.reach: max(1 / low - 1, high - 1), the margin's own multiplicative scale. That is the smallest effect this
machine can tell apart from noise with `rounds` rounds: 95 % of A/A intervals stay inside stats.margins(noise_floor),
[1 / (1 + noise_floor), 1 + noise_floor], so with delta >= noise_floor
an A/A comparison says "no difference" about 95 % of the time, and only a change whose interval
clears it is evidence. (The 95th percentile of |ratio - 1| alone would be about half as large and
leave A/A verdicts "inconclusive" because the interval's own half-width is ignored.) For normal noise
of relative sd sigma per run and 10 rounds it is about 2.2 sigma (about 4 standard errors of the
ratio of medians); it shrinks like 1 / sqrt(rounds).

false_positive_rate: the share of ANOTHER `analyses` analyses, drawn independently of those that set
the noise floor, whose verdict at delta = max(min_delta, noise_floor) is "better" or "worse". A false
positive needs the whole interval beyond delta, so the rate is at most about 5 % when delta is the
noise floor; the measurement shows how far below it is and catches a broken interval, and when
min_delta dominates (a quiet machine) it measures the rate at min_delta.

lifetimes: per round, the instance lifetime both runs of the round belong to (the runner restarts the
apps every `restart_every` rounds), or None. Rounds of one lifetime are not independent: two JVMs of the
same build differ (JIT decisions, code layout), and each keeps its difference for its whole lifetime. The
wallet A/A measured it (commit 67fb863): per-lifetime A2/A1 ratios of p95 1.18, 1.03, 0.97 and 1.17
cross-zone, far wider than the rounds within a lifetime. An A/B compares two instances as well, so with
two or more lifetimes the floor must include that: an analysis then swaps whole lifetimes, and a2 is not
centred (its offset is the instance noise itself; a bias of the runner still shows in `observed`), and an
analysis takes whole lifetimes, as many rounds as an A/B of `rounds` has. With one lifetime the floor
cannot see instance noise, and a warning says so.
"""
from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy import stats as sps

from perflab.analyse.stats import (DEFAULT_ESTIMATOR, DEFAULT_SEED, ESTIMATORS, MIN_DELTA, MIN_INTERVAL_ROUNDS, MIN_ROUNDS, BoolArray,
                   FloatArray, IntArray, compare, drop_missing, ratio_intervals, reach, verdict)


def _draw(rng: np.random.Generator, pool: int, rounds: int, analyses: int, without_replacement: bool) -> IntArray:
    """Indices of `analyses` draws of `rounds` from `pool` pairs: without replacement (each row distinct pairs), or
    with replacement."""
    if without_replacement:
        return np.argsort(rng.random((analyses, pool)), axis=1)[:, :rounds]
    return rng.integers(0, pool, size=(analyses, rounds))
def _null_intervals(x: FloatArray, y: FloatArray, rounds: int, analyses: int, rng: np.random.Generator,
                    confidence: float, n_resamples: int, groups: IntArray | None = None,
                    estimator: str = DEFAULT_ESTIMATOR) -> tuple[FloatArray, FloatArray, BoolArray]:
    """Intervals of `analyses` resampled A/A analyses of `rounds` pairs each (see calibrate()).

    groups: per pair, the index 0..k-1 of its instance lifetime, or None. With groups an analysis is built as an
    A/B run is: whole lifetimes in a random order, their rounds until there are `rounds`, and the two sides of
    a lifetime swapped together.
    Returns (low, high, fell_back); a row whose two sides are both constant gets its exact point interval.
    """
    if groups is not None and x.size >= rounds:
        members = [np.flatnonzero(groups == g) for g in range(int(groups.max()) + 1)]
        idx = np.array([np.concatenate([members[g] for g in rng.permutation(len(members))])[:rounds]
                        for _ in range(analyses)])
    else:
        idx = _draw(rng, x.size, rounds, analyses, x.size >= rounds)
    if groups is None:
        swap = rng.random((analyses, rounds)) < 0.5
    else:
        swap = np.take_along_axis(rng.random((analyses, int(groups.max()) + 1)) < 0.5, groups[idx], axis=1)
    ra = np.where(swap, y[idx], x[idx])
    rb = np.where(swap, x[idx], y[idx])
    low, high, fell_back = ratio_intervals(ra, rb, confidence, n_resamples, rng, True, estimator)
    constant = (np.ptp(ra, axis=1) == 0) & (np.ptp(rb, axis=1) == 0)
    point = ESTIMATORS[estimator](ra, rb)
    return np.where(constant, point, low), np.where(constant, point, high), fell_back & ~constant


def _aa_pool(a1: Sequence[float], a2: Sequence[float], rounds: int, lifetimes: Sequence[Any] | None, estimator: str,
             warns: list[str]) -> tuple[FloatArray, FloatArray, FloatArray, IntArray | None]:
    """calibrate's A/A pool: (x, y, y centred on x's level unless lifetimes are swapped whole, the lifetime groups
    or None), with a warning for a pool too small to be more than rough."""
    groups = _lifetime_groups(a1, a2, lifetimes, warns)
    x, y = drop_missing(a1, a2, True, warns)
    if x.size < 2:
        raise ValueError(f"calibrate needs at least 2 A/A rounds with values, got {x.size}")
    if x.size < MIN_ROUNDS:
        warns.append(f"only {x.size} A/A round(s), fewer than {MIN_ROUNDS}: the noise floor is rough")
    if x.size < rounds:
        warns.append(f"A/A pool of {x.size} rounds is smaller than {rounds}: drawn with replacement")
    if groups is not None:
        return x, y, y, groups
    level = float(ESTIMATORS[estimator](x, y))  # B/A of the uncentred rounds
    return x, y, (y / level if np.isfinite(level) and level > 0 else y), None


def calibrate(a1: Sequence[float], a2: Sequence[float], rounds: int, lower_is_better: bool = True, analyses: int = 200,
              seed: int = DEFAULT_SEED, confidence: float = 0.95, min_delta: float = MIN_DELTA,
              n_resamples: int = 1999, lifetimes: Sequence[Any] | None = None,
              estimator: str = DEFAULT_ESTIMATOR) -> dict[str, Any]:
    """Noise floor, delta and false-positive rate of compare() on this machine, from an A/A run (the method: this
    module's docstring).

    a1, a2: per-round values of the SAME variant run twice in the same balanced schedule (A against A),
    paired by round index. `rounds` is the number of rounds an A/B run will use. n_resamples: bootstrap
    resamples per analysis (fewer than compare()'s 9999 to keep 2 x `analyses` intervals quick). lifetimes: per
    round, the instance lifetime both runs of the round belong to, or None.

    Returns a dict: noise_floor, median_half_width (typical (high - low) / 2), delta, rounds, analyses,
    the false-positive rate's keys (_false_positive_rate), interval_miss_rate (share of the FPR analyses whose
    interval excludes 1: checks the interval's claimed confidence, nominally 1 - confidence; BCa on a median of 10
    rounds misses somewhat more often), degenerate_analyses (BCa fell back to percentile, over both sets of
    analyses), observed (compare(a1, a2) on the real, uncentred A/A rounds at that delta: the A/A verdict to
    report), estimator, lifetimes and warnings.
    """
    if analyses < 20:
        raise ValueError(f"calibrate needs at least 20 analyses, got {analyses}")
    if rounds < MIN_INTERVAL_ROUNDS:
        raise ValueError(f"calibrate needs at least {MIN_INTERVAL_ROUNDS} rounds, got {rounds}")
    warns: list[str] = []
    x, y, centred, groups = _aa_pool(a1, a2, rounds, lifetimes, estimator, warns)
    rng = np.random.default_rng(seed)
    low, high, fell_back = _null_intervals(x, centred, rounds, analyses, rng, confidence, n_resamples, groups, estimator)
    valid = ~(np.isnan(low) | np.isnan(high))
    if not valid.any():
        raise ValueError("calibrate: no A/A analysis gave an interval (all values zero or NaN?)")
    noise_floor = float(np.percentile(reach(low[valid], high[valid]), 95))
    delta = max(min_delta, noise_floor)
    low2, high2, fell_back2 = _null_intervals(x, centred, rounds, analyses, rng, confidence, n_resamples, groups, estimator)
    verdicts = [verdict((lo, hi), lower_is_better, delta) for lo, hi in zip(low2, high2)]
    without = int((~valid).sum()) + int((np.isnan(low2) | np.isnan(high2)).sum())
    if without:
        warns.append(f"{without} analyses gave no interval (counted as inconclusive)")
    return {"noise_floor": noise_floor,
            "median_half_width": float(np.median((high[valid] - low[valid]) / 2)),
            "delta": delta, "rounds": rounds, "analyses": analyses, **_false_positive_rate(verdicts, analyses),
            "interval_miss_rate": float(np.mean((low2 > 1) | (high2 < 1))),
            "degenerate_analyses": int(fell_back.sum() + fell_back2.sum()),
            "observed": compare(x, y, lower_is_better, delta=delta, confidence=confidence, seed=seed, estimator=estimator),
            "estimator": estimator, "lifetimes": 0 if groups is None else int(groups.max()) + 1,
            "warnings": warns}


def _false_positive_rate(verdicts: list[str], analyses: int) -> dict[str, Any]:
    """calibrate's false positives among the verdicts of its second set of analyses: false_positives,
    false_positive_rate, fpr_interval (exact binomial 95 % interval, scipy.stats.binomtest(...).proportion_ci()),
    fpr_ok (rate <= 5 %), fpr_text ("FPR 0/200 = 0.0 % (<= 5 %)") and no_difference_rate (share of the analyses
    saying "no difference")."""
    false_positives = sum(v in ("better", "worse") for v in verdicts)
    rate = false_positives / analyses
    ci = sps.binomtest(false_positives, analyses).proportion_ci(confidence_level=0.95)
    ok = rate <= 0.05
    return {"false_positives": false_positives, "false_positive_rate": rate,
            "fpr_interval": (float(ci.low), float(ci.high)), "fpr_ok": ok,
            "fpr_text": f"FPR {false_positives}/{analyses} = {100 * rate:.1f} % ({'<=' if ok else '>'} 5 %)",
            "no_difference_rate": verdicts.count("no difference") / analyses}


def power(a: Sequence[float], b: Sequence[float], rounds: int, lower_is_better: bool = True, delta: float = MIN_DELTA,
          expect: str = "worse", analyses: int = 200, seed: int = DEFAULT_SEED, confidence: float = 0.95,
          n_resamples: int = 1999, estimator: str = DEFAULT_ESTIMATOR) -> dict[str, Any]:
    """How often compare() finds a known effect: the share of `analyses` analyses of `rounds` pairs, drawn from a run
    whose candidate carries a planted effect (b against a, paired by round), whose verdict at `delta` is `expect`.

    Each analysis draws `rounds` of the run's pairs without replacement when the run has more than `rounds` pairs
    (subsamples of one longer run), with replacement otherwise (a bootstrap of the run, whose ties make BCa fall back to
    the percentile interval more often). The power check asks for at least 0.8: a planted 5 % slowdown called "worse"
    in 8 of 10 runs. Returns a dict: power, hits, analyses, rounds, pool (pairs in the run), drawn ("subsample" or
    "bootstrap"), observed (compare() on the whole run), warnings.
    """
    warns: list[str] = []
    x, y = drop_missing(a, b, True, warns)
    if x.size < MIN_INTERVAL_ROUNDS:
        raise ValueError(f"power needs at least {MIN_INTERVAL_ROUNDS} rounds with values, got {x.size}")
    rng = np.random.default_rng(seed)
    drawn = "subsample" if x.size > rounds else "bootstrap"
    idx = _draw(rng, x.size, rounds, analyses, drawn == "subsample")
    if drawn == "bootstrap":
        warns.append(f"a run of {x.size} rounds resampled with replacement: run more rounds than {rounds} to subsample")
    low, high, _ = ratio_intervals(x[idx], y[idx], confidence, n_resamples, rng, True, estimator)
    hits = sum(verdict((lo, hi), lower_is_better, delta) == expect for lo, hi in zip(low, high))
    return {"power": hits / analyses, "hits": int(hits), "analyses": analyses, "rounds": rounds, "pool": int(x.size),
            "drawn": drawn, "expect": expect, "delta": delta,
            "observed": compare(x, y, lower_is_better, delta=delta, confidence=confidence, seed=seed, estimator=estimator),
            "estimator": estimator, "warnings": warns}


def _lifetime_groups(a1: Sequence[float], a2: Sequence[float], lifetimes: Sequence[Any] | None,
                     warns: list[str]) -> IntArray | None:
    """The lifetime index 0..k-1 of each round that has values on both sides, or None (and a warning when
    lifetimes were given but there is only one: the floor then leaves instance-to-instance noise out)."""
    if lifetimes is None:
        return None
    a, b = np.asarray(a1, dtype=float), np.asarray(a2, dtype=float)
    if len(lifetimes) != a.size:
        raise ValueError(f"lifetimes needs one entry per round, got {len(lifetimes)} for {a.size} rounds")
    keep = ~(np.isnan(a) | np.isnan(b)) if a.size == b.size else np.ones(a.size, bool)
    groups = np.unique(np.asarray(lifetimes)[keep], return_inverse=True)[1]
    if groups.size == 0 or groups.max() == 0:
        warns.append("one instance lifetime: the noise floor leaves out how much two instances differ")
        return None
    return groups


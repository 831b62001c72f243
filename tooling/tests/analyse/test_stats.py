"""Unit tests for tooling/perflab/analyse/stats.py with known inputs: scipy's documented examples, hand-computed values, and
synthetic data from fixed seeds. Run: .perflab/venv/bin/python -m pytest tooling/tests/analyse/test_stats.py"""
import math

import numpy as np
import pytest
from scipy import stats as sps

from perflab.analyse import stats
from perflab.analyse import stats_calibration


def noisy(rng, level, sigma, n):
    """n per-round values around `level` with relative normal noise sigma (positive for sigma <= 10 %)."""
    return level * (1 + sigma * rng.standard_normal(n))


# --- summarize / percentile ------------------------------------------------------------------------------

def test_summarize_uses_numpy_linear_percentiles():
    s = stats.summarize([10, 1, 9, 2, 8, 3, 7, 4, 6, 5])
    assert s["p50"] == 5.5
    assert s["p90"] == pytest.approx(9.1)
    assert s["p95"] == pytest.approx(9.55)
    assert s["p99"] == pytest.approx(9.91)
    assert s["avg"] == 5.5
    assert s["max"] == 10
    assert all(isinstance(v, float) for v in s.values())


def test_summarize_of_nothing_is_nan():
    s = stats.summarize([])
    assert set(s) == {"avg", "p50", "p90", "p95", "p99", "max"}
    assert all(math.isnan(v) for v in s.values())


def test_percentile_single_and_empty():
    assert stats.percentile([42], 99) == 42
    assert stats.percentile([1, 2, 3, 4], 50) == 2.5
    assert math.isnan(stats.percentile([], 50))


# --- schedule --------------------------------------------------------------------------------------------

def test_schedule_for_two_is_abba():
    assert stats.schedule(["A", "B"], 4) == ["A", "B", "B", "A", "A", "B", "B", "A"]


def test_restart_due_every_two_blocks_of_two_labels():
    due = [p for p in range(12) if stats.restart_due(p, 2, 2)]
    assert due == [4, 8]


def test_restart_due_never_when_zero_and_rejects_negative():
    assert not any(stats.restart_due(p, 2, 0) for p in range(40))
    with pytest.raises(ValueError):
        stats.restart_due(4, 2, -1)


def test_start_order_alternates_by_lifetime():
    assert stats.start_order(["A", "B", "C"], 0) == ["A", "B", "C"]
    assert stats.start_order(["A", "B", "C"], 1) == ["C", "B", "A"]
    assert stats.start_order(["A", "B", "C"], 2) == ["A", "B", "C"]


def test_schedule_for_three_alternates_forward_and_reversed_blocks():
    assert stats.schedule(["x", "y", "z"], 3) == ["x", "y", "z", "z", "y", "x", "x", "y", "z"]


@pytest.mark.parametrize("labels", [["A", "B"], ["A", "B", "C"], ["a", "b", "c", "d"]])
def test_schedule_is_balanced_so_linear_drift_cancels(labels):
    order = stats.schedule(labels, 10)
    assert len(order) == 10 * len(labels)
    for label in labels:
        positions = [i for i, x in enumerate(order) if x == label]
        assert len(positions) == 10
        assert sum(p % 2 == 0 for p in positions) == 5, "as often at even as at odd positions"
        # same mean position for every label: a drift linear in time adds the same to each
        assert np.mean(positions) == pytest.approx((len(order) - 1) / 2)


def test_schedule_rejects_bad_input():
    with pytest.raises(ValueError):
        stats.schedule([], 3)
    with pytest.raises(ValueError):
        stats.schedule(["A", "A"], 3)
    with pytest.raises(ValueError):
        stats.schedule(["A", "B"], 0)


# --- compare: scipy's documented example and hand-computed values ----------------------------------------

MALES = [19, 22, 16, 29, 24]  # scipy.stats.mannwhitneyu docstring example
FEMALES = [20, 11, 17, 12]


def test_p_value_reproduces_the_mannwhitneyu_documented_example():
    r = stats.compare(MALES, FEMALES, lower_is_better=True, paired=False)
    assert r["p_value"] == pytest.approx(0.1111111111111111)  # documented exact two-sided p
    assert (r["n_a"], r["n_b"], r["n"]) == (5, 4, 4)
    assert r["median_a"] == 22 and r["median_b"] == 14.5
    assert r["ratio"] == pytest.approx(14.5 / 22)
    # Hodges-Lehmann by hand: the 20 differences female - male, sorted, have -7 and -7 in the middle
    assert r["hl_shift"] == -7.0
    assert r["round_ratios"] == []
    assert any("fewer than 10" in w for w in r["warnings"])


def test_hodges_lehmann_recovers_a_pure_shift():
    a = [10.0, 13.0, 11.0, 17.0, 12.0]
    b = [x + 5 for x in a]
    assert stats.hodges_lehmann(a, b) == 5.0
    assert stats.compare(a, [2 * x for x in a], True)["hl_ratio"] == pytest.approx(2.0)


def test_hl_ratio_is_none_when_a_value_is_not_positive():
    assert stats.compare([0.0, 1.0, 2.0], [1.0, 1.0, 2.0], True)["hl_ratio"] is None


def test_identical_samples_are_no_difference():
    values = [101.0, 97.0, 103.0, 99.0, 100.0, 98.0, 102.0, 104.0, 96.0, 100.5]
    r = stats.compare(values, list(values), lower_is_better=True)
    assert r["verdict"] == "no difference"
    assert r["ratio"] == 1.0
    assert r["interval"] == (1.0, 1.0)
    assert r["p_value"] == 1.0 and r["hl_shift"] == 0.0
    assert not stats.needs_more_rounds(r)


def test_same_distribution_with_low_noise_is_no_difference():
    rng = np.random.default_rng(1)
    r = stats.compare(noisy(rng, 100, 0.01, 20), noisy(rng, 100, 0.01, 20), lower_is_better=True)
    assert r["verdict"] == "no difference"
    assert r["interval_method"] == "BCa"
    low, high = r["interval"]
    assert 0.97 <= low < 1 < high <= 1.03
    assert r["warnings"] == []


def test_a_clear_20_percent_drop_is_better_for_latency_and_worse_for_throughput():
    rng = np.random.default_rng(2)
    a = noisy(rng, 100, 0.02, 10)
    b = noisy(rng, 80, 0.02, 10)
    latency = stats.compare(a, b, lower_is_better=True)
    assert latency["verdict"] == "better"
    assert latency["interval"][1] < 0.97
    assert latency["ratio"] == pytest.approx(0.8, abs=0.03)
    assert latency["interval"][0] <= latency["ratio"] <= latency["interval"][1]
    assert latency["p_value"] < 0.001
    assert latency["hl_shift"] < -15
    assert len(latency["round_ratios"]) == 10
    assert stats.compare(a, b, lower_is_better=False)["verdict"] == "worse"


def test_a_clear_20_percent_rise_is_worse_for_latency():
    rng = np.random.default_rng(3)
    r = stats.compare(noisy(rng, 100, 0.02, 10), noisy(rng, 120, 0.02, 10), lower_is_better=True)
    assert r["verdict"] == "worse"
    assert r["interval"][0] > 1.03


def test_wide_noise_with_few_rounds_is_inconclusive():
    rng = np.random.default_rng(4)
    a = 100 * rng.lognormal(0, 0.4, 4)
    b = 100 * rng.lognormal(0, 0.4, 4)
    r = stats.compare(a, b, lower_is_better=True)
    assert r["verdict"] == "inconclusive"
    assert stats.needs_more_rounds(r)
    assert any("fewer than 10" in w for w in r["warnings"])


def test_zero_variance_is_handled_with_a_warning():
    same = stats.compare([5.0] * 10, [5.0] * 10, lower_is_better=True)
    assert same["verdict"] == "no difference"
    assert same["interval"] == (1.0, 1.0)
    assert any("zero variance" in w for w in same["warnings"])
    slower = stats.compare([5.0] * 10, [6.0] * 10, lower_is_better=True)
    assert slower["verdict"] == "worse"
    assert slower["interval"] == (pytest.approx(1.2), pytest.approx(1.2))


def test_ties_make_bca_degenerate_and_fall_back_to_percentile():
    a = [1.0, 2, 2, 2, 2, 2, 2, 2, 2, 3]
    r = stats.compare(a, [x * 1.5 for x in a], lower_is_better=True)
    assert r["interval_method"] == "percentile"
    assert any("percentile" in w for w in r["warnings"])
    assert r["interval"] == (pytest.approx(1.5), pytest.approx(1.5))
    assert r["verdict"] == "worse"


def test_zero_values_are_reported_and_do_not_crash():
    both_zero = stats.compare([0.0] * 10, [0.0] * 10, lower_is_better=True)
    assert both_zero["ratio"] == 1.0 and both_zero["verdict"] == "no difference"
    assert any("zero" in w for w in both_zero["warnings"])
    errors_appear = stats.compare([0.0] * 10, [0.01, 0.02] * 5, lower_is_better=True)
    assert errors_appear["ratio"] == math.inf
    assert errors_appear["verdict"] == "worse"


def test_rounds_without_a_value_are_dropped_pairwise():
    rng = np.random.default_rng(5)
    a, b = list(noisy(rng, 100, 0.01, 12)), list(noisy(rng, 100, 0.01, 12))
    a[3], b[7] = math.nan, math.nan
    r = stats.compare(a, b, lower_is_better=True)
    assert r["n"] == 10
    assert any("dropped" in w for w in r["warnings"])


def test_paired_comparison_needs_equal_lengths():
    with pytest.raises(ValueError, match="one value per round"):
        stats.compare([1.0, 2.0, 3.0], [1.0, 2.0], lower_is_better=True)


def test_no_data_is_inconclusive():
    r = stats.compare([], [], lower_is_better=True)
    assert r["verdict"] == "inconclusive" and r["n"] == 0 and math.isnan(r["ratio"])


@pytest.mark.parametrize("a,b", [([100.0], [50.0]), ([100.0, 101.0], [50.0, 51.0]), ([7.0, 7.0], [3.0, 3.0])])
def test_fewer_than_three_rounds_are_inconclusive_however_large_the_change(a, b):
    r = stats.compare(a, b, lower_is_better=True)
    assert r["ratio"] == pytest.approx(0.5, abs=0.08)
    assert r["verdict"] == "inconclusive" and r["interval_method"] == "none"
    assert any("cannot give an interval" in w for w in r["warnings"])


def test_compare_is_deterministic_for_a_seed():
    rng = np.random.default_rng(6)
    a, b = noisy(rng, 100, 0.05, 10), noisy(rng, 95, 0.05, 10)
    assert stats.compare(a, b, True, seed=9)["interval"] == stats.compare(a, b, True, seed=9)["interval"]
    assert stats.compare(a, b, True, seed=9)["interval"] != stats.compare(a, b, True, seed=10)["interval"]


def test_bca_interval_covers_the_true_ratio_about_95_percent_of_the_time():
    # scipy's bootstrap docs show coverage (88/100, 93/100 at 90 %) from an unseeded generator, so their
    # printed intervals cannot be reproduced; this checks the same property for our statistic instead.
    rng = np.random.default_rng(7)
    trials, covered = 200, 0
    for i in range(trials):
        a = 100 * rng.lognormal(0, 0.1, 20)
        b = 125 * rng.lognormal(0, 0.1, 20)
        low, high = stats.compare(a, b, True, seed=i, n_resamples=999)["interval"]
        covered += low < 1.25 < high
    assert 0.88 <= covered / trials <= 0.99


@pytest.mark.parametrize("interval,lower_is_better,expected", [
    ((0.40, 0.60), True, "better"),
    ((1.10, 1.40), True, "worse"),
    ((0.98, 1.02), True, "no difference"),
    ((0.971, 1.03), True, "no difference"),
    ((0.97, 1.03), True, "inconclusive"),
    ((0.90, 1.05), True, "inconclusive"),
    ((0.95, 0.99), True, "inconclusive"),
    ((1.50, 2.00), False, "better"),
    ((0.50, 0.80), False, "worse"),
    ((math.nan, math.nan), True, "inconclusive"),
])
def test_verdict_needs_the_whole_interval_on_one_side_of_delta(interval, lower_is_better, expected):
    assert stats.verdict(interval, lower_is_better, delta=0.03) == expected


def test_verdict_uses_the_given_delta():
    assert stats.verdict((0.90, 0.95), True, delta=0.03) == "better"
    assert stats.verdict((0.92, 0.95), True, delta=0.10) == "no difference"


def test_a_margin_past_100_percent_still_lets_a_large_reduction_be_better():
    # an A/A noise floor of 1,063 % (the wallet's cached stage at the edge of its CPU share): a twentyfold reduction
    # still clears it, and a 2x one is within it; an additive 1 - delta would be below 0 and call neither better
    assert stats.verdict((0.04, 0.06), True, delta=10.63) == "better"
    assert stats.verdict((0.45, 0.55), True, delta=10.63) == "no difference"
    assert stats.verdict((12.5, 14.0), True, delta=10.63) == "worse"


def test_the_margin_is_as_wide_either_way_on_a_log_scale_and_reach_inverts_it():
    low, high = stats.margins(0.25)
    assert low == pytest.approx(1 / high) and high == 1.25
    assert stats.reach(*stats.margins(0.4)) == pytest.approx(0.4)
    assert stats.reach(0.5, 1.1) == pytest.approx(1.0), "halving reaches as far as doubling"


# --- Holm ------------------------------------------------------------------------------------------------

def test_holm_matches_a_hand_computed_example():
    # sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> max(0.06, 0.04) = 0.06
    assert stats.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_holm_caps_at_one_and_keeps_nan():
    adjusted = stats.holm([0.5, math.nan, 0.4])
    assert adjusted[0] == pytest.approx(0.8) and adjusted[2] == pytest.approx(0.8)
    assert math.isnan(adjusted[1])
    assert stats.holm([0.9, 0.8]) == [1.0, 1.0]
    assert stats.holm([]) == []


# --- A/A calibration -------------------------------------------------------------------------------------

def reference_noise_floor(sigma, rounds, experiments=150, seed=11):
    """95th percentile of how far compare()'s interval reaches from 1 over FRESH null experiments."""
    rng = np.random.default_rng(seed)
    reach = []
    for i in range(experiments):
        low, high = stats.compare(noisy(rng, 100, sigma, rounds), noisy(rng, 100, sigma, rounds), True,
                                  seed=i, n_resamples=499)["interval"]
        reach.append(max(1 / low - 1, high - 1))
    return float(np.percentile(reach, 95))


def test_calibrate_on_null_data_has_a_low_false_positive_rate():
    rng = np.random.default_rng(12)
    c = stats_calibration.calibrate(noisy(rng, 100, 0.05, 30), noisy(rng, 100, 0.05, 30), rounds=10, seed=1)
    assert c["analyses"] == 200
    assert c["false_positive_rate"] <= 0.05 and c["fpr_ok"]
    assert c["false_positive_rate"] == c["false_positives"] / 200
    low, high = c["fpr_interval"]
    assert low <= c["false_positive_rate"] <= high < 0.05
    assert c["fpr_text"] == f"FPR {c['false_positives']}/200 = {100 * c['false_positive_rate']:.1f} % (<= 5 %)"
    assert c["delta"] == max(0.03, c["noise_floor"])
    assert c["no_difference_rate"] >= 0.9
    assert 0.01 <= c["interval_miss_rate"] <= 0.15, "a 95 % interval misses 1 about 5 % of the time under the null"
    assert c["observed"]["verdict"] == "no difference"


def test_noise_floor_matches_fresh_null_experiments_and_scales_with_the_noise():
    rng = np.random.default_rng(13)
    z1, z2 = rng.standard_normal(30), rng.standard_normal(30)  # the same draws at both noise levels
    floors = {sigma: stats_calibration.calibrate(100 * (1 + sigma * z1), 100 * (1 + sigma * z2), rounds=10, analyses=100,
                                     seed=2)["noise_floor"] for sigma in (0.02, 0.05)}
    reference = reference_noise_floor(0.05, 10)
    # one pool of 30 A/A rounds and a 95th percentile of 100 analyses: over seeds 0-9 the ratio to the
    # fresh-experiment reference spans 0.77-1.09, hence the tolerance
    assert 0.65 <= floors[0.05] / reference <= 1.35
    assert 1.5 <= floors[0.05] / 0.05 <= 2.8, "about 2.2 sigma at 10 rounds"
    assert 2.2 <= floors[0.05] / floors[0.02] <= 2.8, "proportional to the noise (2.5x)"


def test_quiet_machine_gets_the_minimum_delta():
    rng = np.random.default_rng(14)
    c = stats_calibration.calibrate(noisy(rng, 100, 0.002, 10), noisy(rng, 100, 0.002, 10), rounds=10, analyses=50)
    assert c["noise_floor"] < 0.03
    assert c["delta"] == 0.03
    assert c["false_positives"] == 0


def test_a_systematic_aa_difference_shows_in_observed_not_in_the_noise_floor():
    rng = np.random.default_rng(15)
    a1 = noisy(rng, 100, 0.01, 20)
    a2 = a1 * 1.25 + rng.standard_normal(20) * 0.5
    c = stats_calibration.calibrate(a1, a2, rounds=10, analyses=50)
    assert c["observed"]["verdict"] == "worse"
    assert c["noise_floor"] < 0.03, "the 25 % shift is centred out, not counted as noise"
    assert c["false_positive_rate"] <= 0.05


def test_calibrate_rejects_too_few_analyses_and_warns_on_a_small_pool():
    with pytest.raises(ValueError, match="20 analyses"):
        stats_calibration.calibrate([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], rounds=3, analyses=10)
    rng = np.random.default_rng(16)
    c = stats_calibration.calibrate(noisy(rng, 100, 0.02, 6), noisy(rng, 100, 0.02, 6), rounds=10, analyses=20)
    assert any("with replacement" in w for w in c["warnings"])
    assert any("fewer than 10" in w for w in c["warnings"])


# --- steady state ----------------------------------------------------------------------------------------

def test_a_decaying_series_is_not_steady():
    rng = np.random.default_rng(20)
    t = np.arange(60)
    series = 40 + 60 * np.exp(-t / 15) + rng.normal(0, 2, 60)  # JIT still compiling: p95 falling
    r = stats.steady_state(series)
    assert r["tested"] and not r["steady"]
    assert r["relative_change"] < -0.10
    assert r["slope"] < 0 and r["slope_interval"][1] < 0
    assert r["p_value"] < 0.05
    assert "falling" in r["reason"]


def test_a_flat_noisy_series_is_steady():
    rng = np.random.default_rng(21)
    r = stats.steady_state(50 + rng.normal(0, 5, 60))
    assert r["tested"] and r["steady"]
    assert abs(r["relative_change"]) < 0.10
    assert r["slope_interval"][0] < 0 < r["slope_interval"][1]


def test_a_significant_but_small_drift_is_steady():
    rng = np.random.default_rng(22)
    r = stats.steady_state(50 + 0.03 * np.arange(120) + rng.normal(0, 0.5, 120))  # +3.6 over a median ~52: 7 %
    assert r["p_value"] < 0.05
    assert 0 < r["relative_change"] < 0.10
    assert r["steady"] and "within" in r["reason"]


def test_a_rising_series_is_not_steady():
    r = stats.steady_state([10, 11, 12, 14, 15, 17, 18, 20, 22, 25])
    assert not r["steady"] and "rising" in r["reason"]


def test_steady_state_skips_nan_seconds_and_does_not_judge_short_series():
    short = stats.steady_state([100, 50, 20, math.nan])
    assert short["steady"] and not short["tested"] and short["n"] == 3
    gaps = stats.steady_state([100, math.nan, 80, 70, 60, 50, math.nan, 40, 35, 30, 28, 25],
                              times=list(range(12)))
    assert gaps["n"] == 10 and not gaps["steady"]


def test_a_metric_only_the_candidate_has_shows_its_median_and_stays_inconclusive():
    nan = float("nan")
    r = stats.compare([nan] * 4, [1.0, 1.0, 0.98, 1.0], lower_is_better=False)
    assert math.isnan(r["median_a"]) and r["median_b"] == 1.0
    assert r["verdict"] == "inconclusive" and r["n"] == 0
    assert any("only the candidate reports this metric" in w for w in r["warnings"])


def aa_with_instance_effects(rng, lifetimes, per_lifetime, instance_sd, round_sd):
    """Two copies of one build over several instance lifetimes: each instance keeps its own offset for its whole
    lifetime (instance_sd), and its rounds vary around it (round_sd)."""
    a1, a2, ids = [], [], []
    for life in range(lifetimes):
        o1, o2 = 1 + instance_sd * rng.standard_normal(2)
        a1 += list(100 * o1 * (1 + round_sd * rng.standard_normal(per_lifetime)))
        a2 += list(100 * o2 * (1 + round_sd * rng.standard_normal(per_lifetime)))
        ids += [life] * per_lifetime
    return np.array(a1), np.array(a2), ids


def test_the_noise_floor_includes_how_much_two_instances_differ():
    # a pool of 8 lifetimes of 5 rounds, each instance off by 8 % (sd) for its lifetime, rounds by 2 %
    rng = np.random.default_rng(19)
    a1, a2, ids = aa_with_instance_effects(rng, lifetimes=8, per_lifetime=5, instance_sd=0.08, round_sd=0.02)
    by_round = stats_calibration.calibrate(a1, a2, rounds=10, analyses=100)
    by_lifetime = stats_calibration.calibrate(a1, a2, rounds=10, analyses=100, lifetimes=ids)
    assert by_round["lifetimes"] == 0 and by_lifetime["lifetimes"] == 8
    assert by_lifetime["false_positive_rate"] <= 0.05
    # fresh A/A runs shaped as an A/B of 10 rounds is (two lifetimes of 5): how often their interval reaches past
    # each floor; a floor is meant to be passed about 5 % of the time
    reach = []
    for i in range(100):
        x, y, _ = aa_with_instance_effects(rng, lifetimes=2, per_lifetime=5, instance_sd=0.08, round_sd=0.02)
        low, high = stats.compare(x, y, True, seed=i, n_resamples=499)["interval"]
        reach.append(max(1 / low - 1, high - 1))
    reach = np.array(reach)
    assert np.mean(reach > by_lifetime["noise_floor"]) <= 0.12
    assert np.mean(reach > by_round["noise_floor"]) >= 0.2, "rounds of one lifetime are not independent"


def test_one_lifetime_is_calibrated_round_by_round_with_a_warning():
    rng = np.random.default_rng(18)
    a1, a2 = noisy(rng, 100, 0.03, 12), noisy(rng, 100, 0.03, 12)
    alone = stats_calibration.calibrate(a1, a2, rounds=10, analyses=50, lifetimes=[0] * 12)
    plain = stats_calibration.calibrate(a1, a2, rounds=10, analyses=50)
    assert alone["noise_floor"] == plain["noise_floor"] and alone["lifetimes"] == 0
    assert any("one instance lifetime" in w for w in alone["warnings"])
    with pytest.raises(ValueError, match="one entry per round"):
        stats_calibration.calibrate(a1, a2, rounds=10, analyses=50, lifetimes=[0, 1])


def test_interleaved_rounds_are_compared_by_the_geometric_mean_of_their_ratios():
    # each round's level is shared by both arms: it cancels in the round's ratio, not in a ratio of medians
    import numpy as np
    rng = np.random.default_rng(5)
    level = rng.normal(10, 2, 10)
    a, b = level * rng.normal(1, 0.01, 10), level * 1.05 * rng.normal(1, 0.01, 10)
    paired = stats.compare(a, b, lower_is_better=True, delta=0.02, estimator="geometric mean of ratios")
    medians = stats.compare(a, b, lower_is_better=True, delta=0.02)
    assert paired["estimator"] == "geometric mean of ratios" and medians["estimator"] == "ratio of medians"
    assert abs(paired["ratio"] - 1.05) < 0.01 and paired["verdict"] == "worse"
    assert paired["interval"][1] - paired["interval"][0] < medians["interval"][1] - medians["interval"][0]


def test_the_geometric_mean_of_ratios_and_the_median_of_ratios_read_pairs():
    a, b = np.array([1.0, 2.0, 4.0]), np.array([2.0, 2.0, 2.0])
    assert stats.ESTIMATORS["geometric mean of ratios"](a, b) == pytest.approx(1.0)
    assert stats.ESTIMATORS["median of ratios"](a, b) == pytest.approx(1.0)
    assert stats.ESTIMATORS["ratio of medians"](a, b) == pytest.approx(1.0)
    assert stats.ESTIMATORS["median of ratios"](np.array([0.0, 1.0, 1.0]), np.array([0.0, 3.0, 3.0])) == pytest.approx(3.0)


# --- JVM lifetimes as the unit: variance components and the plan -------------------------------------------

def test_variance_components_separate_the_lifetimes_offsets_from_their_rounds_noise():
    rng = np.random.default_rng(7)
    offsets = 0.10 * rng.standard_normal(40)  # 40 lifetimes, each with its own offset (sd 10 %)
    values = np.concatenate([o + 0.02 * rng.standard_normal(8) for o in offsets])  # 8 rounds each, sd 2 %
    groups = np.repeat(np.arange(40), 8)
    c = stats.variance_components(values, groups)
    assert c["lifetimes"] == 40 and c["per_lifetime"] == 8 and c["rounds"] == 320 and c["separable"]
    assert math.sqrt(c["within"]) == pytest.approx(0.02, rel=0.1)
    assert math.sqrt(c["between"]) == pytest.approx(0.10, rel=0.25)


def test_lifetimes_that_differ_no_more_than_their_rounds_explain_have_no_between_variance():
    values = [0.1, -0.1, 0.1, -0.1, 0.0, 0.0]  # lifetime means 0 and 0: between estimated below 0
    c = stats.variance_components(values, [0, 0, 0, 0, 1, 1])
    assert c["between"] == 0.0 and not c["separable"] and c["within"] > 0
    with pytest.raises(ValueError):
        stats.variance_components([0.1, 0.2], [0, 1])  # no lifetime with two rounds


def test_a_plan_spends_rounds_where_the_variance_is_and_scales_the_pilots_floor():
    quiet_lifetimes = {"within": 0.01, "between": 0.0}
    p = stats.lifetimes_plan(quiet_lifetimes, pilot_floor=0.10, pilot_lifetimes=2, pilot_per_lifetime=5, target=0.05,
                             round_seconds=30, lifetime_seconds=300)
    # floor ~ 1/sqrt(rounds): half the floor needs four times the pilot's 10 rounds, in the fewest lifetimes
    assert (p["lifetimes"], p["per_lifetime"], p["rounds"]) == (2, 20, 40)
    assert p["predicted_floor"] == pytest.approx(0.05) and p["reachable"]
    assert p["seconds"] == 2 * (300 + 20 * 30)
    noisy_lifetimes = {"within": 0.01, "between": 0.01}
    q = stats.lifetimes_plan(noisy_lifetimes, 0.10, 2, 5, 0.05, round_seconds=30, lifetime_seconds=300)
    # Kalibera and Jones: sqrt(300 * 0.01 / (30 * 0.01)) = 3.2 -> 4 rounds a lifetime, and lifetimes for the rest
    assert q["per_lifetime"] == 4 and q["lifetimes"] > 2 and q["predicted_floor"] <= 0.05
    far = stats.lifetimes_plan(noisy_lifetimes, 0.10, 2, 5, 0.001, 30, 300, max_lifetimes=50)
    assert not far["reachable"] and far["lifetimes"] == 50 and far["predicted_floor"] > 0.001


def test_the_pilots_variance_is_inflated_by_its_chi_square_bound_on_the_level_that_carries_it():
    quiet = {"within": 0.01, "between": 0.0, "lifetimes": 4, "per_lifetime": 5, "rounds": 20, "separable": False}
    inflation, df = stats.variance_inflation(quiet, 0.8)
    assert df == 16 and inflation == pytest.approx(16 / sps.chi2.ppf(0.2, 16))  # the rounds within lifetimes
    assert stats.variance_inflation(quiet, 0.95)[0] > inflation > stats.variance_inflation(quiet, 0.6)[0] > 1
    separated = {**quiet, "between": 0.01, "separable": True}
    assert stats.variance_inflation(separated, 0.8)[1] == 3  # the lifetimes' means: 4 lifetimes, 3 df
    with pytest.raises(ValueError):
        stats.variance_inflation({**separated, "lifetimes": 1}, 0.8)


def test_a_plan_keeps_at_least_the_rounds_an_interval_needs():
    p = stats.lifetimes_plan({"within": 0.01, "between": 0.0}, 0.10, 2, 5, 0.5, 30, 300)
    assert p["rounds"] >= stats.MIN_ROUNDS and p["lifetimes"] == 2


def test_the_smallest_mann_whitney_p_is_what_scipy_gives_sides_that_do_not_overlap():
    for n_a, n_b in ((3, 3), (4, 5), (5, 5), (2, 6)):
        apart = sps.mannwhitneyu(list(range(n_a)), list(range(100, 100 + n_b)), alternative="two-sided").pvalue
        assert math.isclose(stats.smallest_mwu_p(n_a, n_b), apart)
    assert stats.smallest_mwu_p(3, 3) == 0.1 > stats.SIGNIFICANCE
    assert stats.smallest_mwu_p(5, 5, tests=3) == 3 * 2 / 252
    assert stats.smallest_mwu_p(2, 2, tests=4) == 1.0 and stats.smallest_mwu_p(0, 3) == 1.0

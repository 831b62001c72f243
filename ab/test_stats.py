import math
import unittest

import stats


class PercentileTest(unittest.TestCase):

    def test_interpolates_between_ranks_like_numpy(self):
        values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
        self.assertEqual(stats.percentile(values, 50), 5.5)
        self.assertAlmostEqual(stats.percentile(values, 90), 9.1)
        self.assertEqual(stats.percentile(values, 100), 10)
        self.assertEqual(stats.percentile(values, 0), 1)

    def test_single_and_empty(self):
        self.assertEqual(stats.percentile([42], 99), 42)
        self.assertTrue(math.isnan(stats.percentile([], 50)))

    def test_summarize_gives_the_seed_columns(self):
        s = stats.summarize([10, 20, 30, 40])
        self.assertEqual(s["avg"], 25)
        self.assertEqual(s["p50"], 25)
        self.assertEqual(s["max"], 40)
        self.assertAlmostEqual(s["p95"], 38.5)


class RatioTest(unittest.TestCase):

    def test_pairs_rounds_in_order(self):
        a = [{"p50": 100.0}, {"p50": 200.0}, {"p50": 50.0}]
        b = [{"p50": 50.0}, {"p50": 100.0}, {"p50": 50.0}]
        self.assertEqual(stats.ratios(a, b, "p50"), [0.5, 0.5, 1.0])

    def test_zero_baseline(self):
        self.assertEqual(stats.ratios([{"x": 0}], [{"x": 0}], "x"), [1.0])
        self.assertEqual(stats.ratios([{"x": 0}], [{"x": 3}], "x"), [math.inf])


class BootstrapTest(unittest.TestCase):

    def test_interval_lies_within_the_values_and_is_reproducible(self):
        values = [0.50, 0.52, 0.55, 0.49, 0.51]
        low, high = stats.bootstrap_interval(values)
        self.assertGreaterEqual(low, min(values))
        self.assertLessEqual(high, max(values))
        self.assertLessEqual(low, 0.51)
        self.assertGreaterEqual(high, 0.51)
        self.assertEqual((low, high), stats.bootstrap_interval(values))

    def test_identical_values_give_a_point(self):
        self.assertEqual(stats.bootstrap_interval([0.8, 0.8, 0.8]), (0.8, 0.8))


class VerdictTest(unittest.TestCase):

    def test_lower_is_better(self):
        self.assertEqual(stats.verdict((0.40, 0.60), lower_is_better=True), "better")
        self.assertEqual(stats.verdict((1.10, 1.40), lower_is_better=True), "worse")
        self.assertEqual(stats.verdict((0.90, 1.05), lower_is_better=True), "no difference")
        self.assertEqual(stats.verdict((0.975, 0.99), lower_is_better=True), "no difference")

    def test_higher_is_better(self):
        self.assertEqual(stats.verdict((1.5, 2.0), lower_is_better=False), "better")
        self.assertEqual(stats.verdict((0.5, 0.8), lower_is_better=False), "worse")

    def test_compare_reports_medians_ratios_and_verdict(self):
        a = [{"p95": 100.0}, {"p95": 120.0}, {"p95": 110.0}]
        b = [{"p95": 50.0}, {"p95": 66.0}, {"p95": 55.0}]
        c = stats.compare(a, b, "p95", lower_is_better=True)
        self.assertEqual(c["baseline"], 110.0)
        self.assertEqual(c["candidate"], 55.0)
        self.assertEqual(c["median_ratio"], 0.5)
        self.assertEqual(c["verdict"], "better")


if __name__ == "__main__":
    unittest.main()

import math
import unittest

import report
import stats


def result():
    a = [{"p50": 100.0, "tps": 10.0}, {"p50": 110.0, "tps": 10.0}]
    b = [{"p50": 50.0, "tps": 10.0}, {"p50": 55.0, "tps": 10.0}]
    comparisons = [stats.compare(a, b, "p50", True), stats.compare(a, b, "tps", False)]
    runs = [dict(r, side="A-side", round=i + 1, testid=f"x-a-r{i + 1}", avg=r["p50"], p95=r["p50"], p99=r["p50"],
                 max=r["p50"], error_rate=0.0, mechanism={"new connections per call": 1.0}, invariants=[], knobs=[],
                 series=[{"t": 0, "rps": 10, "p50": r["p50"], "p95": r["p50"], "p99": r["p50"]}]) for i, r in enumerate(a)]
    runs += [dict(r, side="B-side", round=i + 1, testid=f"x-b-r{i + 1}", avg=r["p50"], p95=r["p50"], p99=r["p50"],
                  max=r["p50"], error_rate=0.0, mechanism={"new connections per call": 0.0}, invariants=[], knobs=[],
                  series=[{"t": 0, "rps": 10, "p50": r["p50"], "p95": r["p50"], "p99": r["p50"]}]) for i, r in enumerate(b)]
    return {"experiment": {"name": "x", "baseline": {"label": "A-side"}, "candidate": {"label": "B-side"},
                           "load": {"script": "k6/x.js"}},
            "args": {"rounds": 2, "rate": 10, "duration": "5s"}, "command": "./perflab ab x",
            "machine": {"commit": "abc", "cores": 2, "memory_kb": 1, "os": "linux", "versions": {}},
            "primary": {"metric": "p50", "verdict": "better", "candidate_wins": True},
            "comparisons": comparisons, "runs": runs}


class ReportTest(unittest.TestCase):

    def test_markdown_table_has_the_seed_style_before_after_delta(self):
        md = report.markdown(result())
        self.assertIn("| p50 (ms) | 105.0 → 52.5 (-50.0%) | 0.5 |", md)
        self.assertIn("| TPS | 10.0 → 10.0 (+0.0%) |", md)
        self.assertIn("better", md)
        self.assertIn("./perflab ab x", md)

    def test_html_is_self_contained_with_svg_charts(self):
        page = report.html(result())
        self.assertIn("<svg", page)
        self.assertNotIn("http://", page.replace('xmlns="http://www.w3.org/2000/svg"', ""))
        self.assertNotIn("https://", page)
        self.assertIn("p95 per second", page)

    def test_formatting_of_missing_values(self):
        self.assertEqual(report.fmt(math.nan), "–")
        self.assertEqual(report.fmt(0.0123, "error_rate"), "1.23%")


if __name__ == "__main__":
    unittest.main()

"""A ramping open load (tooling/perflab/analyse/ramp.py): each stage's figures from the requests' times, the breaking rate, its
comparison when a ramp held its peak, and the report's stage table (synthetic runs, real statistics)."""
import math

from perflab.analyse import comparison
from perflab.analyse import ramp
from perflab.render import report

LOAD = {"shape": "open", "ramp": [100, 200, 300], "step": "10s"}
SLO = (300.0, 0.01)


def requests(stage_latencies, start=1000, dropped_in=None, rise=ramp.RISE_S):
    """Requests of a ramp: per stage, `latencies` spread over its plateau (and a few in each climb of `rise` s,
    which count for no stage); dropped_in: {stage index: dropped iterations}."""
    lat, times, failed, dropped = [], [], [], []
    for i, values in enumerate(stage_latencies):
        lo = start + i * (rise + 10)
        lat += [5000.0, 5000.0]  # in the climb: far over the SLO, yet no stage's
        times += [lo, lo + rise - 1]
        failed += [True, True]
        for k, v in enumerate(values):
            lat.append(v)
            times.append(lo + rise + k % 10)
            failed.append(False)
        if dropped_in and i in dropped_in:
            dropped.append((lo + rise + 3, dropped_in[i]))
    return lat, times, failed, dropped


def test_each_stage_counts_its_plateau_only_and_the_first_that_breaks_the_slo_is_the_breaking_rate():
    lat, times, failed, dropped = requests([[50.0] * 100, [100.0] * 200, [400.0] * 300])
    r = ramp.record(LOAD, lat, times, failed, dropped, SLO)
    assert [s["requests"] for s in r["stages"]] == [100, 200, 300]
    assert [s["p95"] for s in r["stages"]] == [50.0, 100.0, 400.0]
    assert [s["held"] for s in r["stages"]] == [True, True, False]
    assert r["breaking_rate"] == 300 and not r["held_peak"]


def test_a_shorter_climb_moves_every_stage_and_the_script_and_the_run_length_follow_it():
    load = dict(LOAD, rise="2s")
    lat, times, failed, dropped = requests([[50.0] * 100, [100.0] * 200, [400.0] * 300], rise=2)
    r = ramp.record(load, lat, times, failed, dropped, SLO)
    assert [s["requests"] for s in r["stages"]] == [100, 200, 300] and r["breaking_rate"] == 300
    assert ramp.k6_env(load)["RISE"] == "2" and ramp.total_seconds(load) == 3 * (2 + 10)
    # read with the default 5 s climb, the same requests land in the wrong stages
    assert [s["requests"] for s in ramp.record(LOAD, lat, times, failed, dropped, SLO)["stages"]] != [100, 200, 300]


def test_dropped_iterations_are_errors_of_their_stage():
    lat, times, failed, dropped = requests([[50.0] * 100, [50.0] * 198, [50.0] * 300], dropped_in={1: 2})
    r = ramp.record(LOAD, lat, times, failed, dropped, SLO)
    assert r["stages"][1]["error_rate"] == 2 / 200 and r["stages"][1]["dropped"] == 2
    assert r["breaking_rate"] == 200  # 1 % errors: not under the SLO's 1 %


def test_a_ramp_that_held_every_stage_records_the_peak_as_a_bound():
    lat, times, failed, dropped = requests([[50.0] * 10] * 3)
    r = ramp.record(LOAD, lat, times, failed, dropped, SLO)
    assert r["breaking_rate"] == 300 and r["held_peak"]


def test_a_stage_without_a_request_broke():
    lat, times, failed, dropped = requests([[50.0] * 10, [], []])
    assert ramp.record(LOAD, lat, times, failed, dropped, SLO)["breaking_rate"] == 200


def test_the_script_gets_the_ramp_and_virtual_users_for_its_peak():
    env = ramp.k6_env({"ramp": [200, 400, 600], "step": "20s"})
    assert env == {"MODE": "ramp", "RAMP": "200,400,600", "STEP": "20", "RISE": "5", "PRE_VUS": "600", "MAX_VUS": "1200"}
    assert ramp.k6_env({"ramp": [20, 40], "step": "5s", "env": {"MAX_VUS": "50"}})["MAX_VUS"] == "50"
    assert ramp.total_seconds({"ramp": [20, 40], "step": "5s"}) == 20


def test_breaking_rate_is_a_claimed_metric_with_its_own_verdict_in_the_first_line(build):
    r = build.ramp_result()
    also = r["verdict"]["cells"][0]["also"]
    assert also == [{"metric": "breaking_rate", "verdict": "better", "expect": "better", "ok": True}]
    assert r["verdict"]["ok"]
    first = report.headline(r)
    assert first.startswith("As expected.") and "also better (breaking rate B/A 1.50" in first


def test_a_breaking_rate_claimed_beside_the_p95_is_judged_at_its_own_floor_not_the_p95s(build):
    r = build.ramp_result()
    e, runs = r["experiment"], r["cells"][0]["runs"]
    shared = {x["metric"]: x for x in comparison.compare(e, runs, 1.0)[0]["rows"]}
    own = {x["metric"]: x for x in comparison.compare(e, runs, 1.0, {"breaking_rate": 0.03, "statements": 0.03})[0]["rows"]}
    assert shared["breaking_rate"]["verdict"] == "no difference"  # 1.5 inside [1/2, 2], the p95's band
    assert own["breaking_rate"]["verdict"] == "better" and own["breaking_rate"]["delta"] == 0.03
    assert own["p95"]["delta"] == 1.0 and own["statements"]["delta"] == 1.0  # a metric not claimed keeps the cell's δ
    r["cells"][0]["also_delta"] = {"breaking_rate": 0.03}
    assert "- δ for breaking rate (/s), claimed beside it: 3.0 % (the larger of 3 % and its own A/A noise floor)" \
        in report.markdown(r)


def test_a_claimed_breaking_rate_that_did_not_come_out_fails_the_run(build):
    r = build.ramp_result(b_breaking=200)
    assert r["verdict"]["cells"][0]["also"][0]["verdict"] == "no difference"
    assert not r["verdict"]["ok"] and report.headline(r).startswith("Not as expected.")


def test_a_candidate_that_held_the_peak_keeps_better_with_a_warning_to_raise_the_ramp(build):
    r = build.ramp_result(b_breaking=300, b_held=True)
    row = next(x for x in r["cells"][0]["comparisons"][0]["rows"] if x["metric"] == "breaking_rate")
    assert row["verdict"] == "better" and "raise [load] ramp" in row["warnings"][-1]


def test_a_baseline_that_held_the_peak_makes_better_inconclusive(build):
    r = build.ramp_result(b_breaking=300, b_held=True, a_breaking=300)
    for run in r["cells"][0]["runs"]:
        run["held_peak"] = True
    c = comparison.compare(r["experiment"], r["cells"][0]["runs"], 0.03)[0]
    row = next(x for x in c["rows"] if x["metric"] == "breaking_rate")
    assert row["verdict"] == "inconclusive" and row["censored"] == {"A-side": 10, "B-side": 10}


def test_the_report_shows_each_variants_stages_and_breaking_rates(build):
    md = report.markdown(build.ramp_result())
    assert "### The ramp: each stage 10s after a 5 s climb, SLO p95 < 300 ms and errors < 1.00%" in md
    assert "| B-side | 200 | 2,000 | 27.8 | 55.5 | 900.0 | 0.00% | 10 of 10 |" in md
    assert "| A-side | 300 | 3,000 | 52.8 | 500.0 | 900.0 | 0.00% | 0 of 10 |" in md
    assert "- A-side: breaking rate per round 200, 200" in md
    assert "B-side against A-side: p95" in md
    assert "- warning: breaking rate (/s) (a claimed metric ([primary] also)" in md


def test_median_stages_are_medians_over_the_rounds():
    runs = [{"stages": [{"rate": 100.0, "requests": n, "avg": 1.0, "p95": p, "max": 2.0, "error_rate": 0.0, "dropped": 0,
                         "held": p < 300}]} for n, p in ((10, 100.0), (20, 400.0), (30, 200.0))]
    assert ramp.median_stages(runs) == [{"rate": 100.0, "runs": 3, "held": 2, "requests": 20, "avg": 1.0, "p95": 200.0,
                                         "max": 2.0, "error_rate": 0.0, "dropped": 0}]
    assert math.isnan(ramp._median([]))


def test_the_ramp_chart_draws_each_variants_stages_the_slo_and_where_each_breaks(build):
    import xml.etree.ElementTree as ET

    from perflab.render import charts
    from perflab.render import charts_svg
    drawn = charts.charts(build.ramp_result())
    svg = drawn["ramp.svg"]
    assert svg == charts.charts(build.ramp_result())["ramp.svg"]  # the same bytes for the same result
    root = ET.fromstring(svg)
    ns = {"s": charts_svg.SVG_NS}
    assert len(root.findall(".//s:polyline[@class='stages']", ns)) == 2
    assert len(root.findall(".//s:line[@class='slo']", ns)) == 1
    texts = [t.text for t in root.findall(".//s:text[@class='numbers']", ns)]
    assert texts == ["A-side: breaks at 200/s", "B-side: breaks at 300/s"]
    assert "ramp.svg" not in charts.charts(build.result())


def test_also_against_adds_a_control_beside_the_claimed_comparison_with_the_baseline(build):
    e = build.ramp_experiment(also=["breaking_rate"])
    e["variants"].append({"label": "C-side", "also_against": "B-side"})
    runs = ([build.ramped_run("A-side", i, 100.0 + i, 200) for i in range(1, 6)]
            + [build.ramped_run("B-side", i, 50.0 + i, 300) for i in range(1, 6)]
            + [build.ramped_run("C-side", i, 49.0 + i, 300) for i in range(1, 6)])
    cell = {"profile": "localhost", "network": "localhost", "parameter": None, "value": None, "tag": "localhost", "runs": runs}
    cell["comparisons"] = comparison.compare(e, runs, 0.03)
    pairs = [(c["baseline"], c["candidate"], c.get("control", False)) for c in cell["comparisons"]]
    assert pairs == [("A-side", "B-side", False), ("A-side", "C-side", False), ("B-side", "C-side", True)]
    verdict = comparison.overall(e, [cell], False, None)
    expects = [(x["candidate"], x.get("baseline"), x["expect"], x["ok"]) for x in verdict["cells"]]
    assert expects == [("B-side", None, "better", True), ("C-side", None, "better", True), ("C-side", "B-side", "any", True)]
    r = {"experiment": e, "name": "x", "command": "./perflab ab x", "delta": 0.03, "delta_source": "default",
         "machine": {"commit": "abc", "cores": 2, "versions": {}}, "started": "2026-11-22T18:00:00", "cells": [cell],
         "verdict": verdict}
    first = report.headline(r)
    assert "localhost, C-side: better" in first and "localhost, C-side against B-side: " in first
    assert first.split("C-side against B-side: ")[1].split(";")[0].endswith("a control, no claim")
    assert "- controls, reported without a claim (`expect = \"any\"`): C-side against B-side" in report.markdown(r)


LINEAR = {"shape": "open", "ramp": [86, 172], "ramp_kind": "linear", "segments": ["60s", "120s"], "fall": "30s"}


def test_a_linear_stage_counts_the_requests_of_its_climb_and_the_fall_is_no_stage():
    start = 1000
    times = [start, start + 59, start + 60, start + 179, start + 180, start + 209]  # climb 1, climb 2, the fall
    lat, failed = [50.0, 50.0, 400.0, 400.0, 9000.0, 9000.0], [False] * 6
    r = ramp.record(LINEAR, lat, times, failed, [(start + 30, 1), (start + 200, 5)], SLO)
    assert [(s["from"], s["rate"], s["requests"], s["dropped"]) for s in r["stages"]] == [(0.0, 86.0, 2, 1), (86.0, 172.0, 2, 0)]
    assert r["breaking_rate"] == 86 and not r["held_peak"]  # a linear stage's rate is its target, the top of its climb
    assert ramp.windows(LINEAR) == [(0, 60.0), (60.0, 180.0)] and ramp.total_seconds(LINEAR) == 60 + 120 + 30
    assert ramp.total_seconds({k: v for k, v in LINEAR.items() if k != "fall"}) == 180 + ramp.FALL_S


def test_a_linear_ramp_gives_the_script_its_kind_segments_and_fall_and_a_plateau_ramp_does_not():
    assert ramp.k6_env(LINEAR) == {"MODE": "ramp", "RAMP_KIND": "linear", "RAMP": "86,172", "SEGMENTS": "60,120",
                                   "FALL": "30", "PRE_VUS": "172", "MAX_VUS": "1000"}
    assert "RAMP_KIND" not in ramp.k6_env(LOAD) and "SEGMENTS" not in ramp.k6_env(LOAD)


def test_a_linear_stage_is_labelled_from_to_and_a_plateau_by_its_rate():
    runs = [{"stages": [{"rate": 86.0, "from": 0.0, "requests": 10, "avg": 1.0, "p95": 2.0, "max": 3.0, "error_rate": 0.0,
                         "dropped": 0, "held": True}]}]
    stage = ramp.median_stages(runs)[0]
    assert ramp.stage_label(stage) == "0→86" and ramp.stage_label({"rate": 200.0}) == "200"
    assert ramp.describe(LINEAR) == "each stage a linear climb from the one before (60, 120 s), then 30 s down to 0"
    assert ramp.describe(LOAD) == "each stage 10s after a 5 s climb"


def test_the_report_labels_a_linear_stage_from_to(build):
    r = build.ramp_result()
    r["experiment"]["load"].update(ramp_kind="linear", segments=["60s", "60s", "120s"], fall="30s")
    for run in r["cells"][0]["runs"]:
        for i, s in enumerate(run["stages"]):
            s["from"] = run["stages"][i - 1]["rate"] if i else 0.0
    md = report.markdown(r)
    assert "### The ramp: each stage a linear climb from the one before (60, 60, 120 s), then 30 s down to 0, SLO" in md
    assert "| B-side | 100→200 | 2,000 |" in md and "| A-side | 0→100 |" in md


def test_the_rule_sets_the_ramp_from_the_pilots_connection_time():
    setting = {"connections": 3, "fractions": [0.2, 0.4, 0.6, 0.8, 1.0]}
    assert ramp.targets_from_rule(setting, 0.013) == [46, 92, 138, 185, 231]
    assert ramp.targets_from_rule(setting, 0.030) == [20, 40, 60, 80, 100]

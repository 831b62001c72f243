"""tooling/perflab/analyse/comparison.py: one set of comparison operators for the A/B runner's checks and a command experiment's, and
when an inconclusive cell gets more rounds (the comparison itself: test_report.py, test_capacity_served.py)."""
import pytest

from perflab.analyse import comparison


@pytest.mark.parametrize("value, op, target, holds", [
    (0.1 + 0.2, "==", 0.3, True), (3, "==", 3.0, True), (0.31, "==", 0.3, False), ("fory", "==", "fory", True),
    ("fory", "==", 0.3, False), (2, "<", 3, True), (3, "<", 3, False), (3, "<=", 3, True), (4, ">", 3, True),
    (3, ">=", 4, False)])
def test_one_operator_set_judges_every_check(value, op, target, holds):
    assert comparison.eval_op(value, op, target) is holds


def test_a_run_check_and_a_command_check_agree_on_a_float_read_back():
    e = {"variants": [{"label": "A"}, {"label": "B"}],
         "check": [{"side": "candidate", "mechanism": "statements", "op": "==", "value": 0.3}]}
    cell = {"tag": "localhost", "runs": [{"variant": "B", "testid": "b1", "mechanism": {"statements": 0.1 + 0.2}}]}
    said = []
    assert comparison.smoke_checks(e, [cell], say=said.append) == {"passed": 1, "failed": []}
    assert said == ["  ok    localhost B: statements = 0.30000000000000004 (expected == 0.3)"]
    command = {"check": [{"metric": "m", "field": "score", "op": "==", "value": 0.3}]}
    assert comparison.command_checks(command, [{"metric": "m", "score": 0.1 + 0.2}], 0, "") == {"passed": 1, "failed": []}
    assert comparison.command_checks(command, [], 2, "boom\n")["failed"] == ["command exited 2: boom", "m score == 0.3: no row"]


def test_only_a_claimed_inconclusive_cell_that_is_no_bound_grows():
    e = {"variants": [{"label": "A"}, {"label": "B"}, {"label": "C", "expect": "any"}], "primary": {"expect": "better"}}
    row = lambda verdict, **extra: {"primary": {"verdict": verdict, **extra}}  # noqa: E731
    assert comparison.grows(e, [dict(row("inconclusive"), candidate="B")])
    assert not comparison.grows(e, [dict(row("inconclusive"), candidate="C")])  # a control
    assert not comparison.grows(e, [dict(row("inconclusive", censored={"B": 3}), candidate="B")])  # a bound
    assert not comparison.grows(e, [dict(row("better"), candidate="B")])


def test_the_declared_mechanisms_are_the_primarys_else_every_one_that_explains():
    mechanisms = [{"name": "a"}, {"name": "b", "explains": False}]
    assert comparison.declared_mechanisms({"primary": {}, "mechanism": mechanisms}) == ["a"]
    assert comparison.declared_mechanisms({"primary": {"mechanisms": ["b"]}, "mechanism": mechanisms}) == ["b"]


def test_a_co_primary_gets_its_own_calibration_and_delta_rests_on_the_primarys():
    import numpy as np
    rng = np.random.default_rng(3)
    runs = []
    for i in range(10):
        shared = rng.normal(6, 1)
        for label in ("a", "a (A/A)"):
            runs.append({"variant": label, "round": i + 1, "lifetime": 0, "p95": shared * rng.normal(1, 0.03),
                         "mechanism": {"cpu (ms)": 1.4 * rng.normal(1, 0.002)}})
    e = {"primary": {"metric": "p95", "also": ["cpu (ms)"]}, "variants": [{"label": "a"}, {"label": "a (A/A)"}],
         "rounds": 10, "interleave": True, "mechanism": [{"name": "cpu (ms)", "better": "lower"}]}
    calibration = comparison.calibrate(e, [{"profile": "localhost", "runs": runs}])
    assert [(c["metric"], bool(c.get("co_primary"))) for c in calibration] == [("p95", False), ("cpu (ms)", True)]
    assert calibration[1]["noise_floor"] < calibration[0]["noise_floor"]
    assert comparison.primary_calibrations(calibration) == calibration[:1]


def test_the_leakage_check_compares_each_variant_interleaved_with_itself_alone():
    e = {"variants": [{"label": "a"}, {"label": "b"}], "primary": {"metric": "p50"}, "mechanism": [], "interleave": True,
         "load": {"shape": "open"}}
    runs = [{"variant": label, "round": i, "p50": level * (1 + 0.001 * (i % 3))}
            for i in range(1, 11) for label, level in (("a", 10.0), ("b", 8.0), ("a (alone)", 10.0), ("b (alone)", 6.0))]
    a, b = comparison.leakage(e, runs, 0.03)
    assert (a["baseline"], a["candidate"]) == ("a (alone)", "a") and a["primary"]["verdict"] == "no difference"
    assert (b["baseline"], b["candidate"]) == ("b (alone)", "b") and b["primary"]["verdict"] == "worse"
    assert b["primary"]["ratio"] == pytest.approx(8 / 6, rel=0.01)


def test_repeated_runs_count_their_primary_verdicts_per_profile():
    e = {"primary": {"metric": "p50", "expect": "worse"}}

    def cell(profile, repeat, verdict, ratio):
        return {"profile": profile, "repeat": repeat, "comparisons": [{"primary": {"verdict": verdict, "ratio": ratio}}]}

    cells = [cell("localhost", i, "worse" if i < 9 else "inconclusive", 1.04 + i / 1000) for i in range(1, 11)]
    cells.append({"profile": "localhost", "comparisons": []})  # a cell of no --repeat is not counted
    (r,) = comparison.repeats(e, cells)
    assert r["runs"] == 10 and r["met"] == 8 and r["verdicts"] == {"worse": 8, "inconclusive": 2}
    assert r["expect"] == "worse" and min(r["ratios"]) == pytest.approx(1.041)


def test_a_files_estimator_overrides_the_modes_and_an_unknown_one_is_refused(tmp_path, monkeypatch):
    assert comparison.estimator({}) == "ratio of medians"
    assert comparison.estimator({"duet": True}) == "geometric mean of ratios"
    assert comparison.estimator({"estimator": "median of ratios", "interleave": True}) == "median of ratios"



def test_a_file_of_one_variant_is_measured_not_judged_and_nothing_compared_otherwise_fails(build):
    from perflab.render import report
    r = build.result()
    e, cell = r["experiment"], r["cells"][0]
    cell["runs"] = [x for x in cell["runs"] if x["variant"] == "A-side"]
    cell["comparisons"] = []
    assert comparison.overall(e, [cell], False, None) == {"ok": False, "cells": []}  # B-side never ran
    e["variants"] = e["variants"][:1]  # a pilot: one variant, its figures measured
    r["verdict"] = comparison.overall(e, [cell], False, None)
    assert r["verdict"] == {"ok": True, "cells": []}
    assert report.text(r).endswith("verdict: none: one variant, measured, nothing claimed")

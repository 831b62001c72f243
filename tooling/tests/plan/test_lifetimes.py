"""tooling/perflab/plan/lifetimes.py: a plan of JVM lifetimes from a pilot A/A's result (synthetic results, no lab)."""
import math

import numpy as np
import pytest

from perflab.plan import lifetimes


def pilot_result(seconds=False, per_lifetime=5, n_lifetimes=4, sd=0.05, floor=0.08):
    """An A/A result of separate JVMs as the runner writes it: rounds in lifetimes, and its calibration."""
    rng = np.random.default_rng(3)
    runs, lives = [], []
    for life in range(n_lifetimes):
        lives.append({"start_order": ["a", "a (A/A)"], **({"seconds": 200.0} if seconds else {})})
        for i in range(per_lifetime):
            for label, p95 in (("a", 10.0), ("a (A/A)", 10.0 * math.exp(sd * rng.standard_normal()))):
                runs.append({"variant": label, "round": life * per_lifetime + i + 1, "p95": p95, "lifetime": life,
                             **({"seconds": 15.0} if seconds else {})})
    e = {"name": "x", "variants": [{"label": "a"}, {"label": "a (A/A)"}],
         "load": {"duration": "12s", "warmup": "60s", "primer": 3}, "primary": {"metric": "p95"}}
    return {"experiment": e, "took_seconds": 2000.0,
            "cells": [{"profile": "localhost", "runs": runs, "lifetimes": lives}],
            "calibration": [{"profile": "localhost", "metric": "p95", "noise_floor": floor, "rounds": 10},
                            {"profile": "localhost", "metric": "cpu", "noise_floor": 0.01, "rounds": 10, "co_primary": True}]}


def test_costs_come_from_the_pilots_recorded_seconds_or_a_model_of_its_time():
    r = pilot_result(seconds=True)
    assert lifetimes.costs(r, r["cells"][0]) == (30.0, 200.0, "measured in the pilot")
    r = pilot_result()
    round_s, lifetime_s, how = lifetimes.costs(r, r["cells"][0])
    # 40 runs and 4 lifetimes x 2 apps x 3 primers of (12 s + o), plus 8 x (10 s + 60 s): 2000 s in all
    o = (2000 - 40 * 12 - 8 * (10 + 60 + 3 * 12)) / (40 + 24)
    assert round_s == pytest.approx(2 * (12 + o)) and lifetime_s == pytest.approx(2 * (70 + 3 * (12 + o)))
    assert "modelled" in how


def test_a_plan_per_profile_of_the_primary_metric_only():
    plans = lifetimes.plan(pilot_result(seconds=True), 0.04)
    assert [p["profile"] for p in plans] == ["localhost"] and plans[0]["metric"] == "p95"
    d = plans[0]["plan"]
    assert d["predicted_floor"] <= 0.04 and d["rounds"] > 10 and d["reachable"]
    assert "predicted floor" in lifetimes.describe(plans, "docs/results/x-aa/result.json")


def test_rounds_without_lifetimes_cannot_be_planned():
    r = pilot_result()
    for run in r["cells"][0]["runs"]:
        run["lifetime"] = None
    assert "one level" in lifetimes.plan(r, 0.05)[0]["why"]


def test_apply_gives_each_planned_profile_its_rounds_and_lifetimes_and_refuses_the_unreachable():
    plans = lifetimes.plan(pilot_result(seconds=True), 0.04)
    e = lifetimes.apply({"profiles": ["localhost"], "load": {"restart_every": 5, "rate": 100}}, plans)
    over = lifetimes.for_cell(e, "localhost")
    d = plans[0]["plan"]
    assert over["rounds"] == over["max_rounds"] == d["rounds"]
    assert over["load"] == {"restart_every": d["per_lifetime"], "rate": 100}
    assert lifetimes.for_cell(e, "cross-zone") == {}
    with pytest.raises(SystemExit, match="no plan for cross-zone"):
        lifetimes.apply({"profiles": ["cross-zone"], "load": {}}, plans)
    plans[0]["plan"]["reachable"] = False
    with pytest.raises(SystemExit, match="out of reach on localhost"):
        lifetimes.apply({"profiles": ["localhost"], "load": {}}, plans)


def test_a_plan_at_a_confidence_is_sized_for_the_upper_bound_of_the_pilots_variance():
    estimate = lifetimes.plan(pilot_result(seconds=True), 0.04)[0]
    cautious = lifetimes.plan(pilot_result(seconds=True), 0.04, confidence=0.9)[0]
    u = cautious["uncertainty"]
    assert u["applied"] and not estimate["uncertainty"]["applied"]
    assert u["inflation"] > estimate["uncertainty"]["inflation"] > 1  # 90 % asks more than the 80 % it names
    # a variance up to `inflation` times larger needs about that many times the rounds for the same floor
    assert cautious["plan"]["rounds"] >= estimate["plan"]["rounds"] * u["inflation"] * 0.9
    text = lifetimes.describe([cautious], "docs/results/x-aa/result.json")
    assert "90 % confidence" in text and "planned for that bound" in text
    assert "--confidence 80% plans for that bound" in lifetimes.describe([estimate], "x")

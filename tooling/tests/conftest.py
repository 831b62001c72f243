"""The builders tooling/'s tests share: synthetic experiments, runs and results built the way the runner builds them
(real statistics on synthetic runs), given to a test as one fixture, `build`.

A test names `build` among its parameters and calls the builder it needs, with its own arguments, as often as it
needs (the factory-as-fixture pattern: the fixture is the functions, not one result, so each call is a fresh dict a
test may change):
- build.experiment(), build.run(label, i, p95, statements), build.result(b_p95, b_statements): an A/B of two
  variants, ten rounds each, B-side better on p95 and statements;
- build.capacity_experiment(), build.search(label, i, capacity, broke_at): a capacity search and one of its runs;
- build.three_stage_experiment(), build.three_stage_runs(), build.three_stage_result(): three variants, each a
  stage of a write-up (`[[writeup]]`), C-side against B-side;
- build.ramp_experiment(also), build.ramped_run(label, i, p95, breaking, held_peak),
  build.ramp_result(b_breaking, b_held, a_breaking): a ramping open load with a breaking rate per run.

`fake_docker(containers="")`: a `docker` first on PATH that logs its command lines (returns the log's path) and
lists `containers` for `compose ... ps`.

No test module imports another (test_layers checks it): what two of them share lives here."""
import os
import types

import pytest

from perflab.analyse import comparison

RAMP_LOAD = {"shape": "open", "ramp": [100, 200, 300], "step": "10s"}


def experiment():
    return {"name": "x", "kind": "ab", "description": "d", "rounds": 10, "max_rounds": 20,
            "variants": [{"label": "A-side", "args": []}, {"label": "B-side", "args": []}],
            "load": {"shape": "open", "script": "k6/x.js", "rate": 10, "duration": "5s"},
            "primary": {"metric": "p95", "expect": "better", "mechanisms": ["statements"]},
            "mechanism": [{"name": "statements", "kind": "ratio", "better": "lower"}], "profiles": ["localhost"]}


def run(label, i, p95, statements):
    return {"variant": label, "round": i, "testid": f"x-{label}-r{i}", "p50": p95 / 2, "p90": p95 * .9, "p95": p95,
            "p99": p95 * 1.2, "avg": p95 / 2, "max": p95 * 2, "tps": 10.0, "error_rate": 0.0, "requests": 100,
            "mechanism": {"statements": statements}, "invariants": [], "knobs": [],
            "series": [{"t": t, "rps": 10, "p50": p95 / 2, "p95": p95, "p99": p95} for t in range(5)]}


def one_cell_result(e, cell, machine):
    """The result the runner writes for one cell: its comparisons and the verdict, as measured on `machine`."""
    cell["comparisons"] = comparison.compare(e, cell["runs"], 0.03)
    out = {"experiment": e, "name": "x", "command": "./perflab ab x", "delta": 0.03, "delta_source": "default",
           "machine": machine, "started": "2026-11-22T18:00:00", "cells": [cell]}
    out["verdict"] = comparison.overall(e, [cell], False, None)
    return out


def localhost_cell(runs, network="localhost"):
    return {"profile": "localhost", "network": network, "parameter": None, "value": None, "tag": "localhost",
            "runs": runs}


def result(b_p95=50.0, b_statements=5.0):
    runs = [run("A-side", i, 100.0 + i, 12.0) for i in range(1, 11)] + [run("B-side", i, b_p95 + i, b_statements) for i in range(1, 11)]
    return one_cell_result(experiment(), localhost_cell(runs, "localhost: every service on localhost, no proxy"),
                           {"commit": "abc", "cores": 2, "load_before": [1, 1, 1], "load_after": [1, 1, 1], "versions": {}})


def capacity_experiment():
    e = experiment()
    e["load"] = {"shape": "capacity", "script": "k6/x.js"}
    e["capacity"] = {"start": 50, "step": 50, "max": 1000}
    e["primary"] = {"metric": "capacity", "expect": "better", "mechanisms": []}
    return e


def search(label, i, capacity, broke_at):
    return {"variant": label, "round": i, "testid": f"{label}-r{i}", "capacity": capacity, "broke_at": broke_at,
            "steps": [], "mechanism": {}, "invariants": []}


def three_stage_experiment():
    e = experiment()
    e["variants"].append({"label": "C-side", "args": [], "against": "B-side"})
    e["mechanism"].append({"name": "connection time (s)", "kind": "ratio", "better": "lower"})
    e["writeup"] = [
        {"variant": "A-side", "stage": "(1) naive", "source": "seed.md, 1단계", "figures": {"p95": 1966, "mean": 498}},
        {"variant": "B-side", "stage": "(2) batched", "source": "seed.md, 2단계", "figures": {"p95": 103, "mean": 60}},
        {"variant": "C-side", "stage": "(3) cached", "source": "seed.md, 3단계",
         "figures": {"p95": 90, "connection time (s)": 2.0}},
    ]
    return e


def three_stage_runs():
    out = []
    for i in range(1, 11):
        out.append(dict(run("A-side", i, 412.0, 12.0), mechanism={"statements": 12.0, "connection time (s)": 0.004}))
        out.append(dict(run("B-side", i, 38.0, 5.0), mechanism={"statements": 5.0, "connection time (s)": 0.002}))
        out.append(dict(run("C-side", i, 40.0 + i / 10, 5.0), mechanism={"statements": 5.0, "connection time (s)": 0.001}))
    return out


def three_stage_result():
    return one_cell_result(three_stage_experiment(), localhost_cell(three_stage_runs()),
                           {"commit": "abc", "cores": 2, "versions": {}})


def ramp_experiment(also=()):
    e = experiment()
    e["load"] = dict(RAMP_LOAD, script="k6/x.js")
    e["slo"] = {"p95_ms": 300, "error_rate": 0.01}
    e["primary"] = {"metric": "p95", "expect": "better", "mechanisms": ["statements"], "also": list(also)}
    return e


def ramped_run(label, i, p95, breaking, held_peak=False):
    stages = [{"rate": r, "requests": 10 * r, "avg": p95 / 2, "p95": p95 if r < breaking else 500.0, "max": 900.0,
               "error_rate": 0.0, "dropped": 0, "held": r < breaking or held_peak} for r in (100, 200, 300)]
    return dict(run(label, i, p95, 12.0 if label == "A-side" else 5.0), stages=stages,
                breaking_rate=breaking, held_peak=held_peak)


def ramp_result(b_breaking=300, b_held=False, a_breaking=200):
    runs = ([ramped_run("A-side", i, 100.0 + i, a_breaking) for i in range(1, 11)]
            + [ramped_run("B-side", i, 50.0 + i, b_breaking, b_held) for i in range(1, 11)])
    return one_cell_result(ramp_experiment(also=["breaking_rate"]), localhost_cell(runs),
                           {"commit": "abc", "cores": 2, "versions": {}})


BUILDERS = types.SimpleNamespace(**{f.__name__: f for f in (
    experiment, run, result, capacity_experiment, search, three_stage_experiment, three_stage_runs,
    three_stage_result, ramp_experiment, ramped_run, ramp_result)})


@pytest.fixture
def build():
    """The shared builders (this module's docstring lists them): each call builds a fresh experiment, run or result."""
    return BUILDERS


@pytest.fixture
def fake_docker(tmp_path, monkeypatch):
    """A `docker` first on PATH that answers every command (`info` too), logs its arguments and lists `containers`
    for `compose ... ps`; returns the log's path."""
    def install(containers=""):
        log = tmp_path / "docker.log"
        docker = tmp_path / "docker"
        docker.write_text(f'#!/bin/sh\necho "$@" >> {log}\ncase "$*" in *" ps "*) printf "{containers}" ;; esac\n')
        docker.chmod(0o755)
        monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
        return log
    return install

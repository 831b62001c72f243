"""A [setting] rule applied on the machine that runs it: where its input comes from, the ramp and scale it sets, and
the runner's stage that runs the pilot first (with the measurement itself replaced by a result, so no load runs)."""
import argparse

import pytest

from perflab import runner
from perflab.analyse import ramp
from perflab.plan import experiment as experiments
from perflab.plan import setting
from perflab.results import store

METRIC = "connection time per transfer (s)"
HERE = {"os": "vm-here", "cores": 2}


def pilot_result(seconds, os_name="vm-here", steady=True, broken=()):
    runs = [{"variant": "wallet-after", "mechanism": {METRIC: s},
             "steady": {"steady": steady, "reason": "latency falling by 40 % of the median: not steady, lengthen the warm-up"}}
            for s in seconds]
    return {"experiment": {"variants": [{"label": "wallet-after"}]}, "machine": {"os": os_name, "cores": 2},
            "cells": [{"runs": runs}], "checks": {"passed": 3 - len(broken), "failed": list(broken)}}


def test_the_rules_input_is_the_median_of_the_pilots_runs():
    assert setting.figure(pilot_result([0.020, 0.010, 0.030]), METRIC) == 0.020
    assert setting.figure(pilot_result([0.010, 0.020]), METRIC) == pytest.approx(0.015)
    assert setting.figure(pilot_result([]), METRIC) is None
    assert setting.figure(pilot_result([float("nan")]), METRIC) is None


def test_a_pilot_still_warming_up_is_named_run_by_run():
    assert setting.unsteady(pilot_result([0.02], steady=True)) == []
    assert setting.unsteady(pilot_result([0.02], steady=False)) == [
        "wallet-after: latency falling by 40 % of the median: not steady, lengthen the warm-up"]


def test_auto_measures_here_unless_the_published_pilot_ran_on_this_machine(monkeypatch):
    wallet = experiments.load("wallet")
    monkeypatch.setattr(store, "published", lambda name: pilot_result([0.01], os_name="vm-there"))
    where, why = setting.source(wallet, "auto", HERE)
    assert where == "here" and "os vm-there (here vm-here)" in why
    monkeypatch.setattr(store, "published", lambda name: pilot_result([0.01]))
    assert setting.source(wallet, "auto", HERE)[0] == "published"
    monkeypatch.setattr(store, "published", lambda name: None)
    assert setting.source(wallet, "auto", HERE) == ("here", "no wallet-pilot is published (docs/results/wallet-pilot)")
    assert setting.source(wallet, "published", HERE) == ("published", "--setting published")


def test_here_is_refused_for_an_experiment_whose_setting_reads_no_pilot():
    with pytest.raises(SystemExit, match="--setting here: wallet-fixed has no \\[setting\\] pilot"):
        setting.source(experiments.load("wallet-fixed"), "here", HERE)
    assert setting.source(experiments.load("wallet-fixed"), "auto", HERE)[0] == "published"


def test_the_files_rule_on_this_machines_figure_sets_the_ramp_and_the_littles_law_scale():
    wallet = experiments.load("wallet")
    file_ramp = list(wallet["load"]["ramp"])
    targets = setting.apply(wallet, 0.0177, "here, results/x")
    assert targets == wallet["load"]["ramp"] == [34, 68, 102, 136, 169]  # 3 / 0.0177 = 169.5/s, fractions 0.2 ... 1
    [little] = [m for m in wallet["mechanism"] if m["name"] == "pool needed at the peak (Little's law)"]
    assert little["scale"] == 169
    assert wallet["setting"]["applied"] == {"pilot_figure": 0.0177, "measured": "here, results/x", "ramp": targets,
                                            "file_ramp": file_ramp}


def run_stage(monkeypatch, tmp_path, result, wanted="auto"):
    """The runner's setting stage on the wallet, with the pilot's measurement replaced by `result`."""
    measured = []

    def measure(e, args, pins, command):
        measured.append(e["name"])
        return argparse.Namespace(out_dir=tmp_path / "pilot"), result, e["name"]
    monkeypatch.setattr(runner, "measure", measure)
    monkeypatch.setattr(runner, "store_and_render", lambda *a: 0)
    monkeypatch.setattr(runner, "identity", lambda: HERE)
    monkeypatch.setattr(store, "published", lambda name: pilot_result([0.010], os_name="vm-there"))
    wallet = experiments.load("wallet")
    runner.apply_setting(wallet, runner.parse_args(["wallet", "--setting", wanted]))
    return wallet, measured


def test_the_runner_runs_the_pilot_first_on_another_machine_and_takes_its_figure(monkeypatch, tmp_path):
    wallet, measured = run_stage(monkeypatch, tmp_path, pilot_result([0.0177]))
    assert measured == ["wallet-pilot"]
    assert wallet["load"]["ramp"] == [34, 68, 102, 136, 169]


def test_published_keeps_the_files_ramp_without_running_the_pilot(monkeypatch, tmp_path):
    here = 0.0177  # this machine's pilot figure, which `published` must not apply
    wallet, measured = run_stage(monkeypatch, tmp_path, pilot_result([here]), wanted="published")
    files = experiments.load("wallet")
    assert measured == [] and wallet["load"]["ramp"] == files["load"]["ramp"] != ramp.targets_from_rule(files["setting"], here)
    assert "applied" not in wallet["setting"]


def test_an_unsteady_pilot_still_sets_the_ramp_and_the_result_says_so(monkeypatch, tmp_path, capsys):
    from perflab.render import report
    wallet, _ = run_stage(monkeypatch, tmp_path, pilot_result([0.0193], steady=False))
    assert wallet["load"]["ramp"] == [31, 62, 93, 124, 155]
    assert "warning: the pilot's run was not steady (wallet-after: latency falling" in capsys.readouterr().out
    assert report.setting_lines(wallet)[0].endswith(
        "; the pilot's run was not steady: wallet-after: latency falling by 40 % of the median: not steady, "
        "lengthen the warm-up")


def test_a_pilot_that_broke_an_invariant_stops_the_run_before_its_figure_sets_the_ramp(monkeypatch, tmp_path):
    broken = "wallet-after: money conserved: total balance 99,990,000 != 100,000,000"
    with pytest.raises(SystemExit, match="broke its invariants, so its figure does not set the ramp: wallet-after: "
                                         "money conserved"):
        run_stage(monkeypatch, tmp_path, pilot_result([0.0177], broken=[broken]))


def test_a_pilot_that_measured_no_figure_stops_the_run(monkeypatch, tmp_path):
    with pytest.raises(SystemExit, match="no run measured 'connection time per transfer \\(s\\)'"):
        run_stage(monkeypatch, tmp_path, pilot_result([]))


def test_a_run_that_measured_its_pilot_here_does_not_name_the_published_one(monkeypatch):
    from perflab.measure import preparation
    wallet = experiments.load("wallet")
    monkeypatch.setattr(store, "published", lambda name: pilot_result([0.01], os_name="vm-there"))
    monkeypatch.setattr(preparation, "identity", lambda: HERE)
    assert len(preparation.calibrated_elsewhere(wallet, [])) == 1
    setting.apply(wallet, 0.0177, "here")
    assert preparation.calibrated_elsewhere(wallet, []) == []


def test_the_report_says_how_the_ramp_was_chosen_and_where_its_pilot_ran():
    from perflab.render import report
    wallet = experiments.load("wallet")
    wallet["load"]["ramp"] = [60, 120, 180, 240, 300]
    [published] = report.setting_lines(wallet)
    assert published == ("setting: the ramp 60 → 120 → 180 → 240 → 300/s, by the rule in [setting] on the "
                         "wallet-pilot result published when it ran")
    setting.apply(wallet, 0.0177, "on this run's machine (results/x/pilot)")
    assert report.setting_lines(wallet) == [
        "setting: the ramp 34 → 68 → 102 → 136 → 169/s, by the rule in [setting] on its pilot's connection time per "
        "transfer 17.7 ms, measured on this run's machine (results/x/pilot) (the file's ramp, from the pilot "
        "published with it: 60 → 120 → 180 → 240 → 300/s)"]
    assert report.setting_lines(experiments.load("wallet-fixed")) == []


def test_a_pilot_measured_for_a_published_run_is_published_under_its_own_name(monkeypatch, tmp_path):
    from perflab.render import publishing
    published = []
    monkeypatch.setattr(publishing, "publish", lambda out, name, result: published.append((out, name)) or
                        store.PUBLISHED / name)
    wallet = experiments.load("wallet")
    runner.publish_pilot(wallet, tmp_path, pilot_result([0.0177]))
    assert published == [(tmp_path, "wallet-pilot")]


def test_a_published_run_records_its_command_without_the_folder_it_ran_in():
    args = runner.parse_args(["wallet", "--publish", "wallet", "--out", "/somewhere/w"])
    assert runner.command_text(["wallet", "--max-rounds", "3", "--publish", "wallet", "--out", "/somewhere/w"],
                               args) == "./perflab ab wallet --max-rounds 3 --publish wallet"
    assert runner.command_text(["wallet", "--out=/somewhere/w", "--publish", "wallet"], args) == \
        "./perflab ab wallet --publish wallet"
    unpublished = runner.parse_args(["wallet", "--out", "/somewhere/w"])
    assert runner.command_text(["wallet", "--out", "/somewhere/w"], unpublished) == "./perflab ab wallet --out /somewhere/w"


def test_a_published_result_keeps_no_run_folder(tmp_path, monkeypatch):
    import json
    monkeypatch.setattr(store, "PUBLISHED", tmp_path / "published")
    run = tmp_path / "run"
    run.mkdir()
    (run / "result.json").write_text(json.dumps({**pilot_result([0.02]), "args": {"out": str(run), "aa": False}}))
    target, _ = store.copy_published(run, "wallet-pilot")
    assert json.loads((target / "result.json").read_text())["args"] == {"out": None, "aa": False}

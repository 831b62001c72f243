"""The runner's functions (tooling/perflab/runner.py, and the stages it calls: tooling/perflab/plan/planner.py, tooling/perflab/measure/cells.py): the default δ from
stats.MIN_DELTA, the cells of a sweep, the A/A twin, and a command experiment from its output to its result.json."""
import json
import os
import types

import pytest

from perflab.measure import cells
from perflab.results import schema
from perflab.plan import planner
from perflab import runner
from perflab.analyse import stats


def test_the_default_delta_and_its_words_come_from_stats_min_delta(monkeypatch, tmp_path):
    monkeypatch.setattr(runner.store, "PUBLISHED", tmp_path)
    monkeypatch.setattr(runner.store, "ROOT", tmp_path)
    e = {"name": "x", "primary": {"metric": "p95"}}
    args = types.SimpleNamespace(delta=None)
    assert planner.margin() == "3 %" and planner.delta_for(e, args) == (stats.MIN_DELTA, "default (3 %)", {})
    monkeypatch.setattr(stats, "MIN_DELTA", 0.05)
    assert planner.delta_for(e, args) == (0.05, "default (5 %)", {})
    assert planner.delta_for(dict(e, primary={"metric": "p95", "min_effect": 0.1}), args) == (0.1, "experiments/x.toml", {})
    assert planner.delta_for(e, types.SimpleNamespace(delta=0.2)) == (0.2, "--delta", {})


def test_the_help_states_the_default_delta(monkeypatch, capsys):
    monkeypatch.setattr(stats, "MIN_DELTA", 0.05)
    with pytest.raises(SystemExit):
        planner.parse_args(["--help"])
    assert "max(5 %, A/A noise floor)" in " ".join(capsys.readouterr().out.split())


def test_each_sweep_point_is_a_cell_with_its_own_tag():
    assert planner.points({}) == [(None, None)]
    assert planner.points({"sweep": {"parameter": "load.rate", "values": [50, 100.5]}}) == [("load.rate", 50), ("load.rate", 100.5)]
    assert cells.cell_tag("localhost", None, None) == "localhost"
    assert cells.cell_tag("cross-zone", "load.rate", 100.0) == "cross-zone-rate100"
    assert cells.cell_tag("localhost", "app.perflab.route.codec", "fory") == "localhost-fory"


def test_an_aa_runs_the_candidate_against_a_twin_of_itself():
    e = {"variants": [{"label": "A", "args": ["-a"]}, {"label": "B", "args": ["-b"]}]}
    twins = planner.aa_variants(e)
    assert twins == [{"label": "B", "args": ["-b"]}, {"label": "B (A/A)", "args": ["-b"]}]
    twins[0]["args"].append("changed")
    assert e["variants"][1]["args"] == ["-b"]


def test_a_duets_twin_gets_a_copy_of_the_database_of_its_own():
    b = {"label": "B", "database": "perflab_w", "seed": "./perflab seed wallet --db perflab_w ensure",
         "reset": "./perflab seed wallet --db perflab_w reset"}
    e = {"duet": True, "variants": [{"label": "A"}, b]}
    original, twin = planner.aa_variants(e)
    assert original == b and twin["database"] == "perflab_w_twin"
    assert twin["seed"] == "./perflab seed wallet --db perflab_w_twin ensure"
    assert twin["reset"] == "./perflab seed wallet --db perflab_w_twin reset"
    assert planner.aa_variants(dict(e, duet=False))[1]["database"] == "perflab_w"


def test_a_command_output_is_read_into_rows_with_numbers_where_they_read_as_one():
    e = {"metric": [{"name": "ops", "regex": r"^(?P<benchmark>\S+)\s+(?P<score>[\d,.]+)(?:\s+(?P<unit>\S+))?$"}]}
    rows = runner.command_rows(e, "decode 1,234.5 us/op\nencode 12\nnoise line here x y\n")
    assert rows == [{"metric": "ops", "benchmark": "decode", "score": 1234.5, "unit": "us/op"},
                    {"metric": "ops", "benchmark": "encode", "score": 12.0, "unit": None}]
    assert runner.number("n/a") == "n/a" and runner.number(None) is None and runner.number("1,000") == 1000.0


def test_a_command_experiment_writes_a_versioned_result_and_judges_its_checks(tmp_path, capsys):
    e = {"name": "echo", "kind": "command", "command": "printf 'sum 0.30000000000000004\\ncount 3\\n'",
         "metric": [{"name": "value", "regex": r"^(?P<what>\w+) (?P<value>[\d.]+)$"}],
         "check": [{"metric": "value", "where": {"what": "sum"}, "field": "value", "op": "==", "value": 0.3},
                   {"metric": "value", "where": {"what": "count"}, "field": "value", "op": "<", "value": 3}]}
    args = types.SimpleNamespace(out=str(tmp_path), smoke=False, publish=None)
    assert runner.run_command_experiment(e, args) == 1  # the sum is 0.3 within 1e-9; the count is not below 3
    out = capsys.readouterr().out
    assert "echo: 1 passed, 1 failed" in out and "FAIL  value value < 3" in out
    stored = json.loads((tmp_path / "result.json").read_text())
    assert stored["schema_version"] == schema.SCHEMA_VERSION and stored["exit"] == 0
    assert [r["what"] for r in stored["rows"]] == ["sum", "count"] and stored["checks"]["passed"] == 1
    assert (tmp_path / "REPORT.md").read_text().startswith("# echo")
    assert (tmp_path / "output.txt").read_text() == "sum 0.30000000000000004\ncount 3\n"


def test_a_planted_share_is_that_share_of_the_aas_median_in_whole_microseconds(monkeypatch, tmp_path):
    monkeypatch.setattr(runner.store, "PUBLISHED", tmp_path)
    monkeypatch.setattr(runner.store, "ROOT", tmp_path)
    e = {"name": "wallet-x", "primary": {"metric": "p95"}}
    assert cells.planted_cpu(e, "150us", "localhost") == "150us"
    assert cells.planted_cpu(e, None, "localhost") is None
    with pytest.raises(SystemExit, match="no A/A of wallet-x named on localhost"):
        cells.planted_cpu(e, "5%", "localhost")
    with pytest.raises(SystemExit, match="A/A wallet-x-aa: no wallet-x-aa/result.json"):  # named, not there
        cells.planted_cpu(e, "5%", "localhost", ["wallet-x-aa"])
    aa = tmp_path / "wallet-x-aa"
    aa.mkdir()
    calibration = [{"profile": "localhost", "metric": "p95", "noise_floor": 0.04, "observed": {"median_a": 6.2}}]
    (aa / "result.json").write_text(json.dumps({"schema_version": schema.SCHEMA_VERSION, "experiment": {"name": "wallet-x"},
                                                "calibration": calibration}))
    with pytest.raises(SystemExit, match="no A/A of wallet-x named"):  # published, but not named: never searched for
        cells.planted_cpu(e, "5%", "localhost")
    assert cells.planted_cpu(e, "5%", "localhost", ["wallet-x-aa"]) == "310us"
    assert cells.planted_cpu(dict(e, primary={"metric": "p95", "floors": "wallet-x-aa"}), "5%", "localhost") == "310us"


def test_the_power_check_and_the_aa_are_two_runs():
    with pytest.raises(SystemExit, match="leave --aa out"):
        runner.main(["wallet-interleaved", "--aa", "--plant", "5%"])


def test_plant_needs_an_interleaved_experiment():
    with pytest.raises(SystemExit, match="not interleaved"):
        runner.main(["wallet-fixed", "--plant", "5%"])


def test_plan_refuses_an_interleaved_file_and_a_missing_pilot(monkeypatch, tmp_path):
    monkeypatch.setattr(runner.store, "PUBLISHED", tmp_path)
    monkeypatch.setattr(runner.store, "ROOT", tmp_path)
    e = {"name": "x", "primary": {"metric": "p95"}, "profiles": ["localhost"]}
    with pytest.raises(SystemExit, match="is interleaved"):
        planner.plan_lifetimes(dict(e, interleave=True), types.SimpleNamespace(plan="5%", planned=None, confidence=None))
    with pytest.raises(SystemExit, match="no A/A of x named to plan from"):
        planner.plan_lifetimes(e, types.SimpleNamespace(plan="5%", planned=None, confidence=None, floors=None))
    with pytest.raises(SystemExit, match="such as 5%"):
        planner.plan_lifetimes(e, types.SimpleNamespace(plan="120%", planned=None, confidence=None))
    with pytest.raises(SystemExit, match="give one"):
        planner.plan_lifetimes(e, types.SimpleNamespace(plan="5%", planned="5%", confidence=None))


def test_a_share_is_a_percentage_or_a_fraction_strictly_between_0_and_1():
    assert planner.share("5%", "--plan", "a floor") == pytest.approx(0.05)
    assert planner.share("0.8", "--confidence", "a level") == pytest.approx(0.8)
    for bad in ("100%", "0", "eighty%", "-5%"):
        with pytest.raises(SystemExit, match=f"--confidence: a level, not {bad}"):
            planner.share(bad, "--confidence", "a level")


def test_the_run_says_how_many_rounds_it_plans():
    assert planner.rounds_text({"rounds": 10, "max_rounds": 20}) == "10 round(s) per variant (cap 20)"
    planned = {"rounds": 10, "max_rounds": 20, "planned": {"cross-zone": {"rounds": 28, "lifetimes": 2}}}
    assert planner.rounds_text(planned) == "28 rounds per variant in 2 lifetimes on cross-zone (--planned)"


def test_a_runs_mode_of_separate_jvms_names_its_aa():
    assert planner.separate_jvm_mode({}) is None
    assert planner.separate_jvm_mode({"duet": True}) == "duet"
    assert planner.separate_jvm_mode({"duet": True, "planned": {"localhost": {}}}) == "duet-planned"
    assert planner.separate_jvm_mode({"pinned": "app on core 1"}) == "pinned"


def test_a_command_experiments_reset_runs_after_it_and_a_failed_one_is_said(tmp_path):
    """[dataset] reset of a command experiment (the JDBC ceiling's transfers undone): run once after the command,
    as a data command through the lab; a failure comes back as text the checks see, none when it went well."""
    marker = tmp_path / "reset"
    assert runner.reset_after_command({"name": "x", "dataset": {"reset": f"touch {marker}"}}, dict(os.environ)) == ""
    assert marker.exists()
    said = runner.reset_after_command({"name": "x", "dataset": {"reset": "echo no database >&2; exit 3"}}, dict(os.environ))
    assert "reset failed" in said and "no database" in said
    assert runner.reset_after_command({"name": "x"}, dict(os.environ)) == ""


def test_reanalysing_a_command_result_is_refused_by_name():
    with pytest.raises(SystemExit, match="--reanalyse route-jmh: a command experiment's result"):
        runner.reanalyse("route-jmh")


def test_a_reanalysis_names_the_aa_that_sets_its_margin_even_when_the_floor_is_below_3_percent(monkeypatch):
    from perflab.plan import planner
    monkeypatch.setattr(planner.store, "noise_floor", lambda e, floors: ({"localhost": 0.0, "same-zone": 0.109}, "x-aa"))
    monkeypatch.setattr(planner.store, "also_floors", lambda e, floors: {"same-zone": {"breaking_rate": 0.5}})
    result = {"delta": 0.03, "delta_source": "default (3 %)"}
    per_profile, also = runner.refresh_margin({"name": "x", "primary": {"metric": "tps", "floors": "x-aa"}}, result)
    assert per_profile == {"localhost": 0.03, "same-zone": 0.109} and also == {"same-zone": {"breaking_rate": 0.5}}
    assert result["delta"] == 0.03
    assert "localhost 3.0 %" in result["delta_source"] and "same-zone 10.9 %" in result["delta_source"]
    assert "from x-aa" in result["delta_source"]


def test_a_reanalysis_says_beside_delta_when_its_aa_ran_on_another_machine_than_the_run(monkeypatch):
    from perflab.plan import planner
    monkeypatch.setattr(planner.store, "noise_floor", lambda e, floors: ({"same-zone": 1.437}, "x-aa"))
    monkeypatch.setattr(planner.store, "also_floors", lambda e, floors: {})
    monkeypatch.setattr(runner.store, "aa_result", lambda name: ({"machine": {"os": "vm-657", "cores": 2}}, name))
    e = {"name": "x", "primary": {"metric": "p95", "floors": "x-aa"}}
    result = {"machine": {"os": "vm-782", "cores": 2, "commit": "abc"}}
    runner.refresh_margin(e, result)
    assert result["delta_source"].endswith("; its A/A x-aa ran on another machine than this run: os vm-657 (here vm-782)")
    same = {"machine": {"os": "vm-657", "cores": 2}}
    runner.refresh_margin(e, same)
    assert "another machine" not in same["delta_source"]


def test_a_reanalysis_takes_the_files_floors_and_write_up_but_keeps_the_run_as_it_ran(tmp_path, monkeypatch):
    from perflab.plan import experiment as experiments
    monkeypatch.setattr(experiments, "DIR", tmp_path)
    (tmp_path / "t.toml").write_text(
        '[[variant]]\nlabel = "before"\n[[variant]]\nlabel = "after"\n[load]\nscript = "k6/transfer.js"\nrate = 99\n'
        '[primary]\nmetric = "p95"\nfloors = "t-aa"\n'
        '[[writeup]]\nvariant = "after"\nstage = "(2)"\nsource = "004, s"\nfigures = { p95 = 10 }\nwhy = "a reason"\n')
    snapshot = {"name": "t", "primary": {"metric": "p95"}, "load": {"rate": 50}, "variants": [{"label": "before"}],
                "writeup": [{"variant": "after", "stage": "(2)", "source": "004, s", "figures": {"p95": 11}}]}
    runner.refresh_from_file(snapshot)
    assert snapshot["primary"]["floors"] == "t-aa"
    assert snapshot["writeup"][0]["why"] == "a reason" and snapshot["writeup"][0]["figures"] == {"p95": 10}
    assert snapshot["load"] == {"rate": 50} and snapshot["variants"] == [{"label": "before"}]  # the run's setting stays
    gone = {"name": "no-such-file", "primary": {"metric": "p95"}}
    runner.refresh_from_file(gone)
    assert gone == {"name": "no-such-file", "primary": {"metric": "p95"}}

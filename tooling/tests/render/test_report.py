"""The report and the docs' tables, from a result built the way the runner builds one (real stats, synthetic runs)."""
import math

import pytest

from perflab.analyse import comparison
from perflab.plan import experiment as experiments  # the helper experiment() below builds one in memory
from perflab.render import html_page
from perflab.plan import planner
from perflab.render import report
from perflab.render import report_sections
from perflab.render import report_views
from perflab.results import units
from perflab.analyse import writeup
from perflab.render import publishing
from perflab.results import store
from perflab import runner
from perflab.paths import ROOT


def test_the_verdict_says_why_with_the_mechanism(build):
    r = build.result()
    primary = r["cells"][0]["comparisons"][0]
    assert primary["primary"]["verdict"] == "better"
    assert "because statements 12.0 → 5" in primary["because"]
    assert r["verdict"]["ok"]


def test_a_win_whose_mechanism_did_not_move_is_flagged(build):
    r = build.result(b_statements=12.0)
    assert "mechanism not shown" in r["cells"][0]["comparisons"][0]["because"]


def test_markdown_and_html_hold_the_verdict_table_rounds_and_latency_charts(build):
    r = build.result()
    md = report.markdown(r)
    assert "| B-side | p95 (ms) | 105.5 | 55.5 |" in md
    html = html_page.html(r)
    for element in ('id="verdict-table"', 'id="rounds-chart"', 'id="latency-chart"'):
        assert element in html
    assert "https://" not in html


def test_views_render_the_tables_the_docs_embed(build):
    table = report_views.view(build.result(), "verdict")
    assert table.splitlines()[0].startswith("| network | variants | primary |")
    assert "A-side → B-side" in table and "better" in table
    assert "./perflab ab x" in table


def test_formatting_of_missing_values():
    assert units.fmt(math.nan) == "–"
    assert units.fmt(0.0123, "error_rate") == "1.23%"


def test_an_aa_run_states_its_noise_floor_and_false_positive_rate(build):
    import random
    rng = random.Random(3)
    e = build.experiment()
    e["variants"] = [{"label": "B-side", "args": []}, {"label": "B-side (A/A)", "args": []}]
    runs = [build.run(label, i, 100.0 * rng.gauss(1, 0.04), 5.0) for i in range(1, 11) for label in ("B-side", "B-side (A/A)")]
    cell = {"profile": "localhost", "network": "localhost", "parameter": None, "value": None, "tag": "localhost", "runs": runs}
    cell["comparisons"] = comparison.compare(e, runs, 0.03)
    calibration = comparison.calibrate(e, [cell])
    assert calibration[0]["false_positive_rate"] <= 0.05
    assert 0 < calibration[0]["noise_floor"] < 0.5
    r = dict(build.result(), experiment=e, cells=[cell], calibration=calibration)
    table = report_views.view(r, "aa")
    assert "noise floor" in table and "false positives" in table
    assert "false-positive rate" in report.aa_sentence(calibration[0])


def test_publishing_compares_the_primary_verdict_with_the_run_published_before(tmp_path, monkeypatch, build):
    monkeypatch.setattr(store, "PUBLISHED", tmp_path)
    assert store.reproduction("x", build.result()["verdict"]) is None
    first = build.result()
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "result.json").write_text(__import__("json").dumps(first))
    again = build.result()
    again["reproduction"] = store.reproduction("x", again["verdict"])
    assert again["reproduction"]["same"] is True
    assert "reproduces the primary verdict published before" in report_views.view(again, "verdict")
    worse = build.result(b_p95=150.0)
    worse["reproduction"] = store.reproduction("x", worse["verdict"])
    assert worse["reproduction"]["same"] is False
    assert worse["reproduction"]["cells"][0] == {"profile": "localhost", "value": None, "candidate": "B-side",
                                                 "verdict": "worse", "previous": "better", "control": False}
    assert "primary verdict DIFFERS" in report.markdown(worse)


def test_a_control_that_changes_its_verdict_is_reported_but_does_not_decide_the_reproduction(tmp_path, monkeypatch):
    monkeypatch.setattr(store, "PUBLISHED", tmp_path)
    cell = lambda candidate, verdict, expect: {"profile": "localhost", "value": None, "candidate": candidate,
                                               "verdict": verdict, "expect": expect, "ok": True}
    before = {"started": "2026-11-23T18:35:24", "machine": {"commit": "c0872f2"},
              "verdict": {"cells": [cell("warm", "better", "better"), cell("aot alone", "inconclusive", "any")]}}
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "result.json").write_text(__import__("json").dumps(before))
    control_moved = store.reproduction("x", {"cells": [cell("warm", "better", "better"), cell("aot alone", "no difference", "any")]})
    assert control_moved["same"] is True and control_moved["controls_same"] is False
    sentence = report.reproduction_sentence(control_moved)
    assert "the controls do not all repeat theirs" in sentence
    assert "aot alone (a control): no difference (before: inconclusive)" in sentence
    claim_moved = store.reproduction("x", {"cells": [cell("warm", "inconclusive", "better"), cell("aot alone", "inconclusive", "any")]})
    assert claim_moved["same"] is False and claim_moved["controls_same"] is True
    only_controls = store.reproduction("x", {"cells": [cell("aot alone", "inconclusive", "any")]})
    assert only_controls["same"] is False


def test_the_mechanisms_view_lists_each_declared_mechanism_per_network(build):
    table = report_views.view(build.result(), "mechanisms")
    assert "| network | mechanism (median per run) | A-side → B-side | B/A | 95% interval | verdict |" in table
    row = next(line for line in table.splitlines() if "| statements |" in line)
    assert "12.0 → 5" in row and row.rstrip().endswith("| better |")
    assert "p95" not in table.split("<sub>")[0]


def test_a_sweep_cell_keeps_its_title_in_one_column_of_a_markdown_table(build):
    r = build.result()
    r["cells"][0].update(parameter="app.perflab.route.codec", value="fory")
    table = report_views.view(r, "mechanisms").split("<sub>")[0].strip().splitlines()
    columns = {line.replace("\\|", "").count("|") for line in table}
    assert columns == {7}
    assert "localhost: every service on localhost, no proxy \\| app.perflab.route.codec = fory" in table[2]


def test_delta_is_the_noise_floor_of_each_profile_from_the_named_aa(tmp_path, monkeypatch, build):
    monkeypatch.setattr(store, "PUBLISHED", tmp_path)
    monkeypatch.setattr(store, "ROOT", tmp_path)
    monkeypatch.setattr(publishing, "ROOT", tmp_path)
    args = type("Args", (), {"delta": None, "floors": None})()
    e = build.experiment()
    assert planner.delta_for(e, args) == (0.03, "default (3 %)", {})
    (tmp_path / "x-aa").mkdir()
    (tmp_path / "x-aa" / "result.json").write_text(__import__("json").dumps(
        {"experiment": {"name": e["name"]},
         "calibration": [{"profile": "cross-zone", "noise_floor": 0.4}, {"profile": "localhost", "noise_floor": 0.01}]}))
    assert planner.delta_for(e, args) == (0.03, "default (3 %)", {})  # published, not named
    args.floors = ["x-aa"]
    delta, source, per_profile = planner.delta_for(e, args)
    assert delta == 0.03 and per_profile == {"cross-zone": 0.4, "localhost": 0.03}
    assert "cross-zone 40.0 %, localhost 3.0 %" in source and "from x-aa/result.json" in source


def test_a_metric_claimed_beside_the_primary_takes_its_own_floor_from_the_named_aa(tmp_path, monkeypatch, build):
    monkeypatch.setattr(store, "PUBLISHED", tmp_path)
    monkeypatch.setattr(store, "ROOT", tmp_path)
    monkeypatch.setattr(publishing, "ROOT", tmp_path)
    e = dict(build.experiment(), primary={"metric": "p95", "also": ["breaking_rate"], "expect": "better", "floors": "x-aa"})
    (tmp_path / "x-aa").mkdir()
    (tmp_path / "x-aa" / "result.json").write_text(__import__("json").dumps(
        {"experiment": {"name": e["name"]},
         "calibration": [{"profile": "same-zone", "metric": "p95", "noise_floor": 1.437},
                         {"profile": "same-zone", "metric": "breaking_rate", "noise_floor": 0.0, "co_primary": True},
                         {"profile": "same-zone", "metric": "cpu", "noise_floor": 0.5, "co_primary": True}]}))
    args = type("Args", (), {"delta": None, "floors": None})()
    assert planner.delta_for(e, args)[2] == {"same-zone": 1.437}
    assert planner.also_deltas_for(e, args) == {"same-zone": {"breaking_rate": 0.03}}  # the claimed one, at least 3 %
    assert planner.also_deltas_for(e, type("Args", (), {"delta": 0.2, "floors": None})()) == {}  # --delta sets all
    assert planner.also_deltas_for(dict(e, primary=dict(e["primary"], floors=[])), args) == {}


def test_a_file_that_extends_another_inherits_its_named_aa_on_the_same_metric_only(tmp_path, monkeypatch, build):
    monkeypatch.setattr(store, "PUBLISHED", tmp_path)
    monkeypatch.setattr(store, "ROOT", tmp_path)
    monkeypatch.setattr(publishing, "ROOT", tmp_path)
    json = __import__("json")
    args = type("Args", (), {"delta": None, "floors": None})()
    (tmp_path / "wallet-aa").mkdir()
    (tmp_path / "wallet-aa" / "result.json").write_text(json.dumps(
        {"experiment": {"name": "wallet"}, "calibration": [{"profile": "localhost", "metric": "p95", "noise_floor": 0.251}]}))
    sweep = dict(build.experiment(), name="wallet-sweep", lineage=["wallet"],
                 primary={"metric": "p95", "expect": "better", "floors": "wallet-aa"})
    delta, source, per_profile = planner.delta_for(sweep, args)
    assert per_profile == {"localhost": 0.251}
    assert "the A/A of wallet" in source
    capacity = dict(sweep, name="wallet-capacity", primary={"metric": "capacity", "expect": "better", "floors": "wallet-aa"})
    assert planner.delta_for(capacity, args) == (0.03, "default (3 %)", {})


def test_every_file_that_names_an_aa_names_one_that_is_published():
    for path in sorted((ROOT / "experiments").glob("*.toml")):
        if path.stem in ("machine", "network"):
            continue
        e = experiments.load(path.stem)
        for name in store.named_floors(e) if e["kind"] != "command" else []:
            assert (store.PUBLISHED / name / "result.json").is_file(), f"{path.name} names the A/A {name}: not published"


@pytest.mark.parametrize("name", [p.name for p in store.published_folders()])
def test_every_published_stage_that_differs_from_its_write_up_says_why(name):
    r = store.load_published(name)
    if r.get("calibration"):
        return  # an A/A: its twin is no stage of the case study
    for cell in r["cells"]:
        t = writeup.table(r["experiment"], cell["runs"], cell.get("delta") or 0.03)
        unexplained = [d["stage"] for d in (t["differ"] if t else []) if not d["why"]]
        assert not unexplained, (f"docs/results/{name}: {', '.join(unexplained)} differ from the write-up with no reason: "
                                 f"a why in experiments/{r['experiment']['name']}.toml's [[writeup]], then ./perflab ab --reanalyse {name}")


def test_an_extending_file_records_what_it_extends_nearest_first():
    e = experiments.load("wallet-sweep")
    assert e["lineage"] == ["wallet-fixed"]
    assert "lineage" not in experiments.load("wallet-fixed")


def test_the_report_states_instance_lifetimes_their_start_orders_and_settling():
    lifetimes = [{"start_order": ["A", "B"], "settled": {"A": {"seconds": 2.0, "quiet": True}, "B": {"seconds": 14.1, "quiet": True}}},
                 {"start_order": ["B", "A"], "settled": {"B": {"seconds": 2.0, "quiet": True}, "A": {"seconds": 60.2, "quiet": False}}}]
    text = report.lifetimes_sentence(lifetimes)
    assert text.startswith("2 instance lifetime(s)")
    assert "A → B; B → A" in text
    assert "2–60.2 s" in text
    assert text.endswith("still busy when settling stopped: A")


def test_the_jmh_view_keeps_one_row_per_benchmark_with_its_bytes_per_op():
    rows = [{"benchmark": "B.decode", "codec": "fory", "mode": "sample", "score": 203.7, "error": 1.88, "units": "us/op"},
            {"benchmark": "B.decode:gc.alloc.rate.norm", "codec": "fory", "mode": "sample", "score": 418827.0, "error": 22.9, "units": "B/op"},
            {"benchmark": "B.decode:p0.50", "codec": "fory", "mode": "sample", "score": 177.4, "error": None, "units": "us/op"},
            {"benchmark": "B.decode", "codec": "jackson", "mode": "sample", "score": 4997.2, "error": 117.5, "units": "us/op"}]
    table = report_views.view({"rows": rows, "cells": [], "command": "./perflab ab x", "started": "t"}, "jmh")
    lines = [l for l in table.splitlines() if l.startswith("| decode")]
    assert len(lines) == 2
    assert "fory" in lines[0] and "418,827" in lines[0]
    assert "jackson" in lines[1] and lines[1].rstrip().endswith("| – |")


def test_a_win_without_a_declared_mechanism_says_so_rather_than_mechanism_not_shown():
    e = {"primary": {"metric": "capacity", "mechanisms": []}, "mechanism": []}
    row = {"metric": "capacity", "median_a": 490.0, "median_b": 710.0, "ratio": 1.45, "verdict": "better"}
    text = comparison.because(e, [row], row)
    assert "no mechanism declared" in text and "mechanism not shown" not in text


def test_the_aa_floor_is_for_the_files_rounds_over_instance_lifetimes_and_recalibrate_reprints_it(tmp_path, monkeypatch, capsys, build):
    import json
    import random
    rng = random.Random(5)
    e = build.experiment()
    e["variants"] = [{"label": "B-side", "args": []}, {"label": "B-side (A/A)", "args": []}]
    runs = []
    for life in range(4):  # 4 instance lifetimes of 5 rounds; each instance keeps its own offset for its lifetime
        offsets = {label: rng.gauss(1, 0.08) for label in ("B-side", "B-side (A/A)")}
        for i in range(1, 6):
            for label in ("B-side", "B-side (A/A)"):
                runs.append(dict(build.run(label, 5 * life + i, 100.0 * offsets[label] * rng.gauss(1, 0.02), 5.0), lifetime=life))
    cell = {"profile": "localhost", "network": "localhost", "parameter": None, "value": None, "tag": "localhost", "runs": runs}
    calibration = comparison.calibrate(e, [cell])[0]
    assert calibration["rounds"] == 10 and calibration["lifetimes"] == 4
    assert "drawn as whole instance lifetimes (of 4)" in report.aa_sentence(calibration)
    monkeypatch.setattr(store, "PUBLISHED", tmp_path)
    (tmp_path / "x-aa").mkdir()
    published = dict(name="x-aa", command="./perflab ab x --aa --publish x-aa", started="2026-11-23T11:19:25", machine={"commit": "abc"},
                     experiment=e, cells=[cell], calibration=[{"profile": "localhost", "noise_floor": 0.01}])
    (tmp_path / "x-aa" / "result.json").write_text(json.dumps(published))
    assert runner.main(["--recalibrate", "x-aa"]) == 0
    printed = capsys.readouterr()
    assert f"noise floor {100 * calibration['noise_floor']:.1f} %" in printed.out + printed.err
    ratios = comparison.lifetime_ratios(e, runs, "p95")
    assert len(ratios) == 4 and f"per instance lifetime, B/A of the medians: {ratios[0]:.3g}" in printed.out + printed.err
    assert json.loads((tmp_path / "x-aa" / "result.json").read_text())["calibration"][0]["noise_floor"] == 0.01


def test_an_aa_is_judged_at_its_own_noise_floor_the_delta_an_ab_gets(build):
    e = build.experiment()
    cell = {"profile": "localhost", "value": None, "comparisons": [{"candidate": "B-side (A/A)", "primary": {"verdict": "worse"}}]}
    calibrated = lambda verdict: [{"profile": "localhost", "fpr_ok": True, "observed": {"verdict": verdict}}]  # noqa: E731
    quiet = comparison.overall(e, [cell], True, calibrated("no difference"))
    assert quiet["ok"] and quiet["cells"][0]["verdict"] == "no difference"
    apart = comparison.overall(e, [cell], True, calibrated("worse"))
    assert not apart["ok"] and apart["cells"][0]["verdict"] == "worse"
    assert comparison.overall(e, [cell], True, [{"profile": "localhost", "skipped": "fewer than 3 A/A rounds"}])["cells"][0]["verdict"] == "worse"
    assert comparison.overall(e, [cell], False, calibrated("no difference"))["cells"][0]["verdict"] == "worse"


def test_a_variant_expects_its_own_verdict_and_a_control_never_fails_the_run(build):
    e = build.experiment()
    e["variants"] += [{"label": "C-side", "args": [], "expect": "any"}, {"label": "D-side", "args": [], "expect": "tie"}]
    cell = {"profile": "localhost", "value": None, "comparisons": [
        {"candidate": "B-side", "primary": {"verdict": "better"}},
        {"candidate": "C-side", "primary": {"verdict": "inconclusive"}},
        {"candidate": "D-side", "primary": {"verdict": "no difference"}}]}
    v = comparison.overall(e, [cell], False, None)
    assert v["ok"] and [x["expect"] for x in v["cells"]] == ["better", "any", "tie"]
    cell["comparisons"][2]["primary"]["verdict"] = "better"
    assert not comparison.overall(e, [cell], False, None)["ok"]  # a tie that came out better is not what D-side expects
    cell["comparisons"][2]["primary"]["verdict"] = "no difference"
    cell["comparisons"][0]["primary"]["verdict"] = "no difference"
    assert not comparison.overall(e, [cell], False, None)["ok"]  # [primary]'s expect still holds for B-side


def test_the_report_names_the_controls_it_makes_no_claim_about(build):
    r = build.result()
    r["verdict"]["cells"][0]["expect"] = "any"
    assert "controls, reported without a claim (`expect = \"any\"`): B-side" in report.markdown(r)
    assert "B-side better (a control, no claim)" in report.text(r)


def test_an_experiment_file_with_an_unknown_expectation_is_refused_by_name(tmp_path, monkeypatch):
    (tmp_path / "odd.toml").write_text('[[variant]]\nlabel = "a"\n[[variant]]\nlabel = "b"\nexpect = "faster"\n')
    monkeypatch.setattr(experiments, "DIR", tmp_path)
    monkeypatch.setattr(experiments, "ROOT", tmp_path)
    with pytest.raises(SystemExit, match="variant 'b' expect = 'faster'; one of better, worse, tie, any"):
        experiments.load("odd")


@pytest.mark.parametrize("signum", ["SIGTERM", "SIGHUP", "SIGINT"])
def test_a_runner_stopped_by_a_signal_runs_its_cleanup(tmp_path, signum):
    import signal
    import subprocess
    import sys
    marker = tmp_path / "cleaned"
    child = subprocess.Popen([sys.executable, "-c", f"""
import signal, sys
sys.path.insert(0, {str(runner.ROOT / 'tooling')!r})
signal.signal(signal.SIGINT, signal.SIG_IGN)  # as a run started in the background inherits it
from perflab import runner
runner.stop_on_signals()
try:
    print("ready", flush=True)
    signal.pause()
except KeyboardInterrupt:
    sys.exit(130)
finally:
    open({str(marker)!r}, "w").write("apps stopped")
"""], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "ready"
    child.send_signal(getattr(signal, signum))
    assert child.wait(timeout=60) == 130  # generous: CI runs this beside Maven's suite on two cores
    assert marker.read_text() == "apps stopped"


@pytest.mark.parametrize("before, after, verdict", [
    ((400, 420, 410), (1000, 1000, 1000), "better"),        # only the candidate held the max: its capacity is higher still
    ((1000, 1000, 1000), (1000, 1000, 1000), "inconclusive"),  # both held it: the ratio of two bounds says nothing
    ((1000, 1000, 1000), (990, 1000, 1000), "inconclusive"),   # a baseline bound against a candidate near it
])
def test_a_capacity_search_that_held_the_max_is_a_bound_not_a_measurement(before, after, verdict, build):
    e = build.capacity_experiment()
    runs = []
    for i in range(3):
        runs.append(build.search("A-side", i + 1, before[i], None if before[i] == 1000 else before[i] + 10))
        runs.append(build.search("B-side", i + 1, after[i], None if after[i] == 1000 else after[i] + 10))
    [compared] = comparison.compare(e, runs, 0.03)
    primary = compared["primary"]
    assert primary["verdict"] == verdict
    assert any("held the search's max (1000/s)" in w and "raise [capacity] max" in w for w in primary["warnings"])
    assert [r["metric"] for r in compared["rows"]] == ["capacity"]  # the mechanism no search read has no row


def test_a_capacity_search_that_broke_everywhere_is_judged_as_measured(build):
    e = build.capacity_experiment()
    runs = [build.search(label, i, c, c + 10) for i in range(1, 4) for label, c in (("A-side", 400 + i), ("B-side", 700 + i))]
    [compared] = comparison.compare(e, runs, 0.03)
    assert compared["primary"]["verdict"] == "better" and "censored" not in compared["primary"]


def test_the_capacity_table_says_which_search_never_broke(build):
    e = build.capacity_experiment()
    runs = [build.search("A-side", 1, 400, 410), build.search("A-side", 2, 1000, None), build.search("B-side", 1, 1000, None)]
    result = {"experiment": e, "command": "./perflab ab x", "started": "t", "machine": {"commit": "c"},
              "cells": [{"network": "localhost", "profile": "localhost", "runs": runs, "comparisons": []}]}
    table = report_views.view(result, "capacity")
    assert "| A-side | 400, 1000 | 410, none up to 1000 |" in table
    assert "| B-side | 1000 | none up to 1000 |" in table


def test_the_first_line_states_each_profiles_verdict_in_words_and_whether_it_was_expected(build):
    r = build.result()
    primary = r["cells"][0]["comparisons"][0]["primary"]
    lo, hi = primary["interval"]
    line = (f"As expected. localhost: better (p95 B/A {units.ratio_text(primary['ratio'])}, 95 % interval "
            f"{units.ratio_text(lo)}–{units.ratio_text(hi)}), as expected")
    assert units.ratio_text(primary["ratio"]) == "0.53"
    assert report.text(r).splitlines()[0] == line
    assert report.markdown(r).splitlines()[2] == "**As expected.**" + line[len("As expected."):]


def test_the_published_wallet_report_opens_with_both_profiles_verdicts():
    r = store.load_published("wallet-fixed")
    assert report.headline(r) == (
        "Not as expected. cross-zone: better (p95 B/A 0.37, 95 % interval 0.11–0.40), as expected; "
        "localhost: no difference (p95 B/A 0.98, 95 % interval 0.85–1.05, δ 25 %), expected better")


def test_an_aa_headline_is_judged_at_the_noise_floor_and_several_candidates_are_named():
    aa = store.load_published("wallet-fixed-aa")
    assert report.headline(aa).startswith("As expected (each A/A at δ = its noise floor). cross-zone: no difference "
                                          "(p95 B/A 1.02, 95 % interval 0.98–1.05, δ 8.1 %), as expected")
    slow = store.load_published("slow-dependency")
    assert "; localhost, bulkhead: better (p50 B/A 0.0046, 95 % interval 0.0041–0.0057), as expected" in report.headline(slow)


def test_every_warning_names_its_metric_and_why_it_matters(build):
    r = build.result()
    for run in r["cells"][0]["runs"][:10]:  # the baseline never reads "statements"
        run["mechanism"]["statements"] = None
    r["cells"][0]["comparisons"] = comparison.compare(r["experiment"], r["cells"][0]["runs"], 0.03)
    warnings = [line for line in report.markdown(r).splitlines() if line.startswith("- warning:")]
    assert warnings
    assert all(" (a " in w or " (the primary metric" in w for w in warnings)
    assert any(w.startswith("- warning: statements (a declared mechanism: the \"because\" sentence reads it): ")
               and "only 0 round(s), fewer than 10" in w for w in warnings)
    assert not any(w.startswith("- warning: only") for w in warnings)


@pytest.mark.parametrize("value, metric, text", [
    (7.5e-05, "connection wait per transfer (s)", "0.075 ms"), (0.0425, "connection time per transfer (s)", "42.5 ms"),
    (6.08e-06, "connection wait per transfer (s)", "0.00608 ms"), (0.454, "GC pause seconds", "454.0 ms"),
    (2.5, "decode seconds per request", "2.5 s"), (1234.0, "write seconds per request", "1,234 s"),
    (0.00126, "Redis CPU per transfer (ms)", "0.00126"), (7.5e-05, "", "0.000075"), (0.417, "", "0.417"),
    (5.0, "", "5"), (12.0, "", "12.0"), (64152.0, "", "64,152"), (0.0, "statements", "0")])
def test_numbers_and_durations_read_as_a_person_expects(value, metric, text):
    assert units.fmt(value, metric) == text


@pytest.mark.parametrize("name", [p.name for p in store.published_folders()])
def test_no_published_report_prints_a_number_in_exponent_notation(name):
    import re
    r = store.load_published(name)
    md = re.sub(r"\(Kendall p = [^)]*\)", "", publishing.report_markdown(r))  # a run's stored steadiness test, a p-value
    assert not re.search(r"\d(?:\.\d+)?e[-+]\d", md), re.search(r".{40}\d(?:\.\d+)?e[-+]\d.{20}", md).group(0)
    assert md.count(" (s) ") == 0  # a metric in seconds prints its values with their unit, not "(s)"


def test_a_smoke_run_says_its_verdict_is_not_judged_instead_of_not_as_expected():
    result = store.load_published("wallet-fixed")
    result["args"] = {**result.get("args", {}), "smoke": True}
    lines = report.text(result).splitlines()
    assert lines[0].startswith("not judged") and lines[-1].startswith("verdict: not judged")
    assert not any("NOT as expected" in line or "Not as expected" in line for line in lines)


def test_a_cold_start_sets_the_jit_and_gc_it_measured_beside_its_success_and_keeps_them_out_of_its_own_view(build):
    e = dict(build.experiment(), load={"shape": "cold-start", "script": "k6/cold-start.js"},
             primary={"metric": "success_pct", "expect": "better"}, mechanism=[])
    measured = {"jit_compile_ms": 900.0, "jit_compilations": 1200, "c2_compile_ms": 600.0, "c2_compilations": 300,
                "deoptimizations": 40, "young_gcs": 5, "old_gcs": 0, "gc_pause_ms": 30.0}
    runs = [{"variant": label, "round": i, "testid": f"x-{label}-r{i}", "ready_ms": 6000.0, "success_pct": pct,
             "first100_p99": 900.0, "first1000_p99": 800.0, "steady_p99": 70.0, "first100_p99_over_steady": 12.9,
             **{k: v * i for k, v in measured.items()}, "mechanism": {}, "invariants": [], "series": []}
            for label, pct in (("A-side", 90.0), ("B-side", 98.0)) for i in (1, 2, 3)]
    cell = {"profile": "localhost", "network": "localhost", "parameter": None, "value": None, "tag": "localhost",
            "runs": runs}
    cell["comparisons"] = comparison.compare(e, runs, 0.03)
    r = {"experiment": e, "command": "./perflab ab x", "machine": {"commit": "abc"}, "started": "t", "cells": [cell]}
    jit = report_views.view(r, "cold-start-jit").splitlines()
    assert jit[0] == ("| variant | runs | success (%) (median) | compile time (ms) (median) | compilations (median) | "
                      "C2 compile time (ms) (median) | C2 compilations (median) | deoptimizations (median) | "
                      "young GCs (median) | old GCs (median) |")  # no focus measured: no column of dashes
    assert jit[2] == "| A-side | 3 | 90.0 | 1,800 | 2,400 | 1,200 | 600.0 | 80.0 | 10.0 | 0 |"
    assert report_views.view(r, "cold-start").splitlines()[0] == (
        "| variant | runs | ready (ms) (median) | success (%) (median) | first 100 p99 (ms) (median) | "
        "first 1k p99 (ms) (median) | steady p99 (ms) (median) | first 100 p99 / steady (median) |")
    compared = {row["metric"] for row in cell["comparisons"][0]["rows"]}
    assert {"c2_compile_ms", "young_gcs"} <= compared and "focus_compile_ms" not in compared


def test_a_cold_start_names_its_focus_as_the_mechanism_and_says_when_success_moved_without_it(build):
    e = dict(build.experiment(), load={"shape": "cold-start", "script": "k6/cold-start.js"}, mechanism=[],
             primary={"metric": "success_pct", "expect": "better", "mechanisms": ["focus_compile_ms"]})
    runs = [{"variant": label, "round": i, "testid": f"x-{label}-r{i}", "success_pct": pct + i, "focus_compile_ms": ms + i,
             "mechanism": {}, "invariants": [], "series": []}
            for label, pct, ms in (("A-side", 85.0, 200.0), ("B-side", 70.0, 30.0)) for i in (1, 2, 3)]
    because = comparison.compare(e, runs, 0.03)[0]["because"]
    assert because == ("success (%) -17.2% (worse), mechanism not shown (declared: focus compile time (ms) 202.0 → 32.0): "
                       "the difference came from somewhere else")


def test_the_leakage_check_is_a_section_of_the_report_on_the_claimed_metrics(build):
    r = build.result()
    cell = r["cells"][0]
    alone = [dict(run, variant=f"{run['variant']} (alone)") for run in cell["runs"]]
    cell["delta"] = 0.03
    cell["leakage"] = comparison.leakage(r["experiment"], cell["runs"] + alone, 0.03)
    section = report_sections.leakage_section(r, cell)
    assert [row[:2] for row in section["rows"]] == [("A-side", "p95 (ms)"), ("B-side", "p95 (ms)")]
    assert all(row[-1] == "no difference" for row in section["rows"])
    assert "Leakage" in report.markdown(r) and "interleaved/alone" in report.text(r)
    assert report_sections.leakage_section(build.result(), build.result()["cells"][0]) is None


def test_repeated_runs_are_one_sentence_in_the_report(build):
    r = build.result()
    r["repeats"] = [{"profile": "localhost", "metric": "p50", "runs": 10, "expect": "worse", "met": 9,
                     "verdicts": {"worse": 9, "inconclusive": 1}, "ratios": [1.04, 1.06]}]
    sentence = "10 separate runs on localhost (p50): worse in 9, inconclusive in 1; worse in 9 of 10; B/A from 1.04 to 1.06"
    assert sentence in report.text(r) and sentence in report.markdown(r)


def test_a_p_the_rounds_cannot_bring_under_five_percent_is_shown_as_its_floor_not_as_a_p():
    row = {"p_value": 0.1, "n_a": 3, "n_b": 3}
    assert report.p_text(row, 1) == "– (3+3 rounds cannot reach 0.05)"
    assert report.p_text(dict(row, p_value=0.0593), 1) == "– (3+3 rounds cannot reach 0.05)"  # tied sides: asymptotic
    assert report.p_text(dict(row, p_value=0.0001, n_a=10, n_b=10), 1) == "0.0001"
    holm = {"p_value": 0.004, "p_holm": 0.012, "n_a": 5, "n_b": 5}  # 5+5 can reach 0.0079; among 3 tests 0.024
    assert report.p_text(holm, 3) == "0.012"
    assert report.p_text(dict(holm, p_holm=0.07), 7) == "– (5+5 rounds cannot reach 0.05)"  # 7 × 2/252 = 0.0556
    assert report.p_text(dict(holm, p_holm=0.049), 7) == "0.049"  # a p under the level is never hidden


def test_each_limited_process_says_which_variant_was_throttled_and_how_often():
    def limit(process, throttled, periods):
        return {"process": process, "cpus": 0.75, "how": "cgroup", "held": True, "cpu_per_s": 0.7,
                "throttled": throttled, "periods": periods}
    cell = {"runs": [{"variant": "naive", "limits": [limit("app", 40, 100)]},
                     {"variant": "naive", "limits": [limit("app", 2, 100)]},
                     {"variant": "cached", "limits": [limit("app", 3, 100)]}]}
    assert report.limit_texts(cell) == ["the app held to 0.75 CPU by a cgroup quota in 3 of 3 runs (at most 0.70 CPU-s "
                                        "per s; throttled 45 of 300 periods: naive 21 % / cached 3 %)"]
    one = {"runs": [{"variant": "naive", "limits": [limit("mariadb", 5, 50)]}]}
    assert report.limit_texts(one) == ["MariaDB held to 0.75 CPU by a cgroup quota in 1 of 1 runs (at most 0.70 CPU-s "
                                       "per s; throttled 5 of 50 periods)"]

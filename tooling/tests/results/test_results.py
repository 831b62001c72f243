"""tooling/perflab/results/store.py, the storage: what it writes carries the schema version, what it reads is migrated, publishing
stamps an older result and regenerating the docs never rewrites a result.json."""
import copy
import json
import pathlib
import subprocess

import pytest

from perflab.results import schema
from perflab.render import publishing
from perflab.results import store
from perflab.paths import ROOT


def v1_result(build):
    """A result as the first published runs wrote it: its verdict cells without `expect`, no schema_version."""
    data = build.result()
    del data["verdict"]["cells"][0]["expect"]
    return data


def test_write_stores_the_current_version_and_the_reports_render_from_what_it_returns(tmp_path, build):
    written = store.write(build.result(), tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["result.json"]  # storage renders nothing
    publishing.write_reports(written, tmp_path)
    stored = json.loads((tmp_path / "result.json").read_text())
    assert list(stored)[0] == "schema_version" and stored["schema_version"] == schema.SCHEMA_VERSION
    assert list(stored)[1:] == list(build.result())  # the runner's order of fields
    assert store.dump(written) == store.dump(schema.load(stored).to_dict())
    assert (tmp_path / "result.json").read_text() == store.dump(stored)
    assert (tmp_path / "REPORT.md").read_text().startswith("# x\n\n**As expected.**")
    page = (tmp_path / "report.html").read_text()
    # the cells' JFR analysis ran before the page was rendered: this synthetic cell has no recording
    assert "no JFR recording in this cell" in page and 'id="verdict-table"' in page


def test_a_result_is_stored_one_record_per_line_and_reads_back_unchanged(build):
    data = build.result()
    data["cells"][0]["runs"] = [dict(data["cells"][0]["runs"][0], note="x" * 200, round=i) for i in range(3)]
    data = json.loads(json.dumps(data, default=str))  # as JSON holds it (a tuple as a list)
    text = store.dump(data)
    assert json.loads(text) == data
    run_lines = [line for line in text.splitlines() if '"note": "' in line]
    assert len(run_lines) == 3 and all(json.loads(line.strip().rstrip(",")) in data["cells"][0]["runs"]
                                       for line in run_lines)


def test_every_published_result_is_stored_as_dump_lays_it_out():
    """A published result.json written by hand or by an older layout would keep its lines: --tables and the
    runner write them through dump, and this keeps the tree at one record per line."""
    for folder in store.published_folders():
        text = (path := folder / "result.json").read_text()
        assert text.removesuffix("\n") == store.dump(json.loads(text)), path


def test_a_result_the_model_cannot_read_is_still_stored_before_the_error(tmp_path, build):
    with pytest.raises(ValueError, match="unknown field"):
        store.write(dict(build.result(), colour="red"), tmp_path)
    assert json.loads((tmp_path / "result.json").read_text())["colour"] == "red"


def test_a_command_result_is_written_without_a_page(tmp_path):
    rows = [{"metric": "ops", "score": 5.0}]
    store.write({"experiment": {"name": "c", "kind": "command", "command": "true"}, "name": "c", "command": "./perflab ab c",
                   "started": "t", "exit": 0, "rows": rows, "cells": [], "machine": {"cores": 2, "load_after": (1.0, 1.0, 1.0)},
                   "checks": {"passed": 0, "failed": []}}, tmp_path)
    publishing.write_reports(store.read(tmp_path / "result.json"), tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["REPORT.md", "result.json"]
    stored = json.loads((tmp_path / "result.json").read_text())
    assert stored["schema_version"] == schema.SCHEMA_VERSION and stored["machine"] == {"cores": 2, "load_after": [1.0, 1.0, 1.0]}


def test_profiles_are_the_cells_jfr_analyses_and_none_without_the_module(tmp_path, monkeypatch, build):
    r = build.result()
    assert publishing.profiles(r, tmp_path) == [{"missing": "no JFR recording in this cell (--no-jfr, or a shape without a measured window)"}]
    r["cells"][0]["comparisons"] = []
    assert publishing.profiles(r, tmp_path) == [{}]
    monkeypatch.setitem(__import__("sys").modules, "perflab.measure.jfr", None)  # importing it now raises ImportError
    monkeypatch.delattr(__import__("perflab.measure").measure, "jfr", raising=False)
    assert publishing.profiles(r, tmp_path) is None


def test_read_migrates_an_older_result(tmp_path, build):
    path = tmp_path / "result.json"
    path.write_text(json.dumps(v1_result(build)))
    data = store.read(path)
    assert data["schema_version"] == schema.SCHEMA_VERSION
    assert data["verdict"]["cells"][0]["expect"] == "better"


def test_publishing_stamps_an_unversioned_result_and_leaves_the_rest_as_it_was(tmp_path, monkeypatch, build):
    monkeypatch.setattr(store, "PUBLISHED", tmp_path / "published")
    run = tmp_path / "run"
    run.mkdir()
    (run / "result.json").write_text(json.dumps(v1_result(build)))
    (run / "flame-diff-localhost.html").write_text("<html></html>")
    (run / "k6-x.csv").write_text("not published")
    target = publishing.publish(run, "x", store.read(run / "result.json"))
    # stamped with the version its shape tells, nothing else changed
    assert (target / "result.json").read_text() == store.dump({"schema_version": 1, **json.loads((run / "result.json").read_text())})
    assert (target / "flame-diff-localhost.html").exists() and not (target / "k6-x.csv").exists()
    assert (target / "verdict.svg").exists()


def test_regenerating_never_rewrites_a_result_json(tmp_path, monkeypatch, build):
    monkeypatch.setattr(store, "PUBLISHED", tmp_path)
    (tmp_path / "x").mkdir()
    text = json.dumps(v1_result(build))
    (tmp_path / "x" / "result.json").write_text(text)
    changed = publishing.regenerate_published()
    assert {p.name for p in changed} >= {"REPORT.md", "verdict.svg"}
    assert (tmp_path / "x" / "result.json").read_text() == text
    assert publishing.regenerate_published() == []


def test_a_reproduction_reads_the_published_result_whatever_its_version(tmp_path, monkeypatch, build):
    monkeypatch.setattr(store, "PUBLISHED", tmp_path)
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "result.json").write_text(json.dumps(v1_result(build)))
    again = build.result()
    r = store.reproduction("x", again["verdict"])
    assert r["same"] is True and r["controls_same"] is None and r["previous_commit"] == "abc"


def aa_at(folder, build, floors, experiment="x"):
    folder.mkdir(parents=True)
    aa = copy.deepcopy(build.result())
    aa["experiment"]["name"] = experiment
    aa["calibration"] = [{"profile": profile, "metric": "p95", "noise_floor": floor} for profile, floor in floors.items()]
    (folder / "result.json").write_text(json.dumps(aa))


def test_the_noise_floor_comes_from_the_aa_the_run_names_never_from_a_search(tmp_path, monkeypatch, build):
    monkeypatch.setattr(store, "PUBLISHED", tmp_path / "published")
    monkeypatch.setattr(store, "ROOT", tmp_path)
    monkeypatch.setattr(publishing, "ROOT", tmp_path)
    x = {"name": "x", "primary": {"metric": "p95"}}
    aa_at(tmp_path / "results" / "20261102-000000-x-aa", build, {"localhost": 0.1})
    aa_at(tmp_path / "published" / "x-aa", build, {"localhost": 0.2})
    assert store.noise_floor(x) == ({}, None)  # both lie where a search would look: neither is named
    assert store.noise_floor(x, ["x-aa"]) == ({"localhost": 0.2}, "published/x-aa/result.json")
    assert store.noise_floor(x, ["results/20261102-000000-x-aa"]) == (
        {"localhost": 0.1}, "results/20261102-000000-x-aa/result.json")
    assert store.noise_floor(dict(x, primary={"metric": "p95", "floors": "x-aa"})) == (
        {"localhost": 0.2}, "published/x-aa/result.json")
    with pytest.raises(SystemExit, match="A/A x-gone: no published/x-gone/result.json"):
        store.noise_floor(x, ["x-gone"])
    (tmp_path / "published" / "x").mkdir(parents=True)
    (tmp_path / "published" / "x" / "result.json").write_text(json.dumps(build.result()))
    with pytest.raises(SystemExit, match="is not an A/A result"):
        store.noise_floor(x, ["x"])


def test_each_profile_takes_the_first_named_aa_that_calibrated_it(tmp_path, monkeypatch, build):
    monkeypatch.setattr(store, "PUBLISHED", tmp_path / "published")
    monkeypatch.setattr(store, "ROOT", tmp_path)
    monkeypatch.setattr(publishing, "ROOT", tmp_path)
    x = {"name": "x", "primary": {"metric": "p95"}}
    aa_at(tmp_path / "published" / "x-duet-aa", build, {"localhost": 0.06})
    aa_at(tmp_path / "published" / "x-aa", build, {"localhost": 0.25, "cross-zone": 0.08})
    assert store.noise_floor(x, ["x-duet-aa", "x-aa"]) == ({"localhost": 0.06, "cross-zone": 0.08},
                                                          "published/x-duet-aa/result.json; published/x-aa/result.json")
    assert store.noise_floor(x, ["x-aa", "x-duet-aa"]) == ({"localhost": 0.25, "cross-zone": 0.08},
                                                          "published/x-aa/result.json")
    # an A/A of another experiment counts only on this one's primary metric
    assert store.noise_floor({"name": "y", "primary": {"metric": "capacity"}}, ["x-aa"]) == ({}, None)
    assert store.noise_floor({"name": "y", "primary": {"metric": "p95"}}, ["x-aa"])[1] == \
        "published/x-aa/result.json, the A/A of x"


def test_a_command_result_is_told_from_an_ab_one(build):
    assert schema.is_command({"rows": [], "cells": []})
    assert not schema.is_command(build.result())


def test_a_block_may_name_a_result_not_yet_published_and_the_tables_list_it(tmp_path, monkeypatch, build):
    monkeypatch.setattr(store, "PUBLISHED", tmp_path / "published")
    monkeypatch.setattr(store, "ROOT", tmp_path)
    monkeypatch.setattr(publishing, "ROOT", tmp_path)
    page = tmp_path / "page.md"
    page.write_text("<!-- results:x view=case-study -->\n<!-- /results -->\n")
    assert publishing.regenerate_tables([page]) == [pathlib.Path("page.md")]
    assert page.read_text() == ("<!-- results:x view=case-study -->\nNot published yet: `./perflab ab x --publish x`, then "
                                "`./perflab ab --tables`.\n<!-- /results -->\n")
    assert publishing.unpublished_blocks([page]) == ["page.md: x"]
    (tmp_path / "published" / "x").mkdir(parents=True)
    (tmp_path / "published" / "x" / "result.json").write_text(json.dumps(build.result()))
    assert publishing.render_block("x", "verdict").startswith("| network | variants |")
    assert publishing.unpublished_blocks([page]) == []


def test_no_published_result_records_a_path_of_the_machine_that_made_it():
    """A run's files (JFR recordings, k6 dashboards) are recorded by name, resolved against the result's folder:
    a committed result says nothing about where it was made (procedures.file_name)."""
    root = ROOT

    def strings(value):
        if isinstance(value, dict):
            for key, inner in value.items():
                yield from ((key, s) for _, s in strings(inner)) if not isinstance(inner, str) else [(key, inner)]
        elif isinstance(value, list):
            for inner in value:
                yield from strings(inner)

    for path in sorted((root / "docs" / "results").glob("*/result.json")):
        for key, text in strings(json.loads(path.read_text())):
            assert str(root) not in text and not text.startswith(("/tmp/", "/home/", "/root/", "/work/")), (path, key)
            if key in ("jfr", "dashboard", "launch_jfr"):
                assert "/" not in text, (path, key, text)


def test_a_runs_files_are_recorded_by_name():
    from perflab.measure import procedures
    assert procedures.file_name(pathlib.Path("/somewhere/results/x/run.jfr")) == "run.jfr"
    assert procedures.file_name(None) is None and procedures.file_name("") is None


def tracked(*pathspec):
    listed = subprocess.run(["git", "ls-files", "-z", "--", *pathspec], cwd=store.ROOT, capture_output=True, check=True)
    return [store.ROOT / name for name in listed.stdout.decode().split("\0") if name]


def test_generated_results_are_at_most_a_quarter_of_the_tracked_lines():
    """Issue 47: git keeps each published result's result.json (one record per line), REPORT.md and pictures; its
    pages (report.html, flame graphs, built from the run's local JFRs) are ignored. Fails when a layout or a page
    brings the weight back."""
    def lines(paths):
        return sum(p.read_bytes().count(b"\n") for p in paths if p.is_file())
    generated, everything = lines(tracked("docs/results")), lines(tracked())
    assert generated <= everything / 4, f"docs/results holds {generated:,} of {everything:,} tracked lines"
    assert not tracked("docs/results/*.html"), "a published page is tracked: .gitignore keeps them out"


def test_a_result_measured_on_another_virtual_machine_says_how_that_machine_differs():
    identity = {"os": "Linux-6.18.44-fc-v782-x86_64-with-glibc2.36", "cores": 2}
    here = {"machine": dict(identity)}
    there = {"machine": {"os": "Linux-6.18.44-fc-v669-x86_64-with-glibc2.36", "cores": 4}}
    assert store.measured_elsewhere(here, identity) is None
    assert store.measured_elsewhere({"machine": {}}, identity) is None  # nothing recorded: nothing to compare
    assert store.measured_elsewhere(there, identity) == ("os Linux-6.18.44-fc-v669-x86_64-with-glibc2.36 "
                                               "(here Linux-6.18.44-fc-v782-x86_64-with-glibc2.36); cores 4 (here 2)")


def test_a_run_names_each_floor_and_pilot_it_takes_from_another_machine_and_how_to_measure_it_here(monkeypatch):
    from perflab.measure import preparation
    from perflab.plan import experiment
    wallet = experiment.load("wallet")  # floors = "wallet-aa", [setting] pilot = "wallet-pilot"
    machines = {"wallet-aa": "vm-a", "wallet-pilot": "vm-b"}
    monkeypatch.setattr(store, "aa_result", lambda name: ({"machine": {"os": machines[name], "cores": 2}}, name))
    monkeypatch.setattr(store, "published", lambda name: {"machine": {"os": machines[name], "cores": 2}})
    def notes_on(machine):  # the run's log note, as the run finds the floors and the pilot on `machine`
        monkeypatch.setattr(preparation, "identity", lambda: {"os": machine, "cores": 2})
        return preparation.calibrated_elsewhere(wallet, store.floors_elsewhere(wallet, None, preparation.identity()))
    assert notes_on("vm-a") == [
        "the pilot that set this setting (wallet-pilot) was measured on another machine: os vm-b (here vm-a); its "
        "figure may not hold here (the default, --setting auto, measures it here first)"]
    assert notes_on("vm-b") == [
        "δ's A/A wallet-aa was measured on another machine: os vm-a (here vm-b); its noise floor may not hold here "
        "(./perflab ab wallet --aa --publish wallet-aa measures it here)"]

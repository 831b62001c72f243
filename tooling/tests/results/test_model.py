"""tooling/perflab/results/schema.py: every result ever published loads into the typed, current format; each older format migrates; a
result cannot be changed once loaded, nor loaded with a field or a version this checkout does not know."""
import copy
import dataclasses
import json

import pytest

from perflab.results import records, schema
from perflab.results import store

PUBLISHED = store.published_folders()


def raw(folder):
    return json.loads((folder / "result.json").read_text())


@pytest.mark.parametrize("folder", PUBLISHED, ids=lambda p: p.name)
def test_every_published_result_states_its_version_and_loads_into_the_current_one(folder):
    data = raw(folder)
    assert isinstance(data.get("schema_version"), int), f"{folder.name}/result.json has no schema_version"
    assert list(schema.stamp(data).items()) == list(data.items())  # stamped once: stamping again changes nothing
    result = schema.load(data)
    assert result.schema_version == schema.SCHEMA_VERSION
    assert result.kind in ("ab", "command") and result.name and result.command.startswith("./perflab ab")
    assert json.dumps(result.to_dict()) == json.dumps(schema.migrate(data))  # typed down to each run, and back unchanged
    if result.kind == "ab":
        assert all(isinstance(c, records.Cell) for c in result.cells)
        assert all(isinstance(r, records.Run) for c in result.cells for r in c.runs)
        assert all(isinstance(s, records.Statistic) for c in result.cells for k in c.comparisons for s in (k.primary, *k.rows))


def test_a_result_written_before_the_version_existed_gets_the_one_its_shape_tells(build):
    v3 = build.result()
    assert schema.detected_version(v3) == 3
    v2 = dict(v3, reproduction={"previous_started": "t", "previous_commit": "c", "same": True, "cells": []})
    assert schema.detected_version(v2) == 2
    v1 = copy.deepcopy(v3)
    del v1["verdict"]["cells"][0]["expect"]
    assert schema.detected_version(v1) == 1
    assert schema.stamp(v1) == {"schema_version": 1, **v1} and list(schema.stamp(v1))[0] == "schema_version"


def test_version_1_says_what_the_file_expected_of_each_cell_and_keeps_its_ok(build):
    v1 = build.result()
    cell = v1["verdict"]["cells"][0]
    del cell["expect"]
    cell["ok"] = False  # the run's own judgment stays, whatever the rule says now
    primary = v1["cells"][0]["comparisons"][0]["primary"]
    del primary["delta"], primary["lower_is_better"]
    primary["round_ratios"] = None
    before = copy.deepcopy(v1)
    out = schema.migrate(v1)
    assert v1 == before  # the input is left as it was
    assert out["schema_version"] == schema.SCHEMA_VERSION
    assert out["verdict"]["cells"][0] == dict(cell, expect="better", ok=False)
    migrated = out["cells"][0]["comparisons"][0]["primary"]
    assert "delta" not in v1["cells"][0] and migrated["delta"] == v1["delta"]  # no δ of its cell: the result's
    assert migrated["lower_is_better"] is True and migrated["round_ratios"] == []
    aa = dict(copy.deepcopy(before), calibration=[])
    assert schema.migrate(aa)["verdict"]["cells"][0]["expect"] == "no difference"


def test_version_2_judges_its_reproduction_on_the_claimed_cells_and_names_the_controls():
    cell = lambda candidate, verdict, expect: {"profile": "localhost", "value": None, "candidate": candidate,  # noqa: E731
                                               "verdict": verdict, "expect": expect, "ok": True}
    stored = {"schema_version": 2, "verdict": {"cells": [cell("warm", "better", "better"), cell("aot", "no difference", "any")]},
              "reproduction": {"previous_started": "t", "previous_commit": "c", "same": False,
                               "cells": [{"profile": "localhost", "value": None, "candidate": "warm", "verdict": "better", "previous": "better"},
                                         {"profile": "localhost", "value": None, "candidate": "aot", "verdict": "no difference", "previous": "inconclusive"}]}}
    r = schema.migrate(stored)["reproduction"]
    assert r["same"] is True and r["controls_same"] is False
    assert [c["control"] for c in r["cells"]] == [False, True]


def test_each_migration_has_a_published_result_to_stand_on():
    versions = {raw(f)["schema_version"] for f in PUBLISHED}
    assert versions == set(range(1, schema.SCHEMA_VERSION + 1))


def test_a_loaded_result_cannot_be_changed(build):
    result = schema.load(build.result())
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.name = "y"
    with pytest.raises(TypeError):
        result.verdict["ok"] = False
    with pytest.raises(TypeError):
        result.cells[0]["runs"][0]["p95"] = 0
    assert isinstance(result.machine, schema.Machine) and result.machine.commit == "abc"
    assert result.to_dict()["cells"] == json.loads(json.dumps(build.result()["cells"]))


def test_a_new_result_gets_the_current_version_first(build):
    data = schema.new(dict(build.result(), schema_version=1))
    assert list(data)[0] == "schema_version" and data["schema_version"] == schema.SCHEMA_VERSION
    assert schema.load(data).to_dict()["verdict"] == build.result()["verdict"]


@pytest.mark.parametrize("change, message", [
    (dict(schema_version=99), "schema_version 99 is not one this checkout reads"),
    (dict(colour="red"), "result.json: unknown field(s) colour"),
    (dict(name=7), "name should be str, not int"),
    (dict(machine={"commit": "c", "gpu": 1}), "result.json machine: unknown field(s) gpu"),
    (dict(machine={"cores": "two"}), "cores should be int, not str"),
])
def test_a_result_this_checkout_cannot_read_is_refused_by_name(change, message, build):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        schema.load(dict(build.result(), **change))


def test_a_result_without_its_command_is_refused(build):
    data = build.result()
    del data["command"]
    with pytest.raises(ValueError, match="missing command"):
        schema.load(data)


def test_a_field_no_record_declares_fails_naming_the_record_and_the_field(build):
    data = schema.new(build.result())
    data["cells"][0]["runs"][0]["p95_typo"] = 1.0
    with pytest.raises(ValueError, match=r"result.json run: unknown field\(s\) p95_typo"):
        schema.load(data)
    data = schema.new(build.result())
    data["cells"][0]["comparisons"][0]["primary"]["ratio"] = "fast"
    with pytest.raises(ValueError, match="result.json statistic: ratio should be float or int, not str"):
        schema.load(data)
    data = schema.new(build.result())
    del data["cells"][0]["comparisons"][0]["candidate"]
    with pytest.raises(ValueError, match="result.json comparison: missing candidate"):
        schema.load(data)


def test_typed_records_read_back_as_the_same_data_in_the_same_order_nulls_kept(build):
    data = schema.new(build.result())
    data["cells"][0]["runs"][0] = {"variant": "b", "steady": None, "round": 2, "p95": 3.5}
    result = schema.load(data)
    run = result.cells[0].runs[0]
    assert (run.variant, run.round, run.p95, run.steady) == ("b", 2, 3.5, None)
    assert list(run.to_dict().items()) == [("variant", "b"), ("steady", None), ("round", 2), ("p95", 3.5)]
    with pytest.raises(dataclasses.FrozenInstanceError):
        run.p95 = 1.0  # type: ignore[misc]

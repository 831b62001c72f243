"""Results (storage): the layout (results/<timestamp>-<experiment>/), reading and writing result.json (through
tooling/perflab/results/schema.py: every read migrates an older format, every write carries the schema version), the
published copies the docs cite (docs/results/<name>/), whether a new result reproduces the one published before it,
and the A/A results a run names for its noise floors. It renders nothing: render/publishing.py writes the reports,
charts and the docs' tables from what it stores."""
import json
import os
import pathlib
import re
import shutil
from collections.abc import Mapping, Sequence
from typing import Any

from perflab.results import schema

from perflab.paths import ROOT
PUBLISHED = ROOT / "docs" / "results"
KEEP = {"result.json", "REPORT.md", "report.html"}


# a result.json's layout: a container nests (one indent a level) until it fits on a line of this width; a record
# (an object inside a list: a run, a comparison's row, a verdict's cell) always takes one line, however long, so
# that a result is about one line per record (git diffs by record) and not one per number
WIDTH = 120
HOLDERS = {"cells", "comparisons", "rows", "runs"}  # an object holding records is laid out, not put on one line


def dump(data: object) -> str:
    """A result as JSON text: `json.loads(dump(x)) == x`, laid out one record per line (WIDTH, HOLDERS)."""
    return _layout(data, 0, False)


def _layout(value: object, depth: int, record: bool) -> str:
    flat = json.dumps(value, default=str)
    if not isinstance(value, (dict, list)) or not value or len(flat) + depth <= WIDTH:
        return flat
    if isinstance(value, dict) and record and not HOLDERS & value.keys():
        return flat
    pad = " " * (depth + 1)
    if isinstance(value, dict):
        lines = [f"{pad}{json.dumps(key)}: {_layout(item, depth + 1, False)}" for key, item in value.items()]
        return "{\n" + ",\n".join(lines) + "\n" + " " * depth + "}"
    return "[\n" + ",\n".join(pad + _layout(item, depth + 1, True) for item in value) + "\n" + " " * depth + "]"


def read(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A result.json as the plain data of the current schema (schema.load: migrated from an older version and
    checked against the typed top level)."""
    return schema.load(json.loads(pathlib.Path(path).read_text())).to_dict()


def write(result: Mapping[str, Any], out_dir: pathlib.Path) -> dict[str, Any]:
    """Writes a new result into its run folder as result.json with the current schema_version, first, so that no
    later step can lose a run's data; returns the same text's data as the typed records read it (a field they do not
    know fails here, by name), as plain data, for the rendering that follows (render/publishing.py): the file is
    written once and never read back."""
    text = dump(schema.new(result))
    (out_dir / "result.json").write_text(text)
    return schema.load(json.loads(text)).to_dict()


def copy_published(out_dir: str | os.PathLike[str], name: str) -> tuple[pathlib.Path, bool]:
    """Copies a run folder's result, its reports and flame graphs to docs/results/<name>/, in place of what was
    published under that name before; a result.json written without its schema_version gets it (schema.stamp).
    Returns the folder and whether what it replaced had a screenshot of its report (report.png)."""
    target = PUBLISHED / name
    photographed = (target / "report.png").exists()
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    for path in pathlib.Path(out_dir).iterdir():
        if path.name == "result.json":
            (target / path.name).write_text(dump(schema.stamp(without_run_folder(json.loads(path.read_text())))))
        elif path.name in KEEP or path.name.startswith("flame-"):
            shutil.copy2(path, target / path.name)
    return target, photographed


def without_run_folder(result: dict[str, Any]) -> dict[str, Any]:
    """A result as the repository keeps it: without --out's folder, a path of the machine it ran on."""
    if isinstance(result.get("args"), dict) and result["args"].get("out"):
        result["args"]["out"] = None
    return result


def published_folders() -> list[pathlib.Path]:
    """The published experiment results (docs/results/<name>/ with a result.json of the runner); the newcomer
    check's result (docs/results/newcomer/, tooling/perflab/checks/newcomer.py) is published there too but is not an experiment."""
    return [p.parent for p in sorted(PUBLISHED.glob("*/result.json")) if "experiment" in json.loads(p.read_text())]


def reproduction(name: str, verdict: Mapping[str, Any]) -> dict[str, Any] | None:
    """How this result's primary verdicts compare with the ones already published under `name` (the previous run
    of the same experiment): issue 12's "two consecutive runs give the same primary verdict", checked each time a
    result is published. `same` is judged on the claimed cells; a control's (`expect = "any"`) verdict is compared
    too and reported in `controls_same`, but it is no claim, so it does not decide `same`. None when nothing was
    published before."""
    path = PUBLISHED / name / "result.json"
    if not path.exists():
        return None
    before = schema.migrate(json.loads(path.read_text()))
    previous = {schema.cell_key(c): c["verdict"] for c in before.get("verdict", {}).get("cells", [])}
    cells = [{"profile": c["profile"], "value": c.get("value"), "candidate": c["candidate"], "verdict": c["verdict"],
              "previous": previous.get(schema.cell_key(c))} for c in verdict["cells"]]
    return schema.judge_reproduction({"previous_started": before.get("started"),
                                      "previous_commit": before.get("machine", {}).get("commit"), "cells": cells},
                                     verdict["cells"])


def published(name: str) -> dict[str, Any] | None:
    """The published result docs/results/<name>/result.json (read), or None when there is none."""
    path = PUBLISHED / name / "result.json"
    return read(path) if path.exists() else None


def load_published(name: str) -> dict[str, Any]:
    result = published(name)
    if result is None:
        raise SystemExit(f"no published result {name!r} ({(PUBLISHED / name / 'result.json').relative_to(ROOT)}): "
                         f"./perflab ab <experiment> --publish {name}")
    return result


def named_floors(e: Mapping[str, Any], names: Sequence[str] | str | None = None) -> list[str]:
    """The A/A results a run of experiment e takes its noise floors from, as the run names them: `names` (--floors),
    else the file's `[primary] floors` (a file that `extends` another inherits its list); [] when none is named."""
    given = names if names else e["primary"].get("floors", [])
    return [given] if isinstance(given, str) else list(given)


def measured_elsewhere(result: Mapping[str, Any], here: Mapping[str, Any]) -> str | None:
    """How the machine `result` was measured on differs from `here` (this machine's identity, as its result records
    it: the kernel build, which names the virtual machine, and the cores), or None. A noise floor or a pilot's figure
    measured on another machine may not hold on this one: the same commit's wallet pilot measured a cached transfer's
    connection time 2.5 times as long on the next virtual machine as on the one its published result came from."""
    recorded = result.get("machine") or {}
    differs = [f"{key} {recorded[key]} (here {here[key]})" for key in here
               if recorded.get(key) is not None and recorded[key] != here[key]]
    return "; ".join(differs) or None


def aa_result(name: str) -> tuple[dict[str, Any], str]:
    """A named A/A result and where it is: a published result's name (docs/results/<name>/), or the path of a run
    folder or of its result.json (results/<stamp>-<name>-aa/). SystemExit naming it when it is missing or no A/A."""
    path = PUBLISHED / name / "result.json" if "/" not in name else ROOT / name
    path = path / "result.json" if path.is_dir() else path
    if not path.is_file():
        raise SystemExit(f"A/A {name}: no {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path} "
                         f"(publish one with ./perflab ab <experiment> --aa --publish {name}, or name a run folder)")
    result = schema.migrate(json.loads(path.read_text()))
    if not result.get("calibration"):
        raise SystemExit(f"A/A {name}: {path} is not an A/A result (it has no calibration)")
    return result, str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


def floors_elsewhere(e: Mapping[str, Any], names: Sequence[str] | str | None, here: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(name, how its machine differs) of each named A/A (named_floors) measured on another machine than `here`; none
    when `here` records nothing to compare."""
    if not here:
        return []
    return [(name, differs) for name in named_floors(e, names)
            if (differs := measured_elsewhere(aa_result(name)[0], here))]


def floors_elsewhere_text(found: Sequence[tuple[str, str]]) -> str:
    """What δ's source adds when its A/A ran on another machine than the run it judges (floors_elsewhere's list; ""
    when none did): a report then says so beside δ, as the run's log does."""
    return "".join(f"; its A/A {name} ran on another machine than this run: {differs}" for name, differs in found)


def noise_floor(e: Mapping[str, Any], names: Sequence[str] | str | None = None) -> tuple[dict[str, float], str | None]:
    """The noise floors of the A/A results the run names (named_floors), per network profile ({profile: floor}):
    each profile's from the first of them that calibrated it, on this experiment's primary metric (an A/A of
    another experiment counts only when it calibrated that metric: the same apps measured the same way are no less
    noisy in a sweep or a variant of the file). And where they come from; ({}, None) when none is named."""
    return _from_aa(e, names, "noise_floor")


def also_floors(e: Mapping[str, Any], names: Sequence[str] | str | None = None) -> dict[str, dict[str, float]]:
    """The noise floors of the metrics `[primary] also` claims, per network profile and metric ({profile: {metric:
    floor}}), each from the first named A/A that calibrated it (an A/A calibrates them beside the primary metric,
    comparison.calibrate); {} when none is named or none calibrated them."""
    claimed = set(e["primary"].get("also", []))
    found: dict[str, dict[str, float]] = {}
    for name in named_floors(e, names):
        result, _ = aa_result(name)
        for c in result.get("calibration", []):
            if c.get("co_primary") and c.get("noise_floor") is not None and c.get("metric") in claimed:
                found.setdefault(c["profile"], {}).setdefault(c["metric"], c["noise_floor"])
    return found


def aa_level(e: Mapping[str, Any], names: Sequence[str] | str | None = None) -> tuple[dict[str, float], str | None]:
    """The primary metric's median in the named A/A results, per network profile ({profile: value}), and where it
    comes from: what a planted "5 %" is 5 % of (--plant)."""
    return _from_aa(e, names, "level")


def first_aa(e: Mapping[str, Any], names: Sequence[str] | str | None = None) -> tuple[dict[str, Any], str] | tuple[None, None]:
    """The first named A/A result that calibrated this experiment's primary metric, and where it is; (None, None)
    when none is named. The pilot that lifetimes.plan plans from."""
    for name in named_floors(e, names):
        result, source = aa_result(name)
        if _primary_calibrations(result, result["experiment"]["name"] == e["name"], e["primary"].get("metric")):
            return result, source
    return None, None


def _primary_calibrations(result: Mapping[str, Any], own: bool, metric: str | None) -> list[dict[str, Any]]:
    """The A/A's calibrations of its primary metric that have a floor; of an A/A of another file (not `own`) only
    those of `metric`."""
    return [c for c in result.get("calibration", []) if c.get("noise_floor") is not None and not c.get("co_primary")
            and (own or metric is None or c.get("metric") == metric)]


def _from_aa(e: Mapping[str, Any], names: Sequence[str] | str | None, what: str) -> tuple[dict[str, float], str | None]:
    """Per profile, from the first named A/A that calibrated it."""
    found: dict[str, float] = {}
    sources: list[str] = []
    for name in named_floors(e, names):
        result, source = aa_result(name)
        own = result["experiment"]["name"] == e["name"]
        new = {c["profile"]: c["noise_floor"] if what == "noise_floor" else c["observed"]["median_a"]
               for c in _primary_calibrations(result, own, e["primary"].get("metric")) if c["profile"] not in found}
        if new:
            found.update(new)
            sources.append(source if own else f"{source}, the A/A of {result['experiment']['name']}")
    return found, "; ".join(sources) or None

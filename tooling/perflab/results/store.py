"""Results (storage): the layout (results/<timestamp>-<experiment>/), reading and writing result.json (through
tooling/perflab/results/schema.py: every read migrates an older format, every write carries the schema version), the published copies
the docs cite (docs/results/<name>/), the tables regenerated from them into README.md and docs/, and whether a
new result reproduces the one published before it."""
import json
import os
import pathlib
import re
import shutil
from collections.abc import Mapping, Sequence
from typing import Any

from perflab.render import charts
from perflab.checks import doclint
from perflab.results import schema
from perflab.render import html_page
from perflab.render import report
from perflab.render import report_views

from perflab.paths import ROOT
PUBLISHED = ROOT / "docs" / "results"
# the pages whose tables are regenerated and checked: README.md, docs/*.md and docs/walkthroughs/*.md (docs/results
# holds the results themselves)
DOCS = doclint.pages(ROOT)
BLOCK = re.compile(r"(<!-- results:(?P<name>[\w.-]+)(?: view=(?P<view>[\w-]+))? -->\n)(?P<body>.*?)(<!-- /results -->)", re.S)
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


def profiles(result: Mapping[str, Any], out_dir: pathlib.Path) -> list[dict[str, Any]] | None:
    """Each cell's JFR analysis for report.html (jfr.cell_profile writes the flame graphs into out_dir); None when
    tooling/perflab/measure/jfr.py cannot be imported (report.html then says the analysis is unavailable)."""
    try:
        from perflab.measure import jfr
    except ImportError:
        return None
    return [jfr.cell_profile(cell, out_dir) for cell in result["cells"]]


def write(result: Mapping[str, Any], out_dir: pathlib.Path) -> dict[str, Any]:
    """Writes a new result into its run folder: result.json with the current schema_version (first, so that no
    check can lose a run's data), then, from what it holds as read back through the typed model (a field the model
    does not know fails here, by name), REPORT.md and, for an A/B, report.html with its cells' JFR analyses.
    Returns the result as read back (plain data)."""
    (out_dir / "result.json").write_text(dump(schema.new(result)))
    data = read(out_dir / "result.json")
    (out_dir / "REPORT.md").write_text(report_markdown(data))
    if not schema.is_command(data):
        (out_dir / "report.html").write_text(html_page.html(data, profiles(data, out_dir)))
    return data


def publish(out_dir: str | os.PathLike[str], name: str) -> pathlib.Path:
    """Copies the result, its reports and flame graphs to docs/results/<name>/ and draws its charts there
    (tooling/perflab/render/charts.py), in place of what was published under that name before; a result.json written without its
    schema_version gets it (schema.stamp). When that had a screenshot of its report (report.png, which the docs
    may show), the new report.html is photographed again (tooling/perflab/render/screenshot.py)."""
    target = PUBLISHED / name
    photographed = (target / "report.png").exists()
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    for path in pathlib.Path(out_dir).iterdir():
        if path.name == "result.json":
            (target / path.name).write_text(dump(schema.stamp(json.loads(path.read_text()))))
        elif path.name in KEEP or path.name.startswith("flame-"):
            shutil.copy2(path, target / path.name)
    charts.write(read(target / "result.json"), target)
    if photographed and (target / "report.html").exists():
        try:
            from perflab.render import screenshot
            screenshot.screenshot(target / "report.html", target / "report.png")
        except Exception as error:  # Chromium missing or failing: the result is published, the picture is not
            print(f"report.png not renewed ({error}): ./perflab python -m perflab.render.screenshot {target / 'report.html'} "
                  f"--png {target / 'report.png'}", flush=True)
    return target


def report_markdown(result: dict[str, Any]) -> str:
    return report_views.command_markdown(result) if schema.is_command(result) else report.markdown(result)


def published_folders() -> list[pathlib.Path]:
    """The published experiment results (docs/results/<name>/ with a result.json of the runner); the newcomer
    check's result (docs/results/newcomer/, tooling/perflab/checks/newcomer.py) is published there too but is not an experiment."""
    return [p.parent for p in sorted(PUBLISHED.glob("*/result.json")) if "experiment" in json.loads(p.read_text())]


def regenerate_published(folders: Sequence[pathlib.Path] | None = None) -> list[pathlib.Path]:
    """Rewrites every published result's REPORT.md and charts from its result.json (both are pure functions of
    it); report.html stays as its run wrote it, since its JFR sections read the run's recordings, which are not
    published. Returns the paths that changed."""
    changed: list[pathlib.Path] = []
    for folder in folders or published_folders():
        result = read(folder / "result.json")
        path = folder / "REPORT.md"
        text = report_markdown(result)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            changed.append(path)
        changed += charts.write(result, folder)
    return [p.relative_to(ROOT) if p.is_relative_to(ROOT) else p for p in changed]


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


def load_published(name: str) -> dict[str, Any]:
    path = PUBLISHED / name / "result.json"
    if not path.exists():
        raise SystemExit(f"no published result {name!r} ({path.relative_to(ROOT)}): ./perflab ab <experiment> --publish {name}")
    return read(path)


def render_block(name: str, view: str | None) -> str:
    """A results block's body. A block may name an experiment before its first publication: its body then says
    how to publish it, with no figure (`./perflab ab --tables` lists such blocks: unpublished_blocks)."""
    if not (PUBLISHED / name / "result.json").exists():
        return f"Not published yet: `./perflab ab {name} --publish {name}`, then `./perflab ab --tables`.\n"
    return report_views.view(load_published(name), view or "verdict").rstrip("\n") + "\n"


def unpublished_blocks(paths: Sequence[pathlib.Path] | None = None) -> list[str]:
    """The blocks that name a result not published (yet): "page: name", for --tables to list (a typo shows here)."""
    return [f"{path.relative_to(ROOT)}: {m.group('name')}" for path in paths or DOCS for m in blocks(path.read_text())
            if not (PUBLISHED / m.group("name") / "result.json").exists()]


def blocks(text: str) -> list[re.Match[str]]:
    return list(BLOCK.finditer(text))


def regenerate_tables(paths: Sequence[pathlib.Path] | None = None) -> list[pathlib.Path]:
    changed: list[pathlib.Path] = []
    for path in paths or DOCS:
        text = path.read_text()
        new = BLOCK.sub(lambda m: m.group(1) + render_block(m.group("name"), m.group("view")) + m.group(5), text)
        if new != text:
            path.write_text(new)
            changed.append(path.relative_to(ROOT))
    return changed


NOT_MEASURED = re.compile(r"<!-- not measured: [^>]+-->")


def unbacked_tables(path: pathlib.Path) -> list[str]:
    """Markdown tables outside results blocks that hold a digit in a body row, with no `<!-- not measured: why -->`
    line right above them (tables of ports, defaults or knobs say so; measured numbers come from a results block)."""
    text = BLOCK.sub(lambda m: m.group(1) + "\n" * m.group("body").count("\n") + m.group(5), path.read_text())
    lines = text.splitlines()
    found: list[str] = []
    i = 0
    while i < len(lines):
        if lines[i].lstrip().startswith("|") and i + 1 < len(lines) and re.match(r"\s*\|[\s:|-]+\|\s*$", lines[i + 1]):
            start = i
            i += 2
            body = []
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                body.append(lines[i])
                i += 1
            above = "\n".join(lines[max(0, start - 2):start])
            if any(re.search(r"\d", row) for row in body) and not NOT_MEASURED.search(above):
                found.append(f"{path.relative_to(ROOT)}:{start + 1}: {lines[start][:80]}")
        else:
            i += 1
    return found


def named_floors(e: Mapping[str, Any], names: Sequence[str] | str | None = None) -> list[str]:
    """The A/A results a run of experiment e takes its noise floors from, as the run names them: `names` (--floors),
    else the file's `[primary] floors` (a file that `extends` another inherits its list); [] when none is named."""
    given = names if names else e["primary"].get("floors", [])
    return [given] if isinstance(given, str) else list(given)


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


def noise_floor(e: Mapping[str, Any], names: Sequence[str] | str | None = None) -> tuple[dict[str, float], str | None]:
    """The noise floors of the A/A results the run names (named_floors), per network profile ({profile: floor}):
    each profile's from the first of them that calibrated it, on this experiment's primary metric (an A/A of
    another experiment counts only when it calibrated that metric: the same apps measured the same way are no less
    noisy in a sweep or a variant of the file). And where they come from; ({}, None) when none is named."""
    return _from_aa(e, names, "noise_floor")


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

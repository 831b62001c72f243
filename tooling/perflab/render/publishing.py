"""Publishing a result as people read it: a run folder's REPORT.md and report.html (with its cells' JFR analyses),
a published result's charts and the screenshot of its report, and the tables README.md and docs/ regenerate from
the published results (`./perflab ab --tables`). Storage (results/store.py) keeps the data; this renders from it."""
import json
import os
import pathlib
import re
from collections.abc import Mapping, Sequence
from typing import Any

from perflab.checks import compose_resources, doclint, newcomer_report
from perflab.paths import ROOT
from perflab.render import charts, html_page, report, report_views
from perflab.results import schema, store

# the pages whose tables are regenerated and checked: README.md, docs/*.md and docs/walkthroughs/*.md (docs/results
# holds the results themselves)
DOCS = doclint.pages(ROOT)
BLOCK = re.compile(r"(<!-- results:(?P<name>[\w.-]+)(?: view=(?P<view>[\w-]+))? -->\n)(?P<body>.*?)(<!-- /results -->)", re.S)


def write_reports(data: dict[str, Any], out_dir: pathlib.Path) -> None:
    """A run folder's reports from its result as stored (store.write's data): REPORT.md and, for an A/B,
    report.html with its cells' JFR analyses."""
    (out_dir / "REPORT.md").write_text(report_markdown(data))
    if not schema.is_command(data):
        (out_dir / "report.html").write_text(html_page.html(data, profiles(data, out_dir)))


def publish(out_dir: str | os.PathLike[str], name: str, result: dict[str, Any]) -> pathlib.Path:
    """A run folder published as docs/results/<name>/ (store.copy_published) with the charts of its result (as
    store.write returned it) drawn there (render/charts.py); when what it replaced had a screenshot of its report
    (report.png, which the docs may show), the new report.html is photographed again (render/screenshot.py)."""
    target, photographed = store.copy_published(out_dir, name)
    charts.write(result, target)
    if photographed and (target / "report.html").exists():
        try:
            from perflab.render import screenshot
            screenshot.screenshot(target / "report.html", target / "report.png")
        except Exception as error:  # Chromium missing or failing: the result is published, the picture is not
            print(f"report.png not renewed ({error}): ./perflab python -m perflab.render.screenshot {target / 'report.html'} "
                  f"--png {target / 'report.png'}", flush=True)
    return target


def profiles(result: Mapping[str, Any], out_dir: pathlib.Path) -> list[dict[str, Any]] | None:
    """Each cell's JFR analysis for report.html (jfr.cell_profile writes the flame graphs into out_dir); None when
    tooling/perflab/measure/jfr.py cannot be imported (report.html then says the analysis is unavailable)."""
    try:
        from perflab.measure import jfr
    except ImportError:
        return None
    return [jfr.cell_profile(cell, out_dir) for cell in result["cells"]]


def report_markdown(result: dict[str, Any]) -> str:
    return report_views.command_markdown(result) if schema.is_command(result) else report.markdown(result)


def regenerate_published(folders: Sequence[pathlib.Path] | None = None) -> list[pathlib.Path]:
    """Rewrites every published result's REPORT.md and charts from its result.json (both are pure functions of
    it); report.html stays as its run wrote it, since its JFR sections read the run's recordings, which are not
    published. Returns the paths that changed."""
    changed: list[pathlib.Path] = []
    for folder in folders or store.published_folders():
        result = store.read(folder / "result.json")
        path = folder / "REPORT.md"
        text = report_markdown(result)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            changed.append(path)
        changed += charts.write(result, folder)
    return [p.relative_to(ROOT) if p.is_relative_to(ROOT) else p for p in changed]


def render_block(name: str, view: str | None) -> str:
    """A results block's body. A block may name an experiment before its first publication: its body then says
    how to publish it, with no figure (`./perflab ab --tables` lists such blocks: unpublished_blocks)."""
    path = store.PUBLISHED / name / "result.json"
    if not path.exists():
        return f"Not published yet: `./perflab ab {name} --publish {name}`, then `./perflab ab --tables`.\n"
    plain = json.loads(path.read_text())
    if compose_resources.is_compose_lab(plain):  # what the compose lab costs (stack/docker/compose-ci.sh), no experiment
        return compose_resources.view(plain, view)
    if newcomer_report.is_newcomer(plain):  # the newcomer check's timings (./perflab newcomer), no experiment
        if view != "docker":
            raise SystemExit(f"results:{name}: the newcomer check's result has one view, docker, not {view}")
        return newcomer_report.docker_view(plain)
    return report_views.view(store.load_published(name), view or "verdict").rstrip("\n") + "\n"


def unpublished_blocks(paths: Sequence[pathlib.Path] | None = None) -> list[str]:
    """The blocks that name a result not published (yet): "page: name", for --tables to list (a typo shows here)."""
    return [f"{path.relative_to(ROOT)}: {m.group('name')}" for path in paths or DOCS for m in blocks(path.read_text())
            if not (store.PUBLISHED / m.group("name") / "result.json").exists()]


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

"""The charts beside the published results (tooling/perflab/render/charts.py): every committed SVG is what its result.json draws today,
every image the docs show exists, and a chart shows what it claims."""
import copy
import json
import math
import xml.etree.ElementTree as ET

import pytest

from perflab.render import charts
from perflab.render import charts_load
from perflab.render import charts_ratio
from perflab.render import charts_svg
from perflab.checks import doclint
from perflab.results import units
from perflab.render import html_page
from perflab.render import report
from perflab.render import publishing
from perflab.results import store

NS = {"s": charts_svg.SVG_NS}
PUBLISHED = store.published_folders()
COMMITTED_SVGS = sorted(store.PUBLISHED.glob("*/*.svg"))


def load(folder):
    return store.read(folder / "result.json")


def linked_images():
    """Every image under docs/results that README.md or docs/**/*.md shows."""
    found = set()
    for doc in publishing.DOCS:  # the pages doclint checks; doclint.broken_links fails on a link to a missing file
        for _, link in doclint.link_targets(doc.read_text()):
            target = (doc.parent / link.split("#")[0]).resolve()
            if target.suffix in (".svg", ".png") and target.is_relative_to(store.PUBLISHED):
                found.add(target)
    return sorted(found)


def rel(path):
    return str(path.relative_to(store.ROOT))


@pytest.mark.parametrize("svg", COMMITTED_SVGS, ids=rel)
def test_every_committed_chart_is_what_its_result_draws(svg):
    drawn = charts.charts(load(svg.parent))
    assert svg.name in drawn, f"{rel(svg)} is no chart of {rel(svg.parent / 'result.json')}: run ./perflab ab --tables"
    assert svg.read_bytes() == drawn[svg.name].encode(), f"{rel(svg)} differs from its result.json: run ./perflab ab --tables"


@pytest.mark.parametrize("folder", PUBLISHED, ids=rel)
def test_every_chart_of_a_published_result_is_committed(folder):
    missing = [name for name in charts.charts(load(folder)) if not (folder / name).is_file()]
    assert not missing, f"{rel(folder)} lacks {', '.join(missing)}: run ./perflab ab --tables"


@pytest.mark.parametrize("image", linked_images(), ids=rel)
def test_every_image_the_docs_show_exists_and_an_svg_matches_its_result(image):
    assert image.is_file(), f"{rel(image)} is shown by the docs but missing: run ./perflab ab --tables"
    if image.suffix == ".svg":
        drawn = charts.charts(load(image.parent)).get(image.name)
        assert drawn is not None and image.read_bytes() == drawn.encode(), (
            f"{rel(image)} differs from its result.json: run ./perflab ab --tables")


# ---------------------------------------------------------------------- what a chart shows

def parse(svg_text):
    return ET.fromstring(svg_text)


def texts(root):
    return ["".join(t.itertext()) for t in root.iter(f"{{{charts_svg.SVG_NS}}}text")]


def plot_box(root):
    plots = root.findall(".//s:rect[@class='plot']", NS)
    assert plots, "no plot area"
    return [(float(p.get("x")), float(p.get("x")) + float(p.get("width")), float(p.get("y")),
             float(p.get("y")) + float(p.get("height"))) for p in plots]


def within(value, low, high):
    return low - 0.05 <= value <= high + 0.05


@pytest.mark.parametrize("folder", PUBLISHED, ids=rel)
def test_every_chart_is_a_standalone_svg_a_browser_shows_as_an_image(folder):
    for name, text in charts.charts(load(folder)).items():
        root = parse(text)
        assert root.tag == f"{{{charts_svg.SVG_NS}}}svg", name
        for attribute in ("width", "height", "viewBox"):
            assert root.get(attribute), f"{name}: no {attribute}"
        assert root.get("font-family") == "sans-serif"
        assert root.find("s:title", NS) is not None and root.find("s:title", NS).text
        background = root.find("s:rect", NS)
        assert background.get("fill") == "#ffffff" and background.get("width") == root.get("width")
        assert root.find(".//s:text[@class='title']", NS) is not None, f"{name}: no visible title"
        assert root.findall(".//s:text[@class='axis-label']", NS), f"{name}: no axis label"
        lowered = text.lower()
        assert "<script" not in lowered and "href" not in lowered and "url(" not in lowered, f"{name}: an external reference"


def test_a_chart_is_the_same_bytes_for_the_same_result():
    result = load(store.PUBLISHED / "wallet-fixed")
    first = charts.charts(result)
    again = charts.charts(json.loads(json.dumps(result)))
    assert first == again and list(first) == ["verdict.svg", "rounds.svg", "latency.svg"]


def test_the_verdict_chart_of_a_better_result_says_better_with_its_interval(build):
    r = build.result()
    primary = r["cells"][0]["comparisons"][0]["primary"]
    assert primary["verdict"] == "better"
    root = parse(charts_ratio.verdict(r))
    shown = texts(root)
    assert "better · as expected" in shown
    lo, hi = primary["interval"]
    numbers = f"B/A {units.ratio_text(primary['ratio'])} ({units.ratio_text(lo)}–{units.ratio_text(hi)}), δ 3 %"
    assert numbers in shown


def test_the_published_wallet_verdict_chart_shows_each_profile_with_its_numbers():
    root = parse(charts_ratio.verdict(load(store.PUBLISHED / "wallet-fixed")))
    shown = texts(root)
    assert shown[:1] == ["wallet-fixed: not as expected"]
    assert {"cross-zone", "localhost"} <= set(shown)
    assert "better · as expected" in shown and "no difference · expected better" in shown
    assert "B/A 0.37 (0.11–0.40), δ 8.1 %" in shown and "B/A 0.98 (0.85–1.05), δ 25 %" in shown


@pytest.mark.parametrize("folder", [f for f in PUBLISHED if (f / "result.json").exists() and load(f)["cells"]], ids=rel)
def test_every_interval_and_band_is_drawn_inside_its_axis(folder):
    for name in ("verdict.svg", "rounds.svg"):
        text = charts.charts(load(folder)).get(name)
        if not text:
            continue
        root = parse(text)
        (left, right, top, bottom), = plot_box(root)
        intervals = root.findall(".//s:line[@class='interval']", NS)
        assert intervals, f"{name}: no interval"
        for line in intervals + root.findall(".//s:rect[@class='band']", NS):
            xs = [float(line.get(k)) for k in ("x1", "x2") if line.get(k)] or [float(line.get("x")), float(line.get("x")) + float(line.get("width"))]
            assert all(within(x, left, right) for x in xs), f"{name}: {ET.tostring(line)[:120]} outside [{left}, {right}]"
        for dot in root.findall(".//s:circle[@class='ratio']", NS) + root.findall(".//s:circle[@class='round']", NS):
            assert within(float(dot.get("cx")), left, right)


def axis_value(root, bottom):
    """The axis's pixel → value mapping, read back from its tick labels (linear, or log when the axis says so)."""
    log = any("log scale" in t for t in texts(root))
    ticks = []
    for t in root.iter(f"{{{charts_svg.SVG_NS}}}text"):
        label = "".join(t.itertext()).replace(",", "")
        if abs(float(t.get("y")) - (bottom + 16)) < 0.01 and label.replace(".", "", 1).isdigit():
            ticks.append((float(t.get("x")), math.log10(float(label)) if log else float(label)))
    (x0, v0), (x1, v1) = ticks[0], ticks[-1]
    return lambda x: (10 ** (v0 + (x - x0) * (v1 - v0) / (x1 - x0))) if log else v0 + (x - x0) * (v1 - v0) / (x1 - x0)


@pytest.mark.parametrize("name", ["synthetic", "wallet-fixed", "slow-dependency", "cold-start"])
def test_the_interval_and_the_ratio_sit_where_their_numbers_say_on_the_axis(name, build):
    r = build.result() if name == "synthetic" else load(store.PUBLISHED / name)
    cells = report.primary_cells(r)
    root = parse(charts_ratio.verdict(r))
    (left, right, top, bottom), = plot_box(root)
    value = axis_value(root, bottom)
    lines = root.findall(".//s:line[@class='interval']", NS)
    dots = root.findall(".//s:circle[@class='ratio']", NS)
    assert len(lines) == len(dots) == len(cells)
    for cell, line, dot in zip(cells, lines, dots):
        lo, hi = cell["interval"]
        assert value(float(line.get("x1"))) == pytest.approx(lo, rel=0.01)
        assert value(float(line.get("x2"))) == pytest.approx(hi, rel=0.01)
        assert value(float(dot.get("cx"))) == pytest.approx(cell["ratio"], rel=0.01)
    unity = root.find(".//s:line[@class='unity']", NS)
    assert value(float(unity.get("x1"))) == pytest.approx(1, rel=0.005)


def test_the_sweep_chart_draws_one_interval_per_sweep_value_and_names_the_parameter():
    result = load(store.PUBLISHED / "wallet-sweep")
    root = parse(charts_ratio.sweep(result))
    assert len(root.findall(".//s:line[@class='interval']", NS)) == len(result["cells"])
    assert "network.latency_ms (the swept setting)" in texts(root)
    assert root.find(".//s:polygon[@class='band']", NS) is not None


def test_the_capacity_chart_brackets_each_run_between_held_and_broke():
    result = load(store.PUBLISHED / "wallet-capacity")
    root = parse(charts_load.capacity(result))
    runs = [r for c in result["cells"] for r in c["runs"]]
    assert len(root.findall(".//s:line[@class='bracket']", NS)) == len(runs)
    first = runs[0]
    assert f"{charts_svg.rate(first['capacity'])}–{charts_svg.rate(first['broke_at'])}/s" in texts(root)


def test_the_latency_chart_draws_every_run_in_its_variants_colour():
    result = load(store.PUBLISHED / "wallet-fixed")
    root = parse(charts_load.latency(result))
    lines = root.findall(".//s:polyline[@class='run']", NS)
    assert len(lines) == sum(len(c["runs"]) for c in result["cells"])
    assert {line.get("stroke") for line in lines} == set(charts_svg.COLORS[:2])
    assert "p95 latency (ms), log" in texts(root)  # the cross-zone profile spans 20 to 500 ms


def test_results_without_a_picture_get_none_and_a_command_result_gets_bars(build):
    assert list(charts.charts(load(store.PUBLISHED / "parsing-jmh"))) == ["bars.svg"]
    assert set(charts.charts(load(store.PUBLISHED / "cold-start"))) == {
        "verdict.svg", "rounds.svg", "cold-start-success.svg", "cold-start-p99.svg"}
    r = build.result()
    for run in r["cells"][0]["runs"]:
        run["series"] = []
    assert "latency.svg" not in charts.charts(r)


def test_write_replaces_stale_charts_and_leaves_unchanged_ones_alone(tmp_path, build):
    r = build.result()
    (tmp_path / "sweep.svg").write_text("<svg/>")
    written = charts.write(r, tmp_path)
    assert sorted(p.name for p in written) == ["latency.svg", "rounds.svg", "sweep.svg", "verdict.svg"]
    assert sorted(p.name for p in tmp_path.glob("*.svg")) == ["latency.svg", "rounds.svg", "verdict.svg"]
    assert charts.write(r, tmp_path) == []


def test_publishing_and_regenerating_write_the_report_and_the_charts(tmp_path, monkeypatch, build):
    monkeypatch.setattr(store, "PUBLISHED", tmp_path / "published")
    run = tmp_path / "run"
    run.mkdir()
    r = build.result()
    (run / "result.json").write_text(json.dumps(r))
    (run / "REPORT.md").write_text("old")
    target = publishing.publish(run, "x", store.read(run / "result.json"))
    assert (target / "verdict.svg").read_text() == charts_ratio.verdict(r)
    changed = publishing.regenerate_published()
    assert [p.name for p in changed] == ["REPORT.md"]
    assert (target / "REPORT.md").read_text() == report.markdown(copy.deepcopy(r))
    assert publishing.regenerate_published() == []


def test_republishing_renews_a_published_screenshot(tmp_path, monkeypatch, build):
    from perflab.render import screenshot
    monkeypatch.setattr(store, "PUBLISHED", tmp_path / "published")
    shots = []
    monkeypatch.setattr(screenshot, "screenshot", lambda page, png: shots.append((page.name, png.name)) or png.write_bytes(b"png"))
    run = tmp_path / "run"
    run.mkdir()
    (run / "result.json").write_text(json.dumps(build.result()))
    (run / "report.html").write_text("<html></html>")
    target = publishing.publish(run, "x", store.read(run / "result.json"))
    assert shots == [] and not (target / "report.png").exists()  # nothing was photographed before
    (target / "report.png").write_bytes(b"old")
    publishing.publish(run, "x", store.read(run / "result.json"))
    assert shots == [("report.html", "report.png")] and (target / "report.png").read_bytes() == b"png"


def test_the_html_report_draws_its_charts_with_the_chart_module(build):
    html = html_page.html(build.result())
    for element in ('id="rounds-chart"', 'id="latency-chart"', 'id="headline"'):
        assert element in html
    assert charts_ratio.rounds_panel(build.result()["cells"][0]).strip() in html

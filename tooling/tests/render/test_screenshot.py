"""tooling/perflab/render/screenshot.py renders report.html in headless Chromium: a good page passes, a page missing a piece fails."""
import pytest
from PIL import Image

from perflab.render import screenshot

FLAME = """<!doctype html><html><body><svg width="800" height="60">
<rect x="0" y="40" width="800" height="16" fill="#e0e0e0"/><rect x="0" y="22" width="300" height="16" fill="#6464ff"/>
<rect x="300" y="22" width="500" height="16" fill="#ff6060"/></svg></body></html>"""

PARTS = {
    "verdict-table": """<table id="verdict-table"><tr><th>metric</th><th>A</th><th>B</th><th>verdict</th></tr>
        <tr><td>p95</td><td>120 ms</td><td>45 ms</td><td>better</td></tr></table>""",
    "rounds-chart": """<svg id="rounds-chart" width="500" height="160">
        <rect x="40" y="60" width="300" height="40" fill="#cfe0f4"/>
        <line x1="0" y1="80" x2="500" y2="80" stroke="#888"/>
        <circle cx="100" cy="70" r="5" fill="#1f77b4"/><circle cx="200" cy="90" r="5" fill="#1f77b4"/>
        <circle cx="300" cy="75" r="5" fill="#1f77b4"/></svg>""",
    "latency-chart": """<svg id="latency-chart" width="500" height="160">
        <polyline class="side-a" fill="none" points="0,120 100,90 200,100 300,95 400,97"/>
        <polyline class="side-b" fill="none" points="0,60 100,40 200,45 300,42 400,41"/></svg>""",
    "flame-diff": """<div id="flame-diff"><iframe src="flame-diff.html" width="820" height="90"></iframe></div>""",
}
STYLE = "<style>.side-a {stroke: #1f77b4; stroke-width: 2} .side-b {stroke: #d62728; stroke-width: 2}</style>"


def write_report(folder, parts=PARTS, style=STYLE):
    (folder / "flame-diff.html").write_text(FLAME)
    body = "\n".join(parts.values())
    page = f"<!doctype html><html><head><meta charset='utf-8'><title>A/B</title>{style}</head>" \
           f"<body><h1>wallet: better</h1>{body}</body></html>"
    (folder / "report.html").write_text(page)
    return folder / "report.html"


def test_a_complete_report_passes_and_leaves_a_screenshot(tmp_path):
    report = write_report(tmp_path)
    assert screenshot.check(report, tmp_path / "report.png") == []
    with Image.open(tmp_path / "report.png") as image:
        assert image.size == screenshot.WINDOW
    assert screenshot.distinct_colours(tmp_path / "report.png") >= screenshot.MIN_COLOURS


@pytest.mark.parametrize("missing", list(PARTS))
def test_a_report_missing_one_piece_fails(tmp_path, missing):
    report = write_report(tmp_path, {key: part for key, part in PARTS.items() if key != missing})
    assert screenshot.check(report) == [f"#{missing} is missing"]


def test_charts_drawn_by_script_count_once_the_scripts_ran(tmp_path):
    parts = dict(PARTS, **{"rounds-chart": """<svg id="rounds-chart" width="500" height="160"></svg><script>
        addEventListener('load', () => setTimeout(() => {
          const svg = document.getElementById('rounds-chart'), ns = 'http://www.w3.org/2000/svg';
          for (const [tag, attrs] of [['line', {x1: 0, y1: 80, x2: 500, y2: 80, stroke: '#888'}],
                                      ['circle', {cx: 100, cy: 70, r: 5}], ['circle', {cx: 200, cy: 90, r: 5}]]) {
            const node = document.createElementNS(ns, tag);
            for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
            svg.appendChild(node);
          }
        }, 200));</script>"""})
    assert screenshot.check(write_report(tmp_path, parts)) == []


def test_latency_lines_in_one_colour_do_not_show_a_and_b(tmp_path):
    report = write_report(tmp_path, style="<style>polyline {stroke: #333}</style>")
    problems = screenshot.check(report)
    assert len(problems) == 1 and problems[0].startswith("#latency-chart needs an svg with >= 2 lines in >= 2 colours")


def test_a_hidden_table_and_an_empty_flame_frame_fail(tmp_path):
    report = write_report(tmp_path, dict(PARTS, **{
        "verdict-table": PARTS["verdict-table"].replace('<table id="verdict-table">',
                                                        '<table id="verdict-table" style="display:none">'),
        "flame-diff": '<div id="flame-diff"><iframe src="no-such-flame.html"></iframe></div>'}))
    assert screenshot.check(report) == ["#verdict-table is not visible (0x0 px)",
                                        "#flame-diff holds neither an svg with rects nor an iframe with content"]


def test_a_blank_screenshot_is_caught(tmp_path):
    Image.new("RGB", (200, 100), "white").save(tmp_path / "blank.png")
    assert screenshot.distinct_colours(tmp_path / "blank.png") == 1
    report = tmp_path / "report.html"
    report.write_text("<!doctype html><html><body></body></html>")
    problems = screenshot.check(report)
    assert problems[-1] == f"the screenshot looks blank: 1 distinct colours (< {screenshot.MIN_COLOURS})"
    assert len(problems) == len(screenshot.IDS) + 1


def test_the_command_line_exits_1_on_a_failing_page(tmp_path, capsys):
    report = write_report(tmp_path, {key: part for key, part in PARTS.items() if key != "flame-diff"})
    assert screenshot.main([str(report), "--png", str(tmp_path / "shot.png")]) == 1
    assert "#flame-diff is missing" in capsys.readouterr().err
    assert screenshot.main([str(write_report(tmp_path))]) == 0
    assert (tmp_path / "report.png").is_file()

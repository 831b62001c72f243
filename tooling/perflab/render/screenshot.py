#!/usr/bin/env python3
"""report.html checked as a person sees it: headless Chromium renders it, and the rendered page must hold

    #verdict-table  a <table> (or an element holding one) with at least one row of <td> cells
    #rounds-chart   an <svg> with at least 2 <circle> (the rounds) and a <line>, <rect> or <path> (the interval)
    #latency-chart  an <svg> with at least 2 <polyline>/<path> lines in at least 2 stroke colours (A and B)
    #flame-diff     an <svg> with at least one <rect>, or an <iframe> whose page draws (a <canvas> or <svg>):
                    tooling/perflab/measure/flame.py's diff_flamegraph output, e.g. <iframe src="flame-diff.html">

each with a non-zero size and not hidden, and the screenshot (PNG) must not be blank: at least
MIN_COLOURS distinct colours.

Usage: ./perflab python -m perflab.render.screenshot results/<run>/report.html [--png out.png]   (exit 1 and a list of problems
when the page fails). In Python: problems = check(report_html, png) -> [] when all is well.

The page is measured in the browser after its scripts ran: a copy of it with a small measuring script (and
a <base> pointing at the report's folder, so relative links still work) is loaded once with --dump-dom and
--screenshot, and the script leaves its measurements, computed styles included, in an attribute of <html>.
Chromium comes from Debian's package, installed by `tooling/tools.sh chromium`.
"""
import argparse
import html
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
from typing import Any

from PIL import Image

from perflab.paths import ROOT
IDS = ["verdict-table", "rounds-chart", "latency-chart", "flame-diff"]
MIN_COLOURS = 16
WINDOW = (1400, 3000)
MARK = "data-perflab-check"
TIMEOUT_S = 60
SETTLE_MS = 1000  # virtual milliseconds after load for charts drawn by timers

Path = str | os.PathLike[str]

MEASURE: str = """<script>
function perflabMeasure() {
  const out = {};
  const lines = el => [...el.querySelectorAll('polyline, path')];
  for (const id of %(ids)s) {
    const el = document.getElementById(id);
    if (!el) { out[id] = null; continue; }
    const box = el.getBoundingClientRect(), style = getComputedStyle(el);
    const frames = el.tagName === 'IFRAME' ? [el] : [...el.querySelectorAll('iframe')];
    out[id] = {
      tag: el.tagName.toLowerCase(),
      width: box.width, height: box.height,
      shown: style.display !== 'none' && style.visibility !== 'hidden' && el.getClientRects().length > 0,
      table: el.tagName === 'TABLE' || !!el.querySelector('table'),
      dataRows: [...el.querySelectorAll('tr')].filter(tr => tr.querySelector('td')).length,
      svg: el.tagName.toLowerCase() === 'svg' || !!el.querySelector('svg'),
      circles: el.querySelectorAll('circle').length,
      intervals: el.querySelectorAll('line, rect, path').length,
      rects: el.querySelectorAll('rect').length,
      lines: el.querySelectorAll('polyline').length + el.querySelectorAll('path').length,
      strokes: [...new Set(lines(el).map(p => getComputedStyle(p).stroke).filter(s => s && s !== 'none'))],
      frames: frames.map(f => {
        let drawings = -1;
        try { drawings = f.contentDocument.querySelectorAll('canvas, svg').length; } catch (e) {}
        return {src: f.getAttribute('src') || '', drawings};
      }),
    };
  }
  document.documentElement.setAttribute('%(mark)s', JSON.stringify(out));
}
// at load, and again once charts drawn by timers after load are there (virtual time: no real wait)
addEventListener('load', () => { perflabMeasure(); setTimeout(perflabMeasure, %(settle)d); });
</script>"""


class ChromiumError(RuntimeError):
    """Chromium is missing or failed; the message says how to install it or what it printed."""


def chromium() -> str:
    """The Chromium binary, installed with `tooling/tools.sh chromium` when missing."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    result = subprocess.run(["bash", str(ROOT / "tooling" / "tools.sh"), "chromium"], capture_output=True, text=True)
    if result.returncode != 0:
        raise ChromiumError(f"chromium is not installed and tooling/tools.sh chromium failed: {result.stderr.strip()}")
    return result.stdout.strip().splitlines()[-1]


def _headless(url: str, *options: str) -> str:
    with tempfile.TemporaryDirectory(prefix="perflab-chromium-") as profile:
        command = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                   "--allow-file-access-from-files", "--no-first-run", "--disable-extensions",
                   f"--user-data-dir={profile}", f"--window-size={WINDOW[0]},{WINDOW[1]}",
                   "--virtual-time-budget=5000", *options, url]
        try:
            result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired as timeout:
            raise ChromiumError(f"chromium did not finish within {TIMEOUT_S} s: {' '.join(command)}") from timeout
    if result.returncode != 0:
        raise ChromiumError(f"chromium exited {result.returncode}: {result.stderr.strip()[-2000:]}")
    return result.stdout


def screenshot(report_html: Path, out_png: Path) -> str:
    """Renders the page to a PNG of WINDOW's size; returns the PNG's path."""
    out_png = pathlib.Path(out_png).resolve()
    _headless(pathlib.Path(report_html).resolve().as_uri(), f"--screenshot={out_png}")
    if not out_png.is_file():
        raise ChromiumError(f"chromium wrote no screenshot to {out_png}")
    return str(out_png)


def measure(report_html: Path, png: Path | None = None) -> dict[str, Any]:
    """{element id: its measurements in the rendered page, or None when absent}; one Chromium run that also
    writes the screenshot to `png` when given."""
    report = pathlib.Path(report_html).resolve()
    page: str = report.read_text(encoding="utf-8")
    probe: str = MEASURE % {"ids": json.dumps(IDS), "mark": MARK, "settle": SETTLE_MS}
    base = f'<base href="{html.escape(report.parent.as_uri())}/">'
    def head_then_base(m: re.Match[str]) -> str:
        return m.group(1) + base

    def probe_then_body_end(m: re.Match[str]) -> str:
        return probe + m.group(1)

    page, heads = re.subn(r"(<head[^>]*>)", head_then_base, page, count=1, flags=re.I)
    page = page if heads else base + page
    page, bodies = re.subn(r"(</body\s*>)", probe_then_body_end, page, count=1, flags=re.I)
    page = page if bodies else page + probe
    shot = [f"--screenshot={pathlib.Path(png).resolve()}"] if png else []
    with tempfile.TemporaryDirectory(prefix="perflab-report-") as tmp:
        copy = pathlib.Path(tmp) / report.name
        copy.write_text(page, encoding="utf-8")
        dom = _headless(copy.as_uri(), "--dump-dom", *shot)
    if png and not pathlib.Path(png).is_file():
        raise ChromiumError(f"chromium wrote no screenshot to {png}")
    found = re.search(MARK + r'="([^"]*)"', dom)
    if not found:
        raise ChromiumError("the measuring script did not run: the page's scripts may have failed to load")
    measured: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    return measured


def distinct_colours(png: Path) -> int:
    with Image.open(png) as image:
        colours = image.convert("RGB").getcolors(maxcolors=1 << 24)
    return len(colours or [])


def _frame_has_content(frame: dict[str, Any], folder: pathlib.Path) -> bool:
    """The framed page draws something: a canvas or svg (read from the file if the browser kept it apart)."""
    if frame["drawings"] >= 0:
        return bool(frame["drawings"] > 0)
    target = folder / frame["src"].split("#")[0] if frame["src"] and "://" not in frame["src"] else None
    if not (target and target.is_file()):
        return False
    text = target.read_text(encoding="utf-8", errors="replace").lower()
    return "<canvas" in text or "<svg" in text


def problems_in(measured: dict[str, Any], folder: pathlib.Path) -> list[str]:
    """What a person would miss on the page, from measure()'s result."""
    problems = []
    for element_id in IDS:
        found = measured.get(element_id)
        if found is None:
            problems.append(f"#{element_id} is missing")
            continue
        if not found["shown"] or found["width"] <= 0 or found["height"] <= 0:
            problems.append(f"#{element_id} is not visible ({found['width']:.0f}x{found['height']:.0f} px)")
        if element_id == "verdict-table" and not (found["table"] and found["dataRows"] >= 1):
            problems.append("#verdict-table has no table with a row of cells")
        if element_id == "rounds-chart" and not (found["svg"] and found["circles"] >= 2 and found["intervals"] >= 1):
            problems.append(f"#rounds-chart needs an svg with >= 2 circles and an interval "
                            f"(found {found['circles']} circles, {found['intervals']} lines/rects/paths)")
        if element_id == "latency-chart" and not (found["svg"] and found["lines"] >= 2 and len(found["strokes"]) >= 2):
            problems.append(f"#latency-chart needs an svg with >= 2 lines in >= 2 colours "
                            f"(found {found['lines']} lines, colours {found['strokes']})")
        if element_id == "flame-diff":
            drawn = found["svg"] and found["rects"] >= 1
            framed = any(_frame_has_content(frame, folder) for frame in found["frames"])
            if not (drawn or framed):
                problems.append("#flame-diff holds neither an svg with rects nor an iframe with content")
    return problems


def check(report_html: Path, png: Path | None = None) -> list[str]:
    """Renders report_html (screenshot to `png`, or a temporary file) and returns the list of problems."""
    report = pathlib.Path(report_html).resolve()
    if not report.is_file():
        return [f"{report} does not exist"]
    with tempfile.TemporaryDirectory(prefix="perflab-shot-") as tmp:
        shot = png or os.path.join(tmp, "report.png")
        problems = problems_in(measure(report, shot), report.parent)
        colours = distinct_colours(shot)
    if colours < MIN_COLOURS:
        problems.append(f"the screenshot looks blank: {colours} distinct colours (< {MIN_COLOURS})")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check a report.html as a person sees it (headless Chromium)")
    parser.add_argument("report_html")
    parser.add_argument("--png", help="where to keep the screenshot (default: next to the report, report.png)")
    args = parser.parse_args(argv)
    png = args.png or str(pathlib.Path(args.report_html).with_suffix(".png"))
    problems = check(args.report_html, png)
    for problem in problems:
        print(f"report check: {problem}", file=sys.stderr)
    print(f"report check: {'FAILED' if problems else 'ok'} ({args.report_html}, screenshot {png})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

"""Charts of a result, as SVG text: pure functions of result.json (the same result gives the same bytes).

charts(result) -> {file name: standalone SVG} is what `./perflab ab --tables` and --publish write beside a published
result in docs/results/<name>/ (write()), and what README.md and docs/ show as images:

    verdict.svg     the headline: per profile (and sweep point, and candidate) the primary metric's B/A with its
                    95 % interval, the ±δ band of no difference and the verdict word
    rounds.svg      the primary metric's B/A in every round, with the interval and the band
    latency.svg     p95 over the measured window, every run, one colour per variant, one panel per profile
    sweep.svg       a sweep: B/A and its interval at each sweep value (where the candidate starts to win)
    capacity.svg    a capacity search: the rates each run held and broke at, and the bracket between them
    cold-start-success.svg, cold-start-p99.svg
                    a cold start: the share of the first requests answered, per run; p99 of the first 100, the
                    first 1,000 and the steady requests (the warm-up curve)
    first-request.svg
                    the first and the second request of each fresh instance, per run (and after the idle period)
    bars.svg        a command result (JMH, a benchmark's rows): one bar per row

Standalone means what GitHub renders as an <img>: xmlns, viewBox, width and height, a white background, a title,
axis labels with units, a legend, font-family sans-serif, no script and no external reference. report.html draws
its charts with the same functions (rounds_panel, latency_panel, sweep), inline.

"""
import html as h
import math
import pathlib
from collections.abc import Callable

import ramp
import report
import words

SVG_NS = "http://www.w3.org/2000/svg"
COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]
VERDICT_COLORS = {"better": "#1a7f37", "worse": "#cf222e", "no difference": "#57606a", "inconclusive": "#bf8700"}
BAND = "#e6e6e6"
GRID = "#eeeeee"
INK = "#222222"
MUTED = "#666666"
WIDTH = 820
LOG_ABOVE = 6  # a ratio axis turns logarithmic when its largest value is this many times its smallest


def esc(value):
    return h.escape(str(value), quote=True)


def n(x):
    """A coordinate: one decimal, always."""
    return f"{x:.1f}"


def finite(v):
    return v is not None and isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


# ---------------------------------------------------------------------- drawing

class Svg:
    """An SVG document built element by element; render() gives the text."""

    def __init__(self, width, height, title, element_id=None):
        self.width, self.height, self.title, self.element_id = width, height, title, element_id
        self.parts = []

    def add(self, text):
        self.parts.append(text)

    def text(self, x, y, content, size=11, anchor="start", fill=INK, weight=None, cls=None, rotate=False):
        extra = (f' font-weight="{weight}"' if weight else "") + (f' class="{cls}"' if cls else "")
        extra += f' transform="rotate(-90 {n(x)} {n(y)})"' if rotate else ""
        self.add(f'<text x="{n(x)}" y="{n(y)}" font-size="{size}" text-anchor="{anchor}" fill="{fill}"{extra}>'
                 f'{esc(content)}</text>')

    def line(self, x1, y1, x2, y2, stroke=MUTED, width=1, dash=None, cls=None, tip=None, opacity=None):
        extra = (f' stroke-dasharray="{dash}"' if dash else "") + (f' class="{cls}"' if cls else "")
        extra += f' opacity="{opacity}"' if opacity else ""
        self.add(f'<line x1="{n(x1)}" y1="{n(y1)}" x2="{n(x2)}" y2="{n(y2)}" stroke="{stroke}" stroke-width="{width}"'
                 f'{extra}' + (f'><title>{esc(tip)}</title></line>' if tip else "/>"))

    def rect(self, x, y, w, hgt, fill, cls=None, stroke=None, tip=None, opacity=None):
        extra = (f' class="{cls}"' if cls else "") + (f' stroke="{stroke}"' if stroke else "")
        extra += f' opacity="{opacity}"' if opacity else ""
        self.add(f'<rect x="{n(x)}" y="{n(y)}" width="{n(max(0, w))}" height="{n(max(0, hgt))}" fill="{fill}"{extra}'
                 + (f'><title>{esc(tip)}</title></rect>' if tip else "/>"))

    def circle(self, x, y, r, fill, cls=None, tip=None, opacity=None, stroke=None):
        extra = (f' class="{cls}"' if cls else "") + (f' opacity="{opacity}"' if opacity else "")
        extra += f' stroke="{stroke}" stroke-width="1.5"' if stroke else ""
        self.add(f'<circle cx="{n(x)}" cy="{n(y)}" r="{r}" fill="{fill}"{extra}'
                 + (f'><title>{esc(tip)}</title></circle>' if tip else "/>"))

    def polyline(self, points, stroke, width=1.5, opacity=None, cls=None, tip=None, fill="none", dash=None):
        path = " ".join(f"{n(x)},{n(y)}" for x, y in points)
        extra = (f' opacity="{opacity}"' if opacity else "") + (f' class="{cls}"' if cls else "")
        extra += f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<polyline fill="{fill}" stroke="{stroke}" stroke-width="{width}" points="{path}"{extra}'
                 + (f'><title>{esc(tip)}</title></polyline>' if tip else "/>"))

    def polygon(self, points, fill, cls=None):
        path = " ".join(f"{n(x)},{n(y)}" for x, y in points)
        self.add(f'<polygon points="{path}" fill="{fill}"' + (f' class="{cls}"' if cls else "") + "/>")

    def heading(self, title, subtitle=None):
        """The visible title (and a line under it) at the top left."""
        self.text(16, 24, title, size=15, weight="bold", cls="title")
        if subtitle:
            self.text(16, 42, subtitle, size=11, fill=MUTED)

    def legend(self, x, y, items, width=None):
        """items: (kind, colour, text); kind is dot, line, dash, band, bar or cross. Wraps at `width`."""
        right = x + (width or self.width - x - 16)
        cx = x
        for kind, colour, content in items:
            span = 26 + 6.2 * len(content)
            if cx + span > right and cx > x:
                cx, y = x, y + 16
            if kind == "dot":
                self.circle(cx + 7, y - 4, 4, colour)
            elif kind == "line":
                self.line(cx, y - 4, cx + 16, y - 4, stroke=colour, width=3)
            elif kind == "dash":
                self.line(cx, y - 4, cx + 16, y - 4, stroke=colour, width=1.5, dash="4 3")
            elif kind == "band":
                self.rect(cx, y - 10, 16, 12, colour)
            elif kind == "bar":
                self.rect(cx, y - 9, 16, 10, colour)
            elif kind == "cross":
                cross(self, cx + 7, y - 4, colour)
            self.text(cx + 22, y, content, size=11, cls="legend")
            cx += span + 14
        return y

    def render(self):
        ident = f' id="{esc(self.element_id)}"' if self.element_id else ""
        return (f'<svg xmlns="{SVG_NS}"{ident} width="{self.width}" height="{n(self.height)}" '
                f'viewBox="0 0 {self.width} {n(self.height)}" font-family="sans-serif" role="img">'
                f'<title>{esc(self.title)}</title>'
                f'<rect x="0" y="0" width="{self.width}" height="{n(self.height)}" fill="#ffffff"/>'
                + "".join(self.parts) + "</svg>\n")


def cross(svg, x, y, colour, size=4):
    svg.line(x - size, y - size, x + size, y + size, stroke=colour, width=2, cls="broke")
    svg.line(x - size, y + size, x + size, y - size, stroke=colour, width=2)


# ---------------------------------------------------------------------- scales

def tick_text(v):
    """A tick label: 0.5, 1, 2.5, 1,000."""
    return f"{v:,.0f}" if abs(v) >= 1000 else words.sig(v, 3)


def nice_step(span, count):
    raw = span / max(1, count)
    magnitude = 10 ** math.floor(math.log10(raw))
    return next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw * (1 - 1e-9))


class Scale:
    """Values in [lo, hi] to pixels in [a, b] (b < a for a y axis), linear or logarithmic; values outside are
    clamped to the ends (a chart never draws outside its axis)."""

    def __init__(self, lo, hi, a, b, log=False):
        self.lo, self.hi, self.a, self.b, self.log = lo, hi, a, b, log

    def unit(self, v):
        v = min(max(v, self.lo), self.hi)
        if self.log:
            return (math.log10(v) - math.log10(self.lo)) / ((math.log10(self.hi) - math.log10(self.lo)) or 1)
        return (v - self.lo) / ((self.hi - self.lo) or 1)

    def __call__(self, v):
        if not finite(v):
            v = self.hi if v == math.inf else self.lo
        return self.a + (self.b - self.a) * self.unit(v)

    def inside(self, v):
        return finite(v) and self.lo <= v <= self.hi

    def ticks(self, count=6):
        if self.log:
            low, high = math.floor(math.log10(self.lo)), math.ceil(math.log10(self.hi))
            steps = (1, 2, 5) if high - low <= 3 else (1,)
            ticks = [round(m * 10 ** d, 12) for d in range(low, high + 1) for m in steps]
            ticks = [t for t in ticks if self.lo <= t <= self.hi]
            if len(ticks) >= 3:
                return ticks
        step = nice_step(self.hi - self.lo, count)
        first = math.ceil(self.lo / step - 1e-9)
        out = []
        k = first
        while k * step <= self.hi * (1 + 1e-9) + 1e-12:
            out.append(round(k * step, 12))
            k += 1
        return out


def scale_for(values, a, b, log=None, zero=False, pad=0.06, nice=False):
    """A scale over the finite values (positive ones for a log scale); log=None picks log when the values span more
    than LOG_ABOVE times; zero=True starts a linear scale at 0; nice=True widens a linear one to tick steps."""
    values = [v for v in values if finite(v)]
    positive = [v for v in values if v > 0]
    if log is None:
        log = bool(positive) and len(positive) == len(values) and max(positive) / min(positive) > LOG_ABOVE
    if log:
        lo, hi = (min(positive), max(positive)) if positive else (0.1, 10)
        if hi / lo < 1.5:
            lo, hi = lo / 1.2, hi * 1.2
        factor = (hi / lo) ** pad
        return Scale(lo / factor, hi * factor, a, b, log=True)
    lo, hi = (min(values), max(values)) if values else (0, 1)
    if zero:
        lo = min(0, lo)
    if hi == lo:
        lo, hi = (lo - 1, hi + 1) if lo == 0 else (lo - abs(lo) * 0.1, hi + abs(hi) * 0.1)
    if nice:
        step = nice_step(hi - lo, 5)
        lo, hi = math.floor(lo / step + 1e-9) * step, math.ceil(hi / step - 1e-9) * step
        return Scale(lo, hi, a, b)
    span = hi - lo
    return Scale(lo if zero and lo == 0 else lo - pad * span, hi + pad * span, a, b)


def x_axis(svg, scale, y, top, title, grid=True):
    """Ticks and labels under a plot, gridlines up to `top`, the axis title centred below."""
    svg.line(min(scale.a, scale.b), y, max(scale.a, scale.b), y, stroke="#999999", cls="axis")
    for t in scale.ticks():
        x = scale(t)
        if grid:
            svg.line(x, top, x, y, stroke=GRID)
        svg.line(x, y, x, y + 4, stroke="#999999")
        svg.text(x, y + 16, tick_text(t), size=10, anchor="middle", fill=MUTED)
    svg.text((scale.a + scale.b) / 2, y + 32, title, size=11, anchor="middle", cls="axis-label")


def y_axis(svg, scale, x, right, title, grid=True):
    svg.line(x, min(scale.a, scale.b), x, max(scale.a, scale.b), stroke="#999999", cls="axis")
    for t in scale.ticks(5):
        y = scale(t)
        if grid:
            svg.line(x, y, right, y, stroke=GRID)
        svg.text(x - 6, y + 3.5, tick_text(t), size=10, anchor="end", fill=MUTED)
    middle = (scale.a + scale.b) / 2
    svg.text(x - 44, middle, title, size=11, anchor="middle", rotate=True, cls="axis-label")


def ratio_axis_title(scale, rows):
    """'B/A (candidate / baseline), log scale — left of 1 is better'."""
    title = "B/A (candidate / baseline)" + (", log scale" if scale.log else "")
    directions = {r["lower_is_better"] for r in rows}
    if directions == {True}:
        title += ": left of 1 is better (lower)"
    elif directions == {False}:
        title += ": right of 1 is better (higher)"
    return title


# ---------------------------------------------------------------------- B/A rows: verdict.svg, rounds.svg

def ratio_rows(rows, title, subtitle, rounds=False, numbers=True, element_id=None, width=WIDTH):
    """One row per comparison: the ±δ band, 1 dashed, the 95 % interval as a bar, B/A as a dot in the verdict's
    colour (and each round's B/A as small dots), the verdict word and the numbers at the right.

    rows: dicts with label, sublabel, ratio, interval (lo, hi), delta, verdict, lower_is_better, round_ratios, note.
    """
    longest = max([len(r["label"]) * 7.2 for r in rows] + [len(r.get("sublabel") or "") * 5.8 for r in rows])
    left, right = min(300, max(150, 28 + longest)), (250 if numbers else 110)
    step = 38 if any(r.get("sublabel") for r in rows) else 28
    top = 84
    height = top + step * len(rows) + 56
    svg = Svg(width, height, title, element_id)
    svg.heading(title, subtitle)
    legend = [("dot", INK, "B/A of the medians"), ("line", "#333333", "95 % interval"),
              ("band", BAND, "±δ: no difference"), ("dash", MUTED, "1 = no change")]
    if rounds:
        legend.insert(1, ("dot", COLORS[0], "B/A in one round"))
    svg.legend(16, 64, legend)
    values = [1.0]
    for r in rows:
        values += [r["ratio"], *r["interval"], 1 - r["delta"], 1 + r["delta"]]
        values += r.get("round_ratios", []) if rounds else []
    values = [v for v in values if finite(v) and v > 0] or [1.0]
    scale = scale_for(values, left, width - right, log=max(values) / min(values) > LOG_ABOVE)
    bottom = top + step * len(rows)
    svg.rect(left, top, width - right - left, bottom - top, "none", cls="plot")
    for i, r in enumerate(rows):
        y0 = top + i * step
        y = y0 + step / 2
        if i:
            svg.line(16, y0, width - 16, y0, stroke=GRID)
        d = r["delta"]
        if finite(d):
            svg.rect(scale(1 - d), y0 + 4, scale(1 + d) - scale(1 - d), step - 8, BAND, cls="band",
                     tip=f"±δ {words.delta_text(d)}")
    svg.line(scale(1), top, scale(1), bottom, stroke=MUTED, width=1.5, dash="4 3", cls="unity")
    for i, r in enumerate(rows):
        y = top + i * step + step / 2
        name_y = y - 3 if r.get("sublabel") else y + 4
        svg.text(16, name_y, clip(r["label"], 38), size=12, weight="bold")
        if r.get("sublabel"):
            svg.text(16, y + 12, clip(r["sublabel"], 46), size=10, fill=MUTED)
        colour = VERDICT_COLORS.get(r["verdict"], INK)
        if rounds:
            for k, x in enumerate(v for v in r.get("round_ratios", []) if finite(v)):
                svg.circle(scale(x), y + (k % 3 - 1) * 3, 3, COLORS[0], cls="round", opacity="0.55",
                           tip=f"round {k + 1}: {words.ratio_text(x)}")
        lo, hi = r["interval"]
        if finite(lo) and finite(hi):
            svg.line(scale(lo), y, scale(hi), y, stroke="#333333", width=3, cls="interval",
                     tip=f"95 % interval {words.ratio_text(lo)}–{words.ratio_text(hi)}")
            for end in (lo, hi):
                svg.line(scale(end), y - 5, scale(end), y + 5, stroke="#333333", width=1.5)
        if finite(r["ratio"]):
            svg.circle(scale(r["ratio"]), y, 5, colour, cls="ratio", stroke="#ffffff",
                       tip=f"B/A {words.ratio_text(r['ratio'])}")
        tx = width - right + 10
        note = f'<tspan font-weight="normal" fill="{MUTED}"> · {esc(r["note"])}</tspan>' if r.get("note") else ""
        svg.add(f'<text x="{n(tx)}" y="{n(y - 2 if numbers else y + 4)}" font-size="12" font-weight="bold" '
                f'fill="{colour}" class="verdict">{esc(r["verdict"])}{note}</text>')
        if numbers:
            svg.text(tx, y + 12, f"B/A {words.ratio_text(r['ratio'])} ({words.ratio_text(lo)}–{words.ratio_text(hi)})"
                     + (f", δ {words.delta_text(r['delta'])}" if finite(r.get("delta")) else ""), size=10, fill=MUTED,
                     cls="numbers")
    x_axis(svg, scale, bottom, top, ratio_axis_title(scale, rows))
    return svg.render()


def clip(text, length):
    text = str(text)
    return text if len(text) <= length else text[:length - 1] + "…"


def primary_rows(result):
    several = len({c["candidate"] for c in report.primary_cells(result)}) > 1
    rows = []
    for c in report.primary_cells(result):
        if several:
            rows.append(dict(c, label=c["candidate"], sublabel=f"{c['place']}, against {c['baseline']}",
                             note=report.judged_text(c)))
        else:
            rows.append(dict(c, label=c["place"], sublabel=f"{c['candidate']} against {c['baseline']}",
                             note=report.judged_text(c)))
    return rows


def verdict(result):
    rows = primary_rows(result)
    if not rows:
        return None
    metric = words.label(rows[0]["metric"])
    ok, _ = report.headline_parts(result)
    aa = " (A/A: each at δ = its noise floor)" if result.get("calibration") else ""
    return ratio_rows(rows, f"{result['name']}: {'as expected' if ok else 'not as expected'}{aa}",
                      f"{metric}: candidate / baseline, the 95 % interval against the band of no difference (±δ)")


def rounds(result):
    rows = [r for r in primary_rows(result) if r["round_ratios"]]
    if not rows:
        return None
    metric = words.label(rows[0]["metric"])
    return ratio_rows(rows, f"{result['name']}: {metric}, B/A round by round",
                      "each dot one round (candidate / baseline of that round); the bar the 95 % interval of all",
                      rounds=True)


def rounds_panel(cell, element_id="rounds-chart"):
    """report.html: per-round B/A of every compared metric of one cell, the interval and the band."""
    rows = [dict(r, label=words.label(r["metric"]), sublabel=c["candidate"], delta=r.get("delta", cell.get("delta", 0)),
                 round_ratios=list(r.get("round_ratios") or []), interval=tuple(r["interval"]))
            for c in cell.get("comparisons", []) for r in c["rows"] if r.get("round_ratios")]
    if not rows:
        return f'<p id="{element_id}">no per-round ratios</p>'
    return ratio_rows(rows, f"{report.cell_title(cell)}: B/A per round", "every compared metric", rounds=True,
                      element_id=element_id)


# ---------------------------------------------------------------------- latency.svg

def series_runs(cell, key):
    return [(r["variant"], r["testid"], [(p["t"], p[key]) for p in r.get("series", []) if finite(p.get(key)) and finite(p.get("t"))])
            for r in cell["runs"] if r.get("series")]


def latency_panel(svg, cell, labels, key, y0, plot_height, left, right):
    """One profile's runs: p95 (or `key`) per second, a line per run in its variant's colour."""
    runs = [(v, t, pts) for v, t, pts in series_runs(cell, key) if pts]
    values = [y for _, _, pts in runs for _, y in pts]
    times = [x for _, _, pts in runs for x, _ in pts]
    svg.text(left, y0 - 8, report.cell_title(cell), size=12, weight="bold")
    positive = sorted(v for v in values if v > 0)
    # log when the bulk of the values (5th to 95th percentile, so a first second's outlier does not decide) spans 8x
    log = bool(positive) and positive[int(0.95 * (len(positive) - 1))] / positive[int(0.05 * (len(positive) - 1))] > 8
    ys = scale_for(values, y0 + plot_height, y0, log=log, zero=not log, nice=not log)
    xs = scale_for(times + [0], left, right, zero=True, nice=True, pad=0)
    svg.rect(left, y0, right - left, plot_height, "none", cls="plot")
    y_axis(svg, ys, left, right, f"{key} latency (ms){', log' if log else ''}")
    x_axis(svg, xs, y0 + plot_height, y0, "seconds into the measured window (s)")
    for variant, testid, pts in runs:
        colour = COLORS[labels.index(variant) % len(COLORS)] if variant in labels else INK
        svg.polyline([(xs(x), ys(y)) for x, y in pts], colour, width=1, opacity="0.45", cls="run",
                     tip=f"{testid} ({variant})")
    for k, variant in enumerate(labels):
        mine = [pts for v, _, pts in runs if v == variant]
        seconds = sorted({x for pts in mine for x, _ in pts})
        medians = [(x, report.median([y for pts in mine for t, y in pts if t == x])) for x in seconds]
        if len(mine) > 1 and len(medians) > 1:
            svg.polyline([(xs(x), ys(y)) for x, y in medians], COLORS[k % len(COLORS)], width=2.5, cls="median",
                         tip=f"{variant}: median of its runs, second by second")


def latency(result, key="p95"):
    cells = [c for c in result["cells"] if any(pts for _, _, pts in series_runs(c, key))]
    if not cells:
        return None
    labels = [v["label"] for v in result["experiment"]["variants"]]
    plot_height, gap = 190, 96
    top = 96
    height = top + len(cells) * (plot_height + gap) - 20
    svg = Svg(WIDTH, height, f"{result['name']}: {key} latency over time, every run")
    svg.heading(f"{result['name']}: {key} latency over time, every run",
                "thin: one line per run, the p95 of each second of the measured window; thick: the median of a variant's runs")
    svg.legend(16, 64, [("line", COLORS[i % len(COLORS)], name) for i, name in enumerate(labels)])
    for i, cell in enumerate(cells):
        latency_panel(svg, cell, labels, key, top + i * (plot_height + gap), plot_height, 80, WIDTH - 24)
    return svg.render()


def latency_chart(cell, labels, key="p95", element_id="latency-chart"):
    """report.html: one cell's runs, p95 over time, A and B overlaid."""
    if not any(pts for _, _, pts in series_runs(cell, key)):
        return f'<p id="{element_id}">no per-second series</p>'
    svg = Svg(WIDTH, 330, f"{report.cell_title(cell)}: {key} latency over time", element_id)
    svg.legend(16, 20, [("line", COLORS[i % len(COLORS)], name) for i, name in enumerate(labels)])
    latency_panel(svg, cell, labels, key, 64, 200, 80, WIDTH - 24)
    return svg.render()


# ---------------------------------------------------------------------- sweep.svg

def sweep(result, element_id=None):
    """B/A of the primary metric and its interval at each sweep value, 1 and ±δ marked: where the candidate wins."""
    e = result["experiment"]
    if not e.get("sweep"):
        return None
    cells = [c for c in result["cells"] if c.get("comparisons")]
    if len(cells) < 2:
        return None
    candidates = [c["candidate"] for c in cells[0]["comparisons"]]
    values = [c["value"] for c in cells]
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    left, right, top, plot_height = 90, WIDTH - 130, 96, 280
    parameter = e["sweep"]["parameter"]
    metric = words.label(e["primary"]["metric"])
    svg = Svg(WIDTH, top + plot_height + 64, f"{result['name']}: B/A of {metric} across {parameter}", element_id)
    svg.heading(f"{result['name']}: B/A of {metric} across {parameter}",
                f"candidate / baseline at each value of {parameter}, with the 95 % interval; shaded: ±δ, no difference")
    legend = [("line", COLORS[i % len(COLORS)], f"{name} / {cells[0]['comparisons'][i]['baseline']}") for i, name in enumerate(candidates)]
    svg.legend(16, 64, legend + [("band", BAND, "±δ: no difference"), ("dash", MUTED, "1 = no change")])
    ratios = [1.0]
    for c in cells:
        for comparison in c["comparisons"]:
            r = comparison["primary"]
            ratios += [r["ratio"], *r["interval"], 1 - r.get("delta", c.get("delta", 0)), 1 + r.get("delta", c.get("delta", 0))]
    ratios = [v for v in ratios if finite(v) and v > 0]
    ys = scale_for(ratios, top + plot_height, top, log=max(ratios) / min(ratios) > LOG_ABOVE)
    if numeric:
        xs = scale_for(values, left + 20, right - 20, pad=0)
        position = xs
    else:
        slot = (right - left) / len(values)
        position = lambda v: left + slot * (values.index(v) + 0.5)  # noqa: E731
    svg.rect(left, top, right - left, plot_height, "none", cls="plot")
    deltas = [(position(c["value"]), c["comparisons"][0]["primary"].get("delta", c.get("delta", 0))) for c in cells]
    deltas = [(left, deltas[0][1]), *deltas, (right, deltas[-1][1])]
    svg.polygon([(x, ys(1 + d)) for x, d in deltas] + [(x, ys(1 - d)) for x, d in reversed(deltas)], BAND, cls="band")
    y_axis(svg, ys, left, right, f"B/A of {metric}" + (", log" if ys.log else ""))
    svg.line(left, ys(1), right, ys(1), stroke=MUTED, width=1.5, dash="4 3", cls="unity")
    bottom = top + plot_height
    svg.line(left, bottom, right, bottom, stroke="#999999", cls="axis")
    for v in values:
        svg.line(position(v), bottom, position(v), bottom + 4, stroke="#999999")
        svg.text(position(v), bottom + 16, v if not numeric else tick_text(v), size=10, anchor="middle", fill=MUTED)
    svg.text((left + right) / 2, bottom + 34, f"{parameter} (the swept setting)", size=11, anchor="middle", cls="axis-label")
    for k, name in enumerate(candidates):
        colour = COLORS[k % len(COLORS)]
        offset = (k - (len(candidates) - 1) / 2) * 8
        points = []
        for c in cells:
            comparison = next((x for x in c["comparisons"] if x["candidate"] == name), None)
            if comparison is None:
                continue
            r, x = comparison["primary"], position(c["value"]) + offset
            lo, hi = r["interval"]
            if finite(lo) and finite(hi):
                svg.line(x, ys(lo), x, ys(hi), stroke="#333333", width=2.5, cls="interval",
                         tip=f"{c['value']}: 95 % interval {words.ratio_text(lo)}–{words.ratio_text(hi)}")
            if finite(r["ratio"]):
                points.append((x, ys(r["ratio"])))
                svg.circle(x, ys(r["ratio"]), 5, VERDICT_COLORS.get(r["verdict"], colour), cls="ratio", stroke="#ffffff",
                           tip=f"{c['value']}: B/A {words.ratio_text(r['ratio'])}, {r['verdict']}")
            if len(candidates) == 1:
                svg.text(x + 8, ys(r["ratio"]) - 8 if finite(r["ratio"]) else top + 12,
                         f"{words.ratio_text(r['ratio'])} {r['verdict']}", size=10,
                         fill=VERDICT_COLORS.get(r["verdict"], INK), cls="verdict")
        if len(points) > 1:
            svg.polyline(points, colour, width=1.5, opacity="0.8")
    return svg.render()


# ---------------------------------------------------------------------- capacity.svg

def rate(v):
    """An arrival rate: 110, 1,460, 12.5."""
    return f"{v:,.0f}" if float(v).is_integer() else words.sig(v, 3)


def capacity(result):
    """Each run of a capacity search: the rates it held (dots) and broke at (crosses), and the bracket between the
    highest rate held and the lowest that broke; the median held rate of each variant as a dashed line."""
    cells = [c for c in result["cells"] if any(r.get("steps") for r in c["runs"])]
    if not cells:
        return None
    e = result["experiment"]
    labels = [v["label"] for v in e["variants"]]
    left, right, step, gap, top = 190, WIDTH - 150, 22, 70, 100
    rows_per = [len(c["runs"]) for c in cells]
    height = top + sum(r * step + gap for r in rows_per) + 10
    svg = Svg(WIDTH, height, f"{result['name']}: capacity per run")
    svg.heading(f"{result['name']}: the highest arrival rate each run held",
                "each row one search: rates held (within the latency and error limits), rates that broke, the bracket between")
    svg.legend(16, 64, [("dot", VERDICT_COLORS["better"], "held"), ("cross", VERDICT_COLORS["worse"], "broke"),
                        ("line", INK, "bracket: held … broke at")]
               + [("dash", COLORS[i % len(COLORS)], f"{name}: median held") for i, name in enumerate(labels)])
    y0 = top
    for cell, count in zip(cells, rows_per):
        runs = sorted(cell["runs"], key=lambda r: (labels.index(r["variant"]) if r["variant"] in labels else 99, r["round"]))
        rates = [s["rate"] for r in runs for s in r.get("steps", [])] + [r.get("capacity") for r in runs]
        rates += [r["broke_at"] for r in runs if finite(r.get("broke_at"))]
        xs = scale_for(rates, left, right, log=False, zero=True, nice=True, pad=0)
        svg.text(16, y0 - 6, report.cell_title(cell), size=12, weight="bold")
        bottom = y0 + count * step
        svg.rect(left, y0, right - left, bottom - y0, "none", cls="plot")
        for i, run in enumerate(runs):
            y = y0 + i * step + step / 2
            colour = COLORS[labels.index(run["variant"]) % len(COLORS)] if run["variant"] in labels else INK
            svg.text(16, y + 4, f"{run['variant']} round {run['round']}", size=11, fill=colour)
            held, broke = run.get("capacity"), run.get("broke_at")
            if finite(held):
                end = broke if finite(broke) else xs.hi
                svg.line(xs(held), y, xs(end), y, stroke=INK, width=2, cls="bracket",
                         tip=f"held {rate(held)}/s, broke at {rate(broke) if finite(broke) else 'none'}")
                svg.line(xs(held), y - 5, xs(held), y + 5, stroke=INK, width=1.5)
                if finite(broke):
                    svg.line(xs(broke), y - 5, xs(broke), y + 5, stroke=INK, width=1.5)
            for s in run.get("steps", []):
                if s.get("held"):
                    svg.circle(xs(s["rate"]), y, 3.5, VERDICT_COLORS["better"], cls="held",
                               tip=f"{rate(s['rate'])}/s held: p95 {words.number(s['p95'])} ms")
                else:
                    cross(svg, xs(s["rate"]), y, VERDICT_COLORS["worse"], size=3.5)
            text = (f"{rate(held)}–{rate(broke)}/s" if finite(broke)
                    else f"≥ {rate(held)}/s (never broke)") if finite(held) else "–"
            svg.text(right + 10, y + 4, text, size=11, cls="numbers")
        for k, name in enumerate(labels):
            held = report.median([r.get("capacity") for r in runs if r["variant"] == name])
            if finite(held):
                svg.line(xs(held), y0, xs(held), bottom, stroke=COLORS[k % len(COLORS)], width=1.5, dash="4 3",
                         cls="median", tip=f"{name}: median held {rate(held)}/s")
        x_axis(svg, xs, bottom, y0, "arrival rate (requests/s)")
        y0 = bottom + gap
    return svg.render()


# ---------------------------------------------------------------------- ramp.svg

def ramp_chart(result):
    """A ramp's stages: each variant's p95 per stage (the median over its rounds) against the stage's arrival rate,
    a dot where the stage held the SLO in most rounds, a cross where it broke; the SLO's p95 as a dashed line."""
    cells = [c for c in result["cells"] if any(r.get("stages") for r in c["runs"])]
    if not cells:
        return None
    e = result["experiment"]
    labels = [v["label"] for v in e["variants"]]
    p95_ms, max_errors = ramp.slo_of(e)
    plot_height, gap, top, left, right = 220, 96, 96, 80, WIDTH - 210
    height = top + len(cells) * (plot_height + gap) - 20
    title = f"{result['name']}: p95 per stage of the ramp"
    svg = Svg(WIDTH, height, title)
    svg.heading(title, f"the median over each variant's rounds; SLO: p95 < {p95_ms:g} ms and errors < "
                       f"{words.fmt(max_errors, 'error_rate')}; a cross: the stage broke it in most rounds")
    svg.legend(16, 64, [("line", COLORS[i % len(COLORS)], name) for i, name in enumerate(labels)]
               + [("dash", VERDICT_COLORS["worse"], "SLO p95")])
    for i, cell in enumerate(cells):
        y0 = top + i * (plot_height + gap)
        stages = {v: ramp.median_stages([r for r in cell["runs"] if r["variant"] == v]) for v in labels}
        values = [s["p95"] for ss in stages.values() for s in ss] + [p95_ms]
        positive = [v for v in values if finite(v) and v > 0]
        log = bool(positive) and max(positive) / min(positive) > 8
        ys = scale_for(values, y0 + plot_height, y0, log=log, zero=not log, nice=not log)
        xs = scale_for([s["rate"] for ss in stages.values() for s in ss] + [0], left, right, zero=True, nice=True, pad=0)
        svg.text(left, y0 - 8, report.cell_title(cell), size=12, weight="bold")
        svg.rect(left, y0, right - left, plot_height, "none", cls="plot")
        y_axis(svg, ys, left, right, f"p95 (ms){', log' if log else ''}")
        x_axis(svg, xs, y0 + plot_height, y0, "arrival rate of the stage (requests/s)")
        svg.line(left, ys(p95_ms), right, ys(p95_ms), stroke=VERDICT_COLORS["worse"], width=1.5, dash="6 4", cls="slo",
                 tip=f"SLO: p95 < {p95_ms:g} ms")
        for k, name in enumerate(labels):
            colour = COLORS[k % len(COLORS)]
            points = [(xs(s["rate"]), ys(s["p95"])) for s in stages[name] if finite(s["p95"])]
            if len(points) > 1:
                svg.polyline(points, colour, width=2, cls="stages", tip=name)
            for s in (s for s in stages[name] if finite(s["p95"])):
                tip = f"{name} at {rate(s['rate'])}/s: p95 {words.number(s['p95'])} ms, held in {s['held']} of {s['runs']}"
                if 2 * s["held"] > s["runs"]:
                    svg.circle(xs(s["rate"]), ys(s["p95"]), 4, colour, cls="held", tip=tip)
                else:
                    cross(svg, xs(s["rate"]), ys(s["p95"]), colour, size=5)
            broke = report.median([r.get("breaking_rate") for r in cell["runs"] if r["variant"] == name and r.get("stages")])
            peak = all(r.get("held_peak") for r in cell["runs"] if r["variant"] == name and r.get("stages"))
            text = "–" if not finite(broke) else f"held up to {rate(broke)}/s" if peak else f"breaks at {rate(broke)}/s"
            svg.text(right + 10, y0 + 16 + 16 * k, f"{clip(name, 18)}: {text}", size=11, fill=colour, cls="numbers")
    return svg.render()


# ---------------------------------------------------------------------- cold start, first request

def strip(result, rows, title, subtitle, axis_title, log=None, zero=False):
    """One row per (variant, what): each run's value a dot, the median a bar; rows: (label, colour, values, unit)."""
    left, right, step, top = 250, WIDTH - 110, 26, 84
    values = [v for _, _, vs, _ in rows for v in vs if finite(v)]
    xs = scale_for(values, left, right, log=log, zero=zero, nice=not log and zero)
    height = top + step * len(rows) + 56
    svg = Svg(WIDTH, height, title)
    svg.heading(title, subtitle)
    svg.legend(16, 64, [("dot", MUTED, "one run"), ("bar", INK, "median of the runs")])
    bottom = top + step * len(rows)
    svg.rect(left, top, right - left, bottom - top, "none", cls="plot")
    for i, (name, colour, vs, unit) in enumerate(rows):
        y = top + i * step + step / 2
        if i:
            svg.line(16, y - step / 2, WIDTH - 16, y - step / 2, stroke=GRID)
        svg.text(16, y + 4, clip(name, 38), size=11, fill=colour)
        for k, v in enumerate(v for v in vs if finite(v)):
            svg.circle(xs(v), y + (k % 3 - 1) * 3, 3.5, colour, cls="run", opacity="0.6",
                       tip=f"{name}: {words.number(v)}{unit}")
        middle = report.median(vs)
        if finite(middle):
            svg.rect(xs(middle) - 1.5, y - 8, 3, 16, INK, cls="median", tip=f"median {words.number(middle)}{unit}")
            svg.text(right + 10, y + 4, f"{words.number(middle)}{unit}", size=11, cls="numbers")
    x_axis(svg, xs, bottom, top, axis_title + (", log scale" if xs.log else ""))
    return svg.render()


def variant_runs(result):
    labels = [v["label"] for v in result["experiment"]["variants"]]
    runs = [r for c in result["cells"] for r in c["runs"]]
    return labels, {name: [r for r in runs if r["variant"] == name] for name in labels}


def cold_start_success(result):
    labels, runs = variant_runs(result)
    if not any(finite(r.get("success_pct")) for rs in runs.values() for r in rs):
        return None
    rows = [(name, COLORS[i % len(COLORS)], [r.get("success_pct") for r in runs[name]], " %") for i, name in enumerate(labels)]
    load = result["experiment"]["load"]
    return strip(result, rows, f"{result['name']}: requests answered while the instance starts",
                 f"each run starts a fresh instance under {rate(load['rate']) if finite(load.get('rate')) else '?'} requests/s for "
                 f"{rate(load['requests']) if finite(load.get('requests')) else '?'} requests (timeout {load.get('env', {}).get('TIMEOUT', '?')}); "
                 "higher is better", "answered within the timeout (% of the requests)")


COLD_POSITIONS = [("first100_p99", "first 100"), ("first1000_p99", "first 1,000"), ("steady_p99", "steady")]


def cold_start_p99(result):
    """The warm-up curve: p99 latency of the first 100, the first 1,000 and the steady requests, per variant
    (each run a thin line, the median of the runs a thick one)."""
    labels, runs = variant_runs(result)
    if not any(finite(r.get("first100_p99")) for rs in runs.values() for r in rs):
        return None
    left, right, top, plot_height = 90, WIDTH - 40, 118, 300
    svg = Svg(WIDTH, top + plot_height + 56, f"{result['name']}: p99 latency as the instance warms up")
    svg.heading(f"{result['name']}: p99 latency as the instance warms up",
                "p99 of the first 100 requests, the first 1,000 and the steady state; thick: median of the runs, thin: each run")
    svg.legend(16, 64, [("line", COLORS[i % len(COLORS)], name) for i, name in enumerate(labels)])
    values = [r.get(k) for rs in runs.values() for r in rs for k, _ in COLD_POSITIONS]
    ys = scale_for([v for v in values if finite(v) and v > 0], top + plot_height, top, log=True)
    slot = (right - left) / len(COLD_POSITIONS)
    xs = [left + slot * (i + 0.5) for i in range(len(COLD_POSITIONS))]
    svg.rect(left, top, right - left, plot_height, "none", cls="plot")
    y_axis(svg, ys, left, right, "p99 latency (ms), log")
    bottom = top + plot_height
    svg.line(left, bottom, right, bottom, stroke="#999999", cls="axis")
    for x, (_, name) in zip(xs, COLD_POSITIONS):
        svg.text(x, bottom + 16, name, size=10, anchor="middle", fill=MUTED)
    svg.text((left + right) / 2, bottom + 34, "requests after the start (position)", size=11, anchor="middle", cls="axis-label")
    for i, name in enumerate(labels):
        colour = COLORS[i % len(COLORS)]
        for r in runs[name]:
            points = [(x, ys(r[k])) for x, (k, _) in zip(xs, COLD_POSITIONS) if finite(r.get(k)) and r[k] > 0]
            svg.polyline(points, colour, width=0.8, opacity="0.35", cls="run", tip=f"{r['testid']} ({name})")
        medians = [(x, report.median([r.get(k) for r in runs[name]])) for x, (k, _) in zip(xs, COLD_POSITIONS)]
        points = [(x, ys(v)) for x, v in medians if finite(v) and v > 0]
        svg.polyline(points, colour, width=2.5, cls="median", tip=f"{name}: median of the runs")
        for x, y in points:
            svg.circle(x, y, 3.5, colour)
    return svg.render()


def first_request(result):
    labels, runs = variant_runs(result)
    if not any(finite(r.get("first_ms")) for rs in runs.values() for r in rs):
        return None
    idle = any(finite(r.get("idle_first_ms")) for rs in runs.values() for r in rs)
    keys: tuple[tuple[str, str], ...] = (("first_ms", "first request"), ("second_ms", "second request"))
    if idle:
        keys += (("idle_first_ms", "first after idle"), ("idle_second_ms", "second after idle"))
    rows = []
    for i, name in enumerate(labels):
        for key, what in keys:
            rows.append((f"{name}: {what}", COLORS[i % len(COLORS)], [r.get(key) for r in runs[name]], " ms"))
    title = "after a fresh start and after an idle period" if idle else "of a fresh instance"
    return strip(result, rows, f"{result['name']}: the first and the second request {title}",
                 "each dot one run (a fresh instance); lower is better", "latency (ms)", log=True)


# ---------------------------------------------------------------------- bars.svg (command results)

def value_text(v):
    """A bar's value: 456, 64,152, 1.56, 176.3."""
    return f"{v:,.0f}" if float(v).is_integer() else words.number(v)


def bar_panel(svg, y0, title, items, unit, series):
    """Horizontal bars: items (label, [value or (value, error) per series]); returns the y after the panel."""
    left, right, step = 250, WIDTH - 120, 18 * len(series) + 8
    values = [(v[0] + (v[1] or 0)) if isinstance(v, tuple) else v for _, vs in items for v in vs if v is not None]
    xs = scale_for([v for v in values if finite(v)] + [0], left, right, zero=True, nice=True, pad=0)
    svg.text(16, y0, title, size=12, weight="bold")
    top = y0 + 10
    bottom = top + step * len(items)
    svg.rect(left, top, right - left, bottom - top, "none", cls="plot")
    x_axis(svg, xs, bottom, top, unit)
    for i, (name, vs) in enumerate(items):
        y = top + i * step + 4
        svg.text(16, y + step / 2, clip(name, 40), size=11)
        for k, v in enumerate(vs):
            if v is None:
                continue
            value, error = v if isinstance(v, tuple) else (v, None)
            if not finite(value):
                continue
            colour = COLORS[k % len(COLORS)]
            by = y + k * 18
            svg.rect(left, by, xs(value) - left, 14, colour, cls="bar",
                     tip=f"{name}{' ' + series[k] if len(series) > 1 else ''}: {value_text(value)} {unit}")
            if finite(error):
                svg.line(xs(value - error), by + 7, xs(value + error), by + 7, stroke=INK, width=1.2, cls="error")
            svg.text(xs(value + (error or 0) if finite(error) else value) + 6, by + 11,
                     value_text(value) + (f" ± {words.number(error)}" if finite(error) else ""), size=10, fill=MUTED)
    return bottom + 56


def jmh_panels(result):
    """A JMH result: score ± error per benchmark (and parameter), and bytes allocated per operation."""
    rows = [r for r in result["rows"] if ":" not in r["benchmark"] and finite(r.get("score"))]

    def key(r):
        return r["benchmark"].split(":")[0], r.get("codec")
    name = lambda r: r["benchmark"].split(".", 1)[-1] + (f" ({r['codec']})" if r.get("codec") else "")  # noqa: E731
    allocated = {key(r): r["score"] for r in result["rows"] if r["benchmark"].endswith(":gc.alloc.rate.norm")}
    panels = []
    for units in sorted({r["units"] for r in rows}):
        same = [r for r in rows if r["units"] == units]
        panels.append((f"time per operation ({same[0]['mode']} mode), score ± error", units,
                       [(name(r), [(r["score"], r.get("error"))]) for r in same], ["score"]))
    if allocated:
        panels.append(("bytes allocated per operation (-prof gc, gc.alloc.rate.norm)", "B/op",
                       [(name(r), [allocated.get(key(r))]) for r in rows], ["bytes"]))  # type: ignore[list-item]  # (bytes, no error)
    return panels


def row_panels(result):
    """Any other command result: a label from the rows' text fields, one panel per numeric field that differs
    between rows; the fields in ms (avg_ms, p95_ms, ...) share one panel."""
    rows = result["rows"]
    keys = []
    for r in rows:
        keys += [k for k in r if k not in keys]
    text_keys = [k for k in keys if all(isinstance(r.get(k), str) or r.get(k) is None for r in rows)
                 and len({r.get(k) for r in rows}) > 1]
    numeric = [k for k in keys if k not in text_keys and all(finite(r.get(k)) for r in rows) and len({r.get(k) for r in rows}) > 1]
    name = lambda r: " ".join(str(r[k]) for k in text_keys if r.get(k) is not None) or r.get("metric", "")  # noqa: E731
    ms = [k for k in numeric if k.endswith("_ms")]
    panels = []
    for k in numeric:
        if k in ms:
            if k == ms[0]:
                panels.append(("latency: " + ", ".join(m[:-3] for m in ms), "ms",
                               [(name(r), [r[m] for m in ms]) for r in rows], [m[:-3] for m in ms]))
            continue
        panels.append((k.replace("_", " "), k.replace("_per_", "/").replace("_", " "), [(name(r), [r[k]]) for r in rows], [k]))
    return panels


def bars(result):
    if not result.get("rows") or result.get("cells"):
        return None
    jmh = all("benchmark" in r and "score" in r for r in result["rows"])
    panels = jmh_panels(result) if jmh else row_panels(result)
    if not panels:
        return None
    heights = [len(items) * (18 * len(series) + 8) + 66 for _, _, items, series in panels]
    summary = result["experiment"].get("summary") or result["command"]
    svg = Svg(WIDTH, 100 + sum(heights), f"{result['name']}: {summary}")
    svg.heading(result["name"], clip(summary, 120))
    grouped = next((names for _, _, _, names in panels if len(names) > 1), None)
    if grouped:
        svg.legend(16, 64, [("bar", COLORS[i % len(COLORS)], s) for i, s in enumerate(grouped)])
    y = 96
    for title, unit, items, names in panels:
        y = bar_panel(svg, y, title, items, unit, names)
    return svg.render()


# ---------------------------------------------------------------------- files

DRAWERS: list[tuple[str, Callable]] = [("verdict.svg", verdict), ("rounds.svg", rounds), ("latency.svg", latency), ("sweep.svg", sweep),
           ("capacity.svg", capacity), ("ramp.svg", ramp_chart), ("cold-start-success.svg", cold_start_success),
           ("cold-start-p99.svg", cold_start_p99), ("first-request.svg", first_request), ("bars.svg", bars)]


def charts(result):
    """{file name: SVG text} of every chart that applies to the result, in DRAWERS order."""
    out: dict[str, str] = {}
    for name, draw in DRAWERS:
        drawn = draw(result)
        if drawn:
            out[name] = drawn
    return out


def write(result, folder):
    """Writes the result's charts into folder and removes any other .svg there (a chart that no longer applies);
    returns the paths written or removed whose bytes changed."""
    folder = pathlib.Path(folder)
    drawn = charts(result)
    changed = []
    for name, text in drawn.items():
        path = folder / name
        if not path.exists() or path.read_bytes() != text.encode():
            path.write_bytes(text.encode())
            changed.append(path)
    for stale in sorted(folder.glob("*.svg")):
        if stale.name not in drawn:
            stale.unlink()
            changed.append(stale)
    return changed

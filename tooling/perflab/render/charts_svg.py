"""The drawing under every chart (tooling/perflab/render/charts.py): an SVG document built element by element, scales from values to
pixels (linear or logarithmic), axes with their ticks, the colours and the number formats the charts share. Pure:
the same calls give the same bytes."""
import html as h
import math
from collections.abc import Iterable, Sequence
from typing import TypeGuard

from perflab.results import units

SVG_NS = "http://www.w3.org/2000/svg"
COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]
VERDICT_COLORS = {"better": "#1a7f37", "worse": "#cf222e", "no difference": "#57606a", "inconclusive": "#bf8700"}
BAND = "#e6e6e6"
GRID = "#eeeeee"
INK = "#222222"
MUTED = "#666666"
WIDTH = 820
LOG_ABOVE = 6  # a ratio axis turns logarithmic when its largest value is this many times its smallest

Point = tuple[float, float]
LegendItem = tuple[str, str, str]  # (kind, colour, text)


def esc(value: object) -> str:
    return h.escape(str(value), quote=True)


def n(x: float) -> str:
    """A coordinate: one decimal, always."""
    return f"{x:.1f}"


def finite(v: object) -> TypeGuard[float]:
    return v is not None and isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def clip(text: object, length: int) -> str:
    text = str(text)
    return text if len(text) <= length else text[:length - 1] + "…"


def rate(v: float) -> str:
    """An arrival rate: 110, 1,460, 12.5."""
    return f"{v:,.0f}" if float(v).is_integer() else units.sig(v, 3)


# ---------------------------------------------------------------------- drawing

class Svg:
    """An SVG document built element by element; render() gives the text."""

    def __init__(self, width: int, height: float, title: str, element_id: str | None = None) -> None:
        self.width, self.height, self.title, self.element_id = width, height, title, element_id
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        self.parts.append(text)

    def text(self, x: float, y: float, content: object, size: float = 11, anchor: str = "start", fill: str = INK,
             weight: str | None = None, cls: str | None = None, rotate: bool = False) -> None:
        extra = (f' font-weight="{weight}"' if weight else "") + (f' class="{cls}"' if cls else "")
        extra += f' transform="rotate(-90 {n(x)} {n(y)})"' if rotate else ""
        self.add(f'<text x="{n(x)}" y="{n(y)}" font-size="{size}" text-anchor="{anchor}" fill="{fill}"{extra}>'
                 f'{esc(content)}</text>')

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = MUTED, width: float = 1,
             dash: str | None = None, cls: str | None = None, tip: str | None = None, opacity: str | None = None) -> None:
        extra = (f' stroke-dasharray="{dash}"' if dash else "") + (f' class="{cls}"' if cls else "")
        extra += f' opacity="{opacity}"' if opacity else ""
        self.add(f'<line x1="{n(x1)}" y1="{n(y1)}" x2="{n(x2)}" y2="{n(y2)}" stroke="{stroke}" stroke-width="{width}"'
                 f'{extra}' + (f'><title>{esc(tip)}</title></line>' if tip else "/>"))

    def rect(self, x: float, y: float, w: float, hgt: float, fill: str, cls: str | None = None,
             stroke: str | None = None, tip: str | None = None, opacity: str | None = None) -> None:
        extra = (f' class="{cls}"' if cls else "") + (f' stroke="{stroke}"' if stroke else "")
        extra += f' opacity="{opacity}"' if opacity else ""
        self.add(f'<rect x="{n(x)}" y="{n(y)}" width="{n(max(0, w))}" height="{n(max(0, hgt))}" fill="{fill}"{extra}'
                 + (f'><title>{esc(tip)}</title></rect>' if tip else "/>"))

    def circle(self, x: float, y: float, r: float, fill: str, cls: str | None = None, tip: str | None = None,
               opacity: str | None = None, stroke: str | None = None) -> None:
        extra = (f' class="{cls}"' if cls else "") + (f' opacity="{opacity}"' if opacity else "")
        extra += f' stroke="{stroke}" stroke-width="1.5"' if stroke else ""
        self.add(f'<circle cx="{n(x)}" cy="{n(y)}" r="{r}" fill="{fill}"{extra}'
                 + (f'><title>{esc(tip)}</title></circle>' if tip else "/>"))

    def polyline(self, points: Iterable[Point], stroke: str, width: float = 1.5, opacity: str | None = None,
                 cls: str | None = None, tip: str | None = None, fill: str = "none", dash: str | None = None) -> None:
        path = " ".join(f"{n(x)},{n(y)}" for x, y in points)
        extra = (f' opacity="{opacity}"' if opacity else "") + (f' class="{cls}"' if cls else "")
        extra += f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<polyline fill="{fill}" stroke="{stroke}" stroke-width="{width}" points="{path}"{extra}'
                 + (f'><title>{esc(tip)}</title></polyline>' if tip else "/>"))

    def polygon(self, points: Iterable[Point], fill: str, cls: str | None = None) -> None:
        path = " ".join(f"{n(x)},{n(y)}" for x, y in points)
        self.add(f'<polygon points="{path}" fill="{fill}"' + (f' class="{cls}"' if cls else "") + "/>")

    def heading(self, title: str, subtitle: str | None = None) -> None:
        """The visible title (and a line under it) at the top left."""
        self.text(16, 24, title, size=15, weight="bold", cls="title")
        if subtitle:
            self.text(16, 42, subtitle, size=11, fill=MUTED)

    def legend(self, x: float, y: float, items: Iterable[LegendItem], width: float | None = None) -> float:
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

    def render(self) -> str:
        ident = f' id="{esc(self.element_id)}"' if self.element_id else ""
        return (f'<svg xmlns="{SVG_NS}"{ident} width="{self.width}" height="{n(self.height)}" '
                f'viewBox="0 0 {self.width} {n(self.height)}" font-family="sans-serif" role="img">'
                f'<title>{esc(self.title)}</title>'
                f'<rect x="0" y="0" width="{self.width}" height="{n(self.height)}" fill="#ffffff"/>'
                + "".join(self.parts) + "</svg>\n")


def cross(svg: Svg, x: float, y: float, colour: str, size: float = 4) -> None:
    svg.line(x - size, y - size, x + size, y + size, stroke=colour, width=2, cls="broke")
    svg.line(x - size, y + size, x + size, y - size, stroke=colour, width=2)


def variant_legend(labels: Sequence[str]) -> list[LegendItem]:
    """One line per variant, in its colour."""
    return [("line", COLORS[i % len(COLORS)], name) for i, name in enumerate(labels)]


# ---------------------------------------------------------------------- scales

def tick_text(v: float) -> str:
    """A tick label: 0.5, 1, 2.5, 1,000."""
    return f"{v:,.0f}" if abs(v) >= 1000 else units.sig(v, 3)


def nice_step(span: float, count: int) -> float:
    raw = span / max(1, count)
    magnitude: float = 10 ** math.floor(math.log10(raw))
    return next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw * (1 - 1e-9))


class Scale:
    """Values in [lo, hi] to pixels in [a, b] (b < a for a y axis), linear or logarithmic; values outside are
    clamped to the ends (a chart never draws outside its axis)."""

    def __init__(self, lo: float, hi: float, a: float, b: float, log: bool = False) -> None:
        self.lo, self.hi, self.a, self.b, self.log = lo, hi, a, b, log

    def unit(self, v: float) -> float:
        v = min(max(v, self.lo), self.hi)
        if self.log:
            return (math.log10(v) - math.log10(self.lo)) / ((math.log10(self.hi) - math.log10(self.lo)) or 1)
        return (v - self.lo) / ((self.hi - self.lo) or 1)

    def __call__(self, v: float) -> float:
        if not finite(v):
            v = self.hi if v == math.inf else self.lo
        return self.a + (self.b - self.a) * self.unit(v)

    def inside(self, v: object) -> bool:
        return finite(v) and self.lo <= v <= self.hi

    def ticks(self, count: int = 6) -> list[float]:
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


def scale_for(values: Iterable[float | None], a: float, b: float, log: bool | None = None, zero: bool = False,
              pad: float = 0.06, nice: bool = False) -> Scale:
    """A scale over the finite values (positive ones for a log scale); log=None picks log when the values span more
    than LOG_ABOVE times; zero=True starts a linear scale at 0; nice=True widens a linear one to tick steps."""
    kept = [v for v in values if finite(v)]
    positive = [v for v in kept if v > 0]
    if log is None:
        log = bool(positive) and len(positive) == len(kept) and max(positive) / min(positive) > LOG_ABOVE
    if log:
        lo, hi = (min(positive), max(positive)) if positive else (0.1, 10)
        if hi / lo < 1.5:
            lo, hi = lo / 1.2, hi * 1.2
        factor = (hi / lo) ** pad
        return Scale(lo / factor, hi * factor, a, b, log=True)
    lo, hi = (min(kept), max(kept)) if kept else (0, 1)
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


def x_axis(svg: Svg, scale: Scale, y: float, top: float, title: str, grid: bool = True) -> None:
    """Ticks and labels under a plot, gridlines up to `top`, the axis title centred below."""
    svg.line(min(scale.a, scale.b), y, max(scale.a, scale.b), y, stroke="#999999", cls="axis")
    for t in scale.ticks():
        x = scale(t)
        if grid:
            svg.line(x, top, x, y, stroke=GRID)
        svg.line(x, y, x, y + 4, stroke="#999999")
        svg.text(x, y + 16, tick_text(t), size=10, anchor="middle", fill=MUTED)
    svg.text((scale.a + scale.b) / 2, y + 32, title, size=11, anchor="middle", cls="axis-label")


def y_axis(svg: Svg, scale: Scale, x: float, right: float, title: str, grid: bool = True) -> None:
    svg.line(x, min(scale.a, scale.b), x, max(scale.a, scale.b), stroke="#999999", cls="axis")
    for t in scale.ticks(5):
        y = scale(t)
        if grid:
            svg.line(x, y, right, y, stroke=GRID)
        svg.text(x - 6, y + 3.5, tick_text(t), size=10, anchor="end", fill=MUTED)
    middle = (scale.a + scale.b) / 2
    svg.text(x - 44, middle, title, size=11, anchor="middle", rotate=True, cls="axis-label")

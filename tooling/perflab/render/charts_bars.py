"""bars.svg: a command result's rows as horizontal bars (a JMH run's score ± error per benchmark and the bytes it
allocated per operation; any other command's numeric fields, one panel each). A pure function of result.json."""
from typing import Any

from perflab.results import units
from perflab.render.charts_svg import COLORS, INK, MUTED, WIDTH, Svg, clip, finite, scale_for, x_axis

Bar = float | tuple[float, float | None] | None  # a value, or (value, error); None: no bar
Panel = tuple[str, str, list[tuple[str, list[Bar]]], list[str]]  # (title, unit, [(label, a bar per series)], series)


def value_text(v: float) -> str:
    """A bar's value: 456, 64,152, 1.56, 176.3."""
    return f"{v:,.0f}" if float(v).is_integer() else units.number(v)


def bar_panel(svg: Svg, y0: float, title: str, items: list[tuple[str, list[Bar]]], unit: str,
              series: list[str]) -> float:
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
                     value_text(value) + (f" ± {units.number(error)}" if finite(error) else ""), size=10, fill=MUTED)
    return bottom + 56


def jmh_panels(result: dict[str, Any]) -> list[Panel]:
    """A JMH result: score ± error per benchmark (and parameter), and bytes allocated per operation."""
    rows = [r for r in result["rows"] if ":" not in r["benchmark"] and finite(r.get("score"))]

    def key(r: dict[str, Any]) -> tuple[str, Any]:
        return r["benchmark"].split(":")[0], r.get("codec")

    def name(r: dict[str, Any]) -> str:
        return str(r["benchmark"].split(".", 1)[-1] + (f" ({r['codec']})" if r.get("codec") else ""))
    allocated = {key(r): r["score"] for r in result["rows"] if r["benchmark"].endswith(":gc.alloc.rate.norm")}
    panels: list[Panel] = []
    for units in sorted({r["units"] for r in rows}):
        same = [r for r in rows if r["units"] == units]
        panels.append((f"time per operation ({same[0]['mode']} mode), score ± error", units,
                       [(name(r), [(r["score"], r.get("error"))]) for r in same], ["score"]))
    if allocated:
        panels.append(("bytes allocated per operation (-prof gc, gc.alloc.rate.norm)", "B/op",
                       [(name(r), [allocated.get(key(r))]) for r in rows], ["bytes"]))  # (bytes, no error)
    return panels


def row_panels(result: dict[str, Any]) -> list[Panel]:
    """Any other command result: a label from the rows' text fields, one panel per numeric field that differs
    between rows; the fields in ms (avg_ms, p95_ms, ...) share one panel."""
    rows = result["rows"]
    keys: list[str] = []
    for r in rows:
        keys += [k for k in r if k not in keys]
    text_keys = [k for k in keys if all(isinstance(r.get(k), str) or r.get(k) is None for r in rows)
                 and len({r.get(k) for r in rows}) > 1]
    numeric = [k for k in keys if k not in text_keys and all(finite(r.get(k)) for r in rows) and len({r.get(k) for r in rows}) > 1]

    def name(r: dict[str, Any]) -> str:
        return " ".join(str(r[k]) for k in text_keys if r.get(k) is not None) or str(r.get("metric", ""))
    ms = [k for k in numeric if k.endswith("_ms")]
    panels: list[Panel] = []
    for k in numeric:
        if k in ms:
            if k == ms[0]:
                panels.append(("latency: " + ", ".join(m[:-3] for m in ms), "ms",
                               [(name(r), [r[m] for m in ms]) for r in rows], [m[:-3] for m in ms]))
            continue
        panels.append((k.replace("_", " "), k.replace("_per_", "/").replace("_", " "), [(name(r), [r[k]]) for r in rows], [k]))
    return panels


def bars(result: dict[str, Any]) -> str | None:
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
    y: float = 96
    for title, unit, items, names in panels:
        y = bar_panel(svg, y, title, items, unit, names)
    return svg.render()

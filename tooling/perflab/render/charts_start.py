"""The charts of a fresh instance's start: cold-start-success.svg (the share of the first requests answered, per
run), cold-start-p99.svg (p99 of the first 100, the first 1,000 and the steady requests: the warm-up curve) and
first-request.svg (the first and the second request of each fresh instance, and after the idle period). Pure
functions of result.json."""
from typing import Any

from perflab.render import report
from perflab.results import units
from perflab.render.charts_svg import COLORS, GRID, INK, MUTED, WIDTH, Svg, clip, finite, rate, scale_for, variant_legend, x_axis, y_axis

StripRow = tuple[str, str, list[Any], str]  # (label, colour, each run's value, unit)


def strip(result: dict[str, Any], rows: list[StripRow], title: str, subtitle: str, axis_title: str,
          log: bool | None = None, zero: bool = False) -> str:
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
                       tip=f"{name}: {units.number(v)}{unit}")
        middle = report.median(vs)
        if finite(middle):
            svg.rect(xs(middle) - 1.5, y - 8, 3, 16, INK, cls="median", tip=f"median {units.number(middle)}{unit}")
            svg.text(right + 10, y + 4, f"{units.number(middle)}{unit}", size=11, cls="numbers")
    x_axis(svg, xs, bottom, top, axis_title + (", log scale" if xs.log else ""))
    return svg.render()


def variant_runs(result: dict[str, Any]) -> tuple[list[str], dict[str, list[dict[str, Any]]]]:
    labels = [v["label"] for v in result["experiment"]["variants"]]
    runs = [r for c in result["cells"] for r in c["runs"]]
    return labels, {name: [r for r in runs if r["variant"] == name] for name in labels}


def cold_start_success(result: dict[str, Any]) -> str | None:
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


def cold_start_p99(result: dict[str, Any]) -> str | None:
    """The warm-up curve: p99 latency of the first 100, the first 1,000 and the steady requests, per variant
    (each run a thin line, the median of the runs a thick one)."""
    labels, runs = variant_runs(result)
    if not any(finite(r.get("first100_p99")) for rs in runs.values() for r in rs):
        return None
    left, right, top, plot_height = 90, WIDTH - 40, 118, 300
    svg = Svg(WIDTH, top + plot_height + 56, f"{result['name']}: p99 latency as the instance warms up")
    svg.heading(f"{result['name']}: p99 latency as the instance warms up",
                "p99 of the first 100 requests, the first 1,000 and the steady state; thick: median of the runs, thin: each run")
    svg.legend(16, 64, variant_legend(labels))
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


def first_request(result: dict[str, Any]) -> str | None:
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

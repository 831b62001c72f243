"""The charts of latency under load: latency.svg and report.html's latency panel (p95 of every second of every run,
one colour per variant), capacity.svg (the rates a capacity search held and broke at) and ramp.svg (p95 per stage
of a ramp against the SLO). Pure functions of result.json."""
from typing import Any

from perflab.analyse import ramp
from perflab.render import report
from perflab.results import units
from perflab.render.charts_svg import (COLORS, INK, VERDICT_COLORS, WIDTH, Point, Scale, Svg, clip, cross, finite, rate, scale_for,
                        variant_legend, x_axis, y_axis)

Series = tuple[str, str, list[Point]]  # (variant, testid, [(second, value)])

# ---------------------------------------------------------------------- latency.svg


def series_runs(cell: dict[str, Any], key: str) -> list[Series]:
    return [(r["variant"], r["testid"], [(p["t"], p[key]) for p in r.get("series", []) if finite(p.get(key)) and finite(p.get("t"))])
            for r in cell["runs"] if r.get("series")]


def latency_panel(svg: Svg, cell: dict[str, Any], labels: list[str], key: str, y0: float, plot_height: float,
                  left: float, right: float) -> None:
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


def latency(result: dict[str, Any], key: str = "p95") -> str | None:
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
    svg.legend(16, 64, variant_legend(labels))
    for i, cell in enumerate(cells):
        latency_panel(svg, cell, labels, key, top + i * (plot_height + gap), plot_height, 80, WIDTH - 24)
    return svg.render()


def latency_chart(cell: dict[str, Any], labels: list[str], key: str = "p95", element_id: str = "latency-chart") -> str:
    """report.html: one cell's runs, p95 over time, A and B overlaid."""
    if not any(pts for _, _, pts in series_runs(cell, key)):
        return f'<p id="{element_id}">no per-second series</p>'
    svg = Svg(WIDTH, 330, f"{report.cell_title(cell)}: {key} latency over time", element_id)
    svg.legend(16, 20, variant_legend(labels))
    latency_panel(svg, cell, labels, key, 64, 200, 80, WIDTH - 24)
    return svg.render()


# ---------------------------------------------------------------------- capacity.svg

def capacity_run(svg: Svg, run: dict[str, Any], labels: list[str], xs: Scale, y: float, right: float) -> None:
    """One search's row: its name, the bracket from the rate it held to the one it broke at, each step's rate."""
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
                       tip=f"{rate(s['rate'])}/s held: p95 {units.number(s['p95'])} ms")
        else:
            cross(svg, xs(s["rate"]), y, VERDICT_COLORS["worse"], size=3.5)
    text = (f"{rate(held)}–{rate(broke)}/s" if finite(broke)
            else f"≥ {rate(held)}/s (never broke)") if finite(held) else "–"
    svg.text(right + 10, y + 4, text, size=11, cls="numbers")


def capacity(result: dict[str, Any]) -> str | None:
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
            capacity_run(svg, run, labels, xs, y0 + i * step + step / 2, right)
        for k, name in enumerate(labels):
            held = report.median([r.get("capacity") for r in runs if r["variant"] == name])
            if finite(held):
                svg.line(xs(held), y0, xs(held), bottom, stroke=COLORS[k % len(COLORS)], width=1.5, dash="4 3",
                         cls="median", tip=f"{name}: median held {rate(held)}/s")
        x_axis(svg, xs, bottom, y0, "arrival rate (requests/s)")
        y0 = bottom + gap
    return svg.render()


# ---------------------------------------------------------------------- ramp.svg

def ramp_variant(svg: Svg, cell: dict[str, Any], name: str, k: int, stages: list[dict[str, Any]], xs: Scale, ys: Scale,
                 right: float, y0: float) -> None:
    """One variant's stages: the line through their p95, a dot where a stage held, a cross where it broke; at the
    right, where it broke."""
    colour = COLORS[k % len(COLORS)]
    points = [(xs(s["rate"]), ys(s["p95"])) for s in stages if finite(s["p95"])]
    if len(points) > 1:
        svg.polyline(points, colour, width=2, cls="stages", tip=name)
    for s in (s for s in stages if finite(s["p95"])):
        at = f"{ramp.stage_label(s)}/s" if "from" in s else f"{rate(s['rate'])}/s"
        tip = f"{name} at {at}: p95 {units.number(s['p95'])} ms, held in {s['held']} of {s['runs']}"
        if 2 * s["held"] > s["runs"]:
            svg.circle(xs(s["rate"]), ys(s["p95"]), 4, colour, cls="held", tip=tip)
        else:
            cross(svg, xs(s["rate"]), ys(s["p95"]), colour, size=5)
    broke = report.median([r.get("breaking_rate") for r in cell["runs"] if r["variant"] == name and r.get("stages")])
    peak = all(r.get("held_peak") for r in cell["runs"] if r["variant"] == name and r.get("stages"))
    text = "–" if not finite(broke) else f"held up to {rate(broke)}/s" if peak else f"breaks at {rate(broke)}/s"
    svg.text(right + 10, y0 + 16 + 16 * k, f"{clip(name, 18)}: {text}", size=11, fill=colour, cls="numbers")


def ramp_chart(result: dict[str, Any]) -> str | None:
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
                       f"{units.fmt(max_errors, 'error_rate')}; a cross: the stage broke it in most rounds")
    svg.legend(16, 64, variant_legend(labels) + [("dash", VERDICT_COLORS["worse"], "SLO p95")])
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
            ramp_variant(svg, cell, name, k, stages[name], xs, ys, right, y0)
    return svg.render()

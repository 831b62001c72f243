"""The charts of B/A (candidate / baseline) against the band of no difference: verdict.svg (the headline, one row per
profile and candidate), rounds.svg and report.html's per-round panel (each round's B/A), and sweep.svg (B/A at each
value of a swept setting: where the candidate starts to win). Pure functions of result.json."""
from collections.abc import Callable, Sequence
from typing import Any

from perflab.analyse.stats import margins
from perflab.render import report
from perflab.results import units
from perflab.render.charts_svg import (BAND, COLORS, GRID, INK, LOG_ABOVE, MUTED, VERDICT_COLORS, WIDTH, LegendItem, Point, Scale, Svg,
                        clip, esc, finite, n, scale_for, tick_text, x_axis, y_axis)

# ---------------------------------------------------------------------- B/A rows: verdict.svg, rounds.svg


def ratio_axis_title(scale: Scale, rows: Sequence[dict[str, Any]]) -> str:
    """'B/A (candidate / baseline), log scale — left of 1 is better'."""
    title = "B/A (candidate / baseline)" + (", log scale" if scale.log else "")
    directions = {r["lower_is_better"] for r in rows}
    if directions == {True}:
        title += ": left of 1 is better (lower)"
    elif directions == {False}:
        title += ": right of 1 is better (higher)"
    return title


def ratio_legend(rounds: bool) -> list[LegendItem]:
    legend = [("dot", INK, "B/A of the medians"), ("line", "#333333", "95 % interval"),
              ("band", BAND, "±δ: no difference"), ("dash", MUTED, "1 = no change")]
    if rounds:
        legend.insert(1, ("dot", COLORS[0], "B/A in one round"))
    return legend


def ratio_scale(rows: Sequence[dict[str, Any]], rounds: bool, a: float, b: float) -> Scale:
    """The B/A axis over every ratio, interval end, band edge (and round) of the rows, and 1."""
    values = [1.0]
    for r in rows:
        values += [r["ratio"], *r["interval"], *margins(r["delta"])]
        values += r.get("round_ratios", []) if rounds else []
    values = [v for v in values if finite(v) and v > 0] or [1.0]
    return scale_for(values, a, b, log=max(values) / min(values) > LOG_ABOVE)


def ratio_row(svg: Svg, scale: Scale, r: dict[str, Any], y: float, rounds: bool, numbers: bool, tx: float) -> None:
    """One comparison's row over its band: the names, the rounds' dots, the interval, B/A, the verdict at tx."""
    name_y = y - 3 if r.get("sublabel") else y + 4
    svg.text(16, name_y, clip(r["label"], 38), size=12, weight="bold")
    if r.get("sublabel"):
        svg.text(16, y + 12, clip(r["sublabel"], 46), size=10, fill=MUTED)
    colour = VERDICT_COLORS.get(r["verdict"], INK)
    if rounds:
        for k, x in enumerate(v for v in r.get("round_ratios", []) if finite(v)):
            svg.circle(scale(x), y + (k % 3 - 1) * 3, 3, COLORS[0], cls="round", opacity="0.55",
                       tip=f"round {k + 1}: {units.ratio_text(x)}")
    lo, hi = r["interval"]
    if finite(lo) and finite(hi):
        svg.line(scale(lo), y, scale(hi), y, stroke="#333333", width=3, cls="interval",
                 tip=f"95 % interval {units.ratio_text(lo)}–{units.ratio_text(hi)}")
        for end in (lo, hi):
            svg.line(scale(end), y - 5, scale(end), y + 5, stroke="#333333", width=1.5)
    if finite(r["ratio"]):
        svg.circle(scale(r["ratio"]), y, 5, colour, cls="ratio", stroke="#ffffff",
                   tip=f"B/A {units.ratio_text(r['ratio'])}")
    note = f'<tspan font-weight="normal" fill="{MUTED}"> · {esc(r["note"])}</tspan>' if r.get("note") else ""
    svg.add(f'<text x="{n(tx)}" y="{n(y - 2 if numbers else y + 4)}" font-size="12" font-weight="bold" '
            f'fill="{colour}" class="verdict">{esc(r["verdict"])}{note}</text>')
    if numbers:
        svg.text(tx, y + 12, f"B/A {units.ratio_text(r['ratio'])} ({units.ratio_text(lo)}–{units.ratio_text(hi)})"
                 + (f", δ {units.delta_text(r['delta'])}" if finite(r.get("delta")) else ""), size=10, fill=MUTED,
                 cls="numbers")


def ratio_rows(rows: Sequence[dict[str, Any]], title: str, subtitle: str, rounds: bool = False, numbers: bool = True,
               element_id: str | None = None, width: int = WIDTH) -> str:
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
    svg.legend(16, 64, ratio_legend(rounds))
    scale = ratio_scale(rows, rounds, left, width - right)
    bottom = top + step * len(rows)
    svg.rect(left, top, width - right - left, bottom - top, "none", cls="plot")
    for i, r in enumerate(rows):
        y0 = top + i * step
        if i:
            svg.line(16, y0, width - 16, y0, stroke=GRID)
        d = r["delta"]
        if finite(d):
            lo, hi = margins(d)
            svg.rect(scale(lo), y0 + 4, scale(hi) - scale(lo), step - 8, BAND, cls="band",
                     tip=f"±δ {units.delta_text(d)}")
    svg.line(scale(1), top, scale(1), bottom, stroke=MUTED, width=1.5, dash="4 3", cls="unity")
    for i, r in enumerate(rows):
        ratio_row(svg, scale, r, top + i * step + step / 2, rounds, numbers, width - right + 10)
    x_axis(svg, scale, bottom, top, ratio_axis_title(scale, rows))
    return svg.render()


def primary_rows(result: dict[str, Any]) -> list[dict[str, Any]]:
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


def verdict(result: dict[str, Any]) -> str | None:
    rows = primary_rows(result)
    if not rows:
        return None
    metric = units.label(rows[0]["metric"])
    ok, _ = report.headline_parts(result)
    aa = " (A/A: each at δ = its noise floor)" if result.get("calibration") else ""
    return ratio_rows(rows, f"{result['name']}: {'as expected' if ok else 'not as expected'}{aa}",
                      f"{metric}: candidate / baseline, the 95 % interval against the band of no difference (±δ)")


def rounds(result: dict[str, Any]) -> str | None:
    rows = [r for r in primary_rows(result) if r["round_ratios"]]
    if not rows:
        return None
    metric = units.label(rows[0]["metric"])
    return ratio_rows(rows, f"{result['name']}: {metric}, B/A round by round",
                      "each dot one round (candidate / baseline of that round); the bar the 95 % interval of all",
                      rounds=True)


def rounds_panel(cell: dict[str, Any], element_id: str = "rounds-chart") -> str:
    """report.html: per-round B/A of every compared metric of one cell, the interval and the band."""
    rows = [dict(r, label=units.label(r["metric"]), sublabel=c["candidate"], delta=r.get("delta", cell.get("delta", 0)),
                 round_ratios=list(r.get("round_ratios") or []), interval=tuple(r["interval"]))
            for c in cell.get("comparisons", []) for r in c["rows"] if r.get("round_ratios")]
    if not rows:
        return f'<p id="{element_id}">no per-round ratios</p>'
    return ratio_rows(rows, f"{report.cell_title(cell)}: B/A per round", "every compared metric", rounds=True,
                      element_id=element_id)


# ---------------------------------------------------------------------- sweep.svg

Position = Callable[[Any], float]  # a sweep value to its x


def sweep_scale(cells: Sequence[dict[str, Any]], a: float, b: float) -> Scale:
    """The B/A axis over every comparison's ratio, interval and band edges, and 1."""
    ratios = [1.0]
    for c in cells:
        for comparison in c["comparisons"]:
            r = comparison["primary"]
            ratios += [r["ratio"], *r["interval"], *margins(r.get("delta", c.get("delta", 0)))]
    ratios = [v for v in ratios if finite(v) and v > 0]
    return scale_for(ratios, a, b, log=max(ratios) / min(ratios) > LOG_ABOVE)


def sweep_position(values: list[Any], numeric: bool, left: float, right: float) -> Position:
    """Numbers on a scale of their own; names in equal slots, in order."""
    if numeric:
        return scale_for(values, left + 20, right - 20, pad=0)
    slot = (right - left) / len(values)
    return lambda v: left + slot * (values.index(v) + 0.5)


def sweep_x_axis(svg: Svg, values: list[Any], position: Position, numeric: bool, left: float, right: float,
                 bottom: float, parameter: str) -> None:
    svg.line(left, bottom, right, bottom, stroke="#999999", cls="axis")
    for v in values:
        svg.line(position(v), bottom, position(v), bottom + 4, stroke="#999999")
        svg.text(position(v), bottom + 16, v if not numeric else tick_text(v), size=10, anchor="middle", fill=MUTED)
    svg.text((left + right) / 2, bottom + 34, f"{parameter} (the swept setting)", size=11, anchor="middle", cls="axis-label")


def sweep_candidate(svg: Svg, cells: Sequence[dict[str, Any]], name: str, k: int, candidates: int,
                    position: Position, ys: Scale, top: float) -> None:
    """The k-th of `candidates` candidates at each sweep value: its interval, its B/A (and the verdict when it is
    the only one), the line through them."""
    colour = COLORS[k % len(COLORS)]
    offset = (k - (candidates - 1) / 2) * 8
    points: list[Point] = []
    for c in cells:
        comparison = next((x for x in c["comparisons"] if x["candidate"] == name), None)
        if comparison is None:
            continue
        r, x = comparison["primary"], position(c["value"]) + offset
        lo, hi = r["interval"]
        if finite(lo) and finite(hi):
            svg.line(x, ys(lo), x, ys(hi), stroke="#333333", width=2.5, cls="interval",
                     tip=f"{c['value']}: 95 % interval {units.ratio_text(lo)}–{units.ratio_text(hi)}")
        if finite(r["ratio"]):
            points.append((x, ys(r["ratio"])))
            svg.circle(x, ys(r["ratio"]), 5, VERDICT_COLORS.get(r["verdict"], colour), cls="ratio", stroke="#ffffff",
                       tip=f"{c['value']}: B/A {units.ratio_text(r['ratio'])}, {r['verdict']}")
        if candidates == 1:
            svg.text(x + 8, ys(r["ratio"]) - 8 if finite(r["ratio"]) else top + 12,
                     f"{units.ratio_text(r['ratio'])} {r['verdict']}", size=10,
                     fill=VERDICT_COLORS.get(r["verdict"], INK), cls="verdict")
    if len(points) > 1:
        svg.polyline(points, colour, width=1.5, opacity="0.8")


def sweep(result: dict[str, Any], element_id: str | None = None) -> str | None:
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
    metric = units.label(e["primary"]["metric"])
    svg = Svg(WIDTH, top + plot_height + 64, f"{result['name']}: B/A of {metric} across {parameter}", element_id)
    svg.heading(f"{result['name']}: B/A of {metric} across {parameter}",
                f"candidate / baseline at each value of {parameter}, with the 95 % interval; shaded: ±δ, no difference")
    legend = [("line", COLORS[i % len(COLORS)], f"{name} / {cells[0]['comparisons'][i]['baseline']}") for i, name in enumerate(candidates)]
    svg.legend(16, 64, legend + [("band", BAND, "±δ: no difference"), ("dash", MUTED, "1 = no change")])
    ys = sweep_scale(cells, top + plot_height, top)
    position = sweep_position(values, numeric, left, right)
    svg.rect(left, top, right - left, plot_height, "none", cls="plot")
    deltas = [(position(c["value"]), c["comparisons"][0]["primary"].get("delta", c.get("delta", 0))) for c in cells]
    deltas = [(left, deltas[0][1]), *deltas, (right, deltas[-1][1])]
    svg.polygon([(x, ys(margins(d)[1])) for x, d in deltas] + [(x, ys(margins(d)[0])) for x, d in reversed(deltas)], BAND,
                cls="band")
    y_axis(svg, ys, left, right, f"B/A of {metric}" + (", log" if ys.log else ""))
    svg.line(left, ys(1), right, ys(1), stroke=MUTED, width=1.5, dash="4 3", cls="unity")
    sweep_x_axis(svg, values, position, numeric, left, right, top + plot_height, parameter)
    for k, name in enumerate(candidates):
        sweep_candidate(svg, cells, name, k, len(candidates), position, ys, top)
    return svg.render()

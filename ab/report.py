"""The A/B runner's outputs: a text table, REPORT.md and a self-contained report.html (inline SVG)."""
import html as htmllib
import math

NAMES = {"avg": "avg (ms)", "p50": "p50 (ms)", "p90": "p90 (ms)", "p95": "p95 (ms)", "p99": "p99 (ms)",
         "max": "max (ms)", "tps": "TPS", "error_rate": "error rate"}
COLORS = {"A": "#1f77b4", "B": "#ff7f0e"}


def fmt(value, metric=""):
    if value is None or (isinstance(value, float) and (math.isnan(value) or math.isinf(value))):
        return "–"
    if metric == "error_rate":
        return f"{100 * value:.2f}%"
    if abs(value) < 10:
        return f"{value:.3g}"
    return f"{value:.1f}" if abs(value) < 1000 else f"{value:.0f}"


def delta(c):
    a, b = c["baseline"], c["candidate"]
    if not a or any(isinstance(v, float) and math.isnan(v) for v in (a, b)):
        return "–"
    return f"{100 * (b - a) / a:+.1f}%"


def rows(result):
    for c in result["comparisons"]:
        name = NAMES.get(c["metric"], c["metric"])
        low, high = c["interval"]
        yield (name, f"{fmt(c['baseline'], c['metric'])} → {fmt(c['candidate'], c['metric'])} ({delta(c)})",
               fmt(c["median_ratio"]), f"{fmt(low)}–{fmt(high)}", c["verdict"])


def table(result):
    exp = result["experiment"]
    header = ("metric", f"{exp['baseline']['label']} → {exp['candidate']['label']} (Δ%)", "B/A", "95% interval", "verdict")
    body = list(rows(result))
    widths = [max(len(str(r[i])) for r in [header] + body) for i in range(len(header))]
    line = lambda r: "  ".join(str(v).ljust(w) for v, w in zip(r, widths))  # noqa: E731
    return "\n".join([line(header), line(["-" * w for w in widths])] + [line(r) for r in body])


def markdown(result):
    exp, args, machine = result["experiment"], result["args"], result["machine"]
    out = [f"# A/B: {exp['name']}", "", exp.get("description", ""), "",
           f"- A (baseline): **{exp['baseline']['label']}** `{' '.join(exp['baseline'].get('args', []))}`",
           f"- B (candidate): **{exp['candidate']['label']}** `{' '.join(exp['candidate'].get('args', []))}`",
           f"- load: `{exp['load']['script']}`, open model, {args['rate']:g}/s for {args['duration']} per run, "
           f"after {exp['load'].get('warmup', '10s')} of discarded warm-up; {args['rounds']} round(s), A B alternately, fresh app each run",
           f"- primary metric: **{result['primary']['metric']}**: **{result['primary']['verdict']}**"
           f" ({'candidate wins' if result['primary']['candidate_wins'] else 'candidate does not win'})", "",
           "| metric | " + f"{exp['baseline']['label']} → {exp['candidate']['label']} (Δ%) | B/A (median) | 95% interval | verdict |",
           "|---|---|---|---|---|"]
    out += ["| " + " | ".join(r) + " |" for r in rows(result)]
    out += ["", "## Runs", "", "| run | p50 | p95 | p99 | max | TPS | errors | mechanism | invariants |", "|---|---|---|---|---|---|---|---|---|"]
    for r in result["runs"]:
        mech = ", ".join(f"{k}: {fmt(v)}" for k, v in r["mechanism"].items())
        inv = ", ".join(f"{i['name']}: {'ok' if i['ok'] else 'BROKEN'}" for i in r["invariants"]) or "–"
        out.append(f"| {r['testid']} | {fmt(r['p50'])} | {fmt(r['p95'])} | {fmt(r['p99'])} | {fmt(r['max'])} | "
                   f"{fmt(r['tps'])} | {fmt(r['error_rate'], 'error_rate')} | {mech} | {inv} |")
    out += ["", "## Reproduce", "", f"```\n{result['command']}\n```", "",
            f"- commit {machine['commit']}, {machine['cores']} cores, {machine['memory_kb']} kB memory, {machine['os']}",
            *[f"- {k}: {v}" for k, v in machine["versions"].items()],
            *[f"- knobs of {side['label']}: {', '.join(next((r['knobs'] for r in result['runs'] if r['side'] == side['label']), []))}"
              for side in (exp["baseline"], exp["candidate"])], ""]
    return "\n".join(out)


def svg_lines(title, series, key, unit, width=640, height=220):
    """Overlaid per-second lines: series is [(label, side, points)], points [{t, key}]."""
    points = [p for _, _, pts in series for p in pts if not math.isnan(p[key])]
    if not points:
        return f"<p>{htmllib.escape(title)}: no data</p>"
    tmax = max(p["t"] for p in points) or 1
    vmax = max(p[key] for p in points) * 1.1 or 1
    pad = 40
    sx = lambda t: pad + (width - 2 * pad) * t / tmax  # noqa: E731
    sy = lambda v: height - pad + (2 * pad - height) * v / vmax  # noqa: E731
    parts = [f'<svg width="{width}" height="{height}" xmlns="http://www.w3.org/2000/svg" role="img">',
             f'<text x="{pad}" y="16" font-size="13">{htmllib.escape(title)}</text>',
             f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#999"/>',
             f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="#999"/>',
             f'<text x="2" y="{pad}" font-size="10">{vmax:.0f} {unit}</text>',
             f'<text x="{width - pad}" y="{height - pad + 14}" font-size="10">{tmax}s</text>']
    for label, side, pts in series:
        path = " ".join(f"{sx(p['t']):.1f},{sy(p[key]):.1f}" for p in pts if not math.isnan(p[key]))
        parts.append(f'<polyline fill="none" stroke="{COLORS[side]}" stroke-width="1.5" opacity="0.8" points="{path}">'
                     f'<title>{htmllib.escape(label)}</title></polyline>')
    parts.append("</svg>")
    return "".join(parts)


def svg_ratios(result, width=640, height=40):
    """Per-round B/A ratios as dots, the interval as a bar, 1.0 as a line, one row per metric."""
    rows_ = [c for c in result["comparisons"] if c["ratios"]]
    values = [v for c in rows_ for v in c["ratios"] + list(c["interval"]) if not math.isinf(v) and not math.isnan(v)] + [1.0]
    lo, hi = min(values) * 0.9, max(values) * 1.1
    left, right = 150, 20
    sx = lambda v: left + (width - left - right) * (v - lo) / ((hi - lo) or 1)  # noqa: E731
    h = height * len(rows_) + 30
    parts = [f'<svg width="{width}" height="{h}" xmlns="http://www.w3.org/2000/svg" role="img">',
             f'<line x1="{sx(1):.1f}" y1="0" x2="{sx(1):.1f}" y2="{h - 20}" stroke="#999" stroke-dasharray="3"/>',
             f'<text x="{sx(1) - 8:.1f}" y="{h - 5}" font-size="10">1.0</text>']
    for i, c in enumerate(rows_):
        y = 20 + i * height
        low, high = c["interval"]
        parts.append(f'<text x="0" y="{y + 4}" font-size="11">{htmllib.escape(NAMES.get(c["metric"], c["metric"]))}</text>')
        if not (math.isnan(low) or math.isinf(low) or math.isinf(high)):
            parts.append(f'<line x1="{sx(low):.1f}" y1="{y}" x2="{sx(high):.1f}" y2="{y}" stroke="#444" stroke-width="3"/>')
        for v in c["ratios"]:
            if not math.isinf(v):
                parts.append(f'<circle cx="{sx(v):.1f}" cy="{y}" r="4" fill="{COLORS["B"]}"><title>{v:.3f}</title></circle>')
        parts.append(f'<text x="{width - right - 90}" y="{y + 4}" font-size="10">{htmllib.escape(c["verdict"])}</text>')
    parts.append("</svg>")
    return "".join(parts)


def html(result):
    exp = result["experiment"]
    label = {exp["baseline"]["label"]: "A", exp["candidate"]["label"]: "B"}
    series = [(r["testid"], label[r["side"]], r["series"]) for r in result["runs"]]
    md_rows = "".join("<tr>" + "".join(f"<td>{htmllib.escape(str(v))}</td>" for v in r) + "</tr>" for r in rows(result))
    verdict = result["primary"]
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>A/B {htmllib.escape(exp['name'])}</title>
<style>body{{font-family:sans-serif;max-width:900px;margin:2em auto}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:3px 8px;font-size:13px}}.A{{color:{COLORS['A']}}}.B{{color:{COLORS['B']}}}</style></head><body>
<h1>A/B: {htmllib.escape(exp['name'])}</h1>
<p><b class="A">A {htmllib.escape(exp['baseline']['label'])}</b> vs <b class="B">B {htmllib.escape(exp['candidate']['label'])}</b>,
{result['args']['rounds']} round(s) at {result['args']['rate']:g}/s for {htmllib.escape(result['args']['duration'])}.
Primary metric <b>{htmllib.escape(verdict['metric'])}</b>: <b>{htmllib.escape(verdict['verdict'])}</b>.</p>
<table><tr><th>metric</th><th>A → B (Δ%)</th><th>B/A</th><th>95% interval</th><th>verdict</th></tr>{md_rows}</table>
<h2>B/A per round, with the bootstrap interval</h2>{svg_ratios(result)}
<h2>Latency over time (each run)</h2>{svg_lines('p95 per second', series, 'p95', 'ms')}{svg_lines('p50 per second', series, 'p50', 'ms')}
<h2>Throughput over time (each run)</h2>{svg_lines('requests per second', series, 'rps', 'req/s')}
<h2>Reproduce</h2><pre>{htmllib.escape(result['command'])}</pre>
<pre>{htmllib.escape(chr(10).join(f'{k}: {v}' for k, v in result['machine'].items()))}</pre>
</body></html>"""

"""report.html: the verdict, the tables and the charts (inline SVG drawn by tooling/perflab/render/charts_ratio.py and tooling/perflab/render/charts_load.py: the verdict, per-round
points with the interval, latency over time A and B overlaid, the sweep's crossover) and, per cell, the JFR
differences and the differential flame graph. A pure function of the result and of the cells' JFR analyses, which
the caller runs (jfr.cell_profile, from tooling/perflab/results/store.py's write) and passes in."""
import html as h
import pathlib
from typing import Any

from perflab.render.charts_load import latency_chart, ramp_chart
from perflab.render.charts_ratio import rounds_panel, sweep, verdict
from perflab.render.report import HEAD, aa_sentence, against_why, cell_title, commit_lines, headline, limit_warnings, machine_lines, machine_text, verdict_rows
from perflab.render.report_sections import extra_sections
from perflab.measure import runwindow
from perflab.results.units import fmt, pct

UNAVAILABLE = '<p id="flame-diff">profile analysis unavailable (tooling/perflab/measure/jfr.py, tooling/perflab/measure/flame.py)</p>'


def profile_section(cell: dict[str, Any], profile: dict[str, Any] | None) -> str:
    """The JFR differences of the cell (baseline against the first candidate) and the differential flame graph,
    from its analysis (jfr.cell_profile: {} for a cell without a comparison); None: no analysis was run."""
    if profile is None:
        return UNAVAILABLE
    if not profile:
        return ""
    if "missing" in profile:
        return f'<p id="flame-diff">{h.escape(profile["missing"])}</p>'
    comparison = cell["comparisons"][0]
    out = []
    if "diff" in profile:
        out.append(jfr_tables(profile["diff"], comparison))
    else:  # the report still renders; the reason is shown
        out.append(f"<p>JFR summary failed: {h.escape(profile['diff_error'])}</p>")
    if "flame" in profile:
        name = profile["flame"]
        out.append(f'<iframe id="flame-diff" src="{name}" width="100%" height="520" style="border:1px solid #ccc"></iframe>'
                   f'<p><a href="{name}">differential flame graph</a>: red = more CPU samples in {h.escape(comparison["candidate"])}, blue = fewer</p>')
    else:
        out.append(f'<p id="flame-diff">flame graph failed: {h.escape(profile["flame_error"])}</p>')
    return "".join(out)


JFR_SECTIONS = {"cpu_layers": "CPU by library (the JDK's own work charged to the library that called it)",
                "cpu_self": "top methods by CPU samples (self)", "cpu_total": "methods by CPU samples (on the stack)",
                "allocation": "allocation by class", "monitor_enter": "lock contention (synchronized)",
                "thread_park": "threads parked (locks, pools)", "gc": "GC pauses", "jit": "JIT activity", "totals": "totals"}


def jfr_tables(diff: dict[str, Any], comparison: dict[str, Any]) -> str:
    """A and B side by side for each section of the JFR summary (tooling/perflab/measure/jfr.py), largest change first."""
    out = ['<div id="jfr-diff">']
    for section, content in diff.items():
        rows = content["rows"][:10]
        if not rows:
            continue
        body = "".join(f"<tr><td>{h.escape(str(r['name']))}</td><td>{fmt(r['a'])}</td><td>{fmt(r['b'])}</td>"
                       f"<td>{fmt(r['change'])}</td><td>{pct(1 + r['relative']) if r.get('relative') is not None else '–'}</td></tr>"
                       for r in rows)
        unit = f" ({h.escape(content['unit'])})" if content.get("unit") else ""
        out.append(f"<h4>{h.escape(JFR_SECTIONS.get(section, section))}{unit}</h4><table><tr><th>what</th>"
                   f"<th>{h.escape(comparison['baseline'])}</th><th>{h.escape(comparison['candidate'])}</th><th>change</th>"
                   f"<th>relative</th></tr>{body}</table>")
    out.append("</div>")
    return "".join(out)


def section_html(section: dict[str, Any]) -> str:
    """A report section (report_sections.extra_sections: a ramp's stages, the write-up beside perflab) as a table and notes."""
    head = "".join(f"<th>{h.escape(x)}</th>" for x in section["head"])
    rows = "".join("<tr>" + "".join(f"<td>{h.escape(str(x))}</td>" for x in r) + "</tr>" for r in section["rows"])
    notes = "".join(f"<li>{h.escape(n)}</li>" for n in section["notes"])
    return f"<h3>{h.escape(section['title'])}</h3><table><tr>{head}</tr>{rows}</table><ul>{notes}</ul>"


def html(result: dict[str, Any], profiles: list[dict[str, Any]] | None = None) -> str:
    """The page; profiles: one JFR analysis per cell (jfr.cell_profile), None when none was run."""
    e = result["experiment"]
    labels = [v["label"] for v in e["variants"]]
    sections = []
    for i, cell in enumerate(result["cells"]):
        rows = "".join("<tr>" + "".join(f"<td>{h.escape(str(x))}</td>" for x in r) + "</tr>" for r in verdict_rows(cell))
        head = "".join(f"<th>{h.escape(x)}</th>" for x in HEAD)
        why_ = "".join(f"<p><b>{h.escape(against_why(result, c))}</b></p>" for c in cell.get("comparisons", []))
        why_ += "".join(section_html(section) for section in extra_sections(result, cell))
        box = "".join(f"<li>{h.escape(m)}</li>" for m in machine_lines(cell))
        box += "".join(f"<li><b>warning: {h.escape(w)}</b></li>" for w in limit_warnings(cell))
        sections.append(f"<h2>{h.escape(cell_title(cell))}</h2>{f'<ul>{box}</ul>' if box else ''}{why_}<table id=\"verdict-table\"><tr>{head}</tr>{rows}</table>"
                        f"<h3>B/A per round, with the 95 % interval</h3>{rounds_panel(cell)}"
                        f"<h3>p95 latency over time, every run ({' / '.join(h.escape(x) for x in labels)})</h3>"
                        f"{latency_chart(cell, labels)}"
                        f"<h3>Why: JFR of the measured window</h3>{profile_section(cell, None if profiles is None else profiles[i])}")
    aa = "".join(f"<p>{h.escape(aa_sentence(c))}</p>" for c in result.get("calibration", []))
    dashboards = "".join(f'<li><a href="{pathlib.Path(r["dashboard"]).name}">{h.escape(r["testid"])}</a></li>'
                         for c in result["cells"] for r in c["runs"] if r.get("dashboard"))
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>{h.escape(result['name'])}</title>
<style>body{{font-family:sans-serif;max-width:1000px;margin:2em auto}}table{{border-collapse:collapse;margin:.5em 0}}
td,th{{border:1px solid #ccc;padding:2px 6px;font-size:12px}}</style></head><body>
<h1>{h.escape(result['name'])}: {'as expected' if result['verdict']['ok'] else 'not as expected'}</h1>
<p id="headline"><b>{h.escape(headline(result))}</b></p>
{''.join(f"<p>{h.escape(line)}</p>" for line in commit_lines(e))}
<p>{h.escape(e.get('description', ''))}</p>
<p>δ = {100 * result['delta']:.1f} % ({h.escape(result['delta_source'])}); {e['rounds']} rounds per variant (cap {e['max_rounds']}); one run = one observation.</p>
{runwindow.html_link(result)}
{aa}{verdict(result) or ''}{sweep(result, element_id="sweep-chart") or ''}{ramp_chart(result) or ''}{''.join(sections)}
<h2>k6 dashboards</h2><ul>{dashboards or '<li>none (smoke)</li>'}</ul>
<h2>Reproduce</h2><pre>{h.escape(result['command'])}</pre><pre>{h.escape(machine_text(result['machine']))}</pre>
</body></html>"""

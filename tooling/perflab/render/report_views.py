"""The tables README.md and docs/ regenerate from a published result (views), as Markdown: a view of an experiment's
result (verdict, sweep, capacity, aa, ...), the write-up beside perflab as docs/case-studies.md shows it, and a
command experiment's rows. Pure functions of a result."""
import functools
import math
import re
from collections.abc import Callable
from typing import Any

from perflab.results import schema
from perflab.analyse import writeup
from perflab.render.report import cell_title, command_rows, controls_clause, md_table, median, reproduction_of, why
from perflab.render.report_sections import differ_text, figure_text, interval_text, ramp_section, times_text, writeup_section
from perflab.results.units import a_to_b, fmt, label, nan, short


def view(result: dict[str, Any], name: str) -> str:
    """A Markdown table for README.md / docs from a published result. Views: verdict, sweep, capacity, aa, runs,
    mechanisms (every declared mechanism, A → B), writeup (the write-up beside perflab, a row per figure), case-study
    (the same, a row per stage: case_study_markdown), ramp (a ramp's stages), cold-start, cold-start-jit (a cold
    start's success beside the JIT's and the GC's work over its first requests), first-request, rows (command
    experiments), jmh (a JMH run: one row per benchmark and parameter, its score and the bytes it allocates per
    operation)."""
    if name == "rows":
        return command_markdown_table(result)
    if name == "jmh":
        return jmh_markdown_table(result)
    if name not in VIEWS:
        raise SystemExit(f"unknown view {name!r}")
    table = VIEWS[name](result)
    r = reproduction_of(result)
    again = "" if not r else (f" · {'reproduces' if r['same'] else 'differs from'} the primary verdict published "
                              f"before{controls_clause(r)}")
    redone = result.get("reanalysed")
    again += f" · statistics: {redone['command']} at {redone['commit']}" if redone else ""
    return table + f"\n\n<sub>{result['command']} · commit {result['machine'].get('commit')} · {result.get('started')}{again}</sub>\n"


def verdict_view(result: dict[str, Any]) -> str:
    """Each comparison's primary metric, A → B, its B/A, interval and verdict, and the "because" sentence."""
    rows: list[tuple[Any, ...]] = []
    for cell in result["cells"]:
        for c in cell.get("comparisons", []):
            r = c["primary"]
            rows.append((cell_title(cell), f"{c['baseline']} → {c['candidate']}", label(r["metric"]),
                         a_to_b(r), fmt(r["ratio"]),
                         interval_text(r), r["verdict"], why(result, c, also_moved=False)))
    return md_table(("network", "variants", "primary", "A → B", "B/A", "95% interval", "verdict", "why"), rows)


def sweep_view(result: dict[str, Any]) -> str:
    """A row per sweep value and candidate: the primary metric on both sides, B/A, its interval and the verdict."""
    e = result["experiment"]
    rows: list[tuple[Any, ...]] = []
    for cell in result["cells"]:
        for c in cell.get("comparisons", []):
            r = c["primary"]
            rows.append((cell["value"], c["candidate"], fmt(r["median_a"], r["metric"]), fmt(r["median_b"], r["metric"]),
                         fmt(r["ratio"]), interval_text(r), r["verdict"]))
    return md_table((e["sweep"]["parameter"], "candidate", f"baseline {e['primary']['metric']}", f"candidate {e['primary']['metric']}",
                     "B/A", "95% interval", "verdict"), rows)


def capacity_view(result: dict[str, Any]) -> str:
    """Per variant the rate each round held, where it broke and what it served; then each comparison's ratio."""
    e = result["experiment"]
    rows: list[tuple[Any, ...]] = []
    for cell in result["cells"]:
        for v in e["variants"]:
            runs = [r for r in cell["runs"] if r["variant"] == v["label"]]
            runs.sort(key=lambda r: (r["capacity"], r.get("broke_at") or math.inf))
            rows.append((cell["network"], v["label"], ", ".join(f"{r['capacity']:g}" for r in runs),
                         ", ".join(f"{r['broke_at']:g}" if r.get("broke_at") else f"none up to {e['capacity']['max']:g}"
                                   for r in runs),
                         ", ".join(f"{r['served']:.0f}" if r.get("served") is not None else "–" for r in runs)))
        for c in cell.get("comparisons", []):
            r = c["primary"]
            rows.append((cell["network"], f"{c['candidate']} / {c['baseline']}", f"ratio {fmt(r['ratio'])}",
                         f"{interval_text(r)}: {r['verdict']}", ""))
    return md_table(("network", "variant", "held at (/s, per round)", "broke at (/s)",
                     "served at the held rate (requests/s, every scenario)"), rows)


def mechanisms_view(result: dict[str, Any]) -> str:
    """Every declared mechanism of every comparison, A → B, its B/A, interval and verdict."""
    e = result["experiment"]
    names = {m["name"] for m in e.get("mechanism", [])}
    rows: list[tuple[Any, ...]] = []
    for cell in result["cells"]:
        for c in cell.get("comparisons", []):
            for r in (r for r in c["rows"] if r["metric"] in names):
                rows.append((cell_title(cell), label(r["metric"]), a_to_b(r),
                             fmt(r["ratio"]), interval_text(r), r["verdict"]))
    variants = " → ".join(v["label"] for v in e["variants"])
    return md_table(("network", "mechanism (median per run)", variants, "B/A", "95% interval", "verdict"), rows)


def aa_view(result: dict[str, Any]) -> str:
    """Each calibrated metric's noise floor, false positives, and its A/A verdict at the default δ and at the floor."""
    # each calibrated metric's own A/A row at the run's δ (the primary's, or a co-primary's among the rows)
    at_default = {(cell["profile"], r["metric"]): r for cell in result["cells"] for c in cell["comparisons"]
                  for r in [c["primary"], *c.get("rows", [])]}
    rows: list[tuple[Any, ...]] = []
    for c in (c for c in result.get("calibration", []) if "skipped" not in c):
        observed, default = c["observed"], at_default.get((c["profile"], c["metric"]), {})
        rows.append((c["profile"], c["metric"], f"{100 * c['noise_floor']:.1f} %", f"{c['false_positives']}/{c['analyses']}",
                     f"{100 * c['false_positive_rate']:.1f} % ({100 * c['fpr_interval'][0]:.1f}–{100 * c['fpr_interval'][1]:.1f} %)",
                     f"{fmt(observed['ratio'])} ({interval_text(observed)})",
                     f"{default.get('verdict', '–')} (δ {100 * default.get('delta', 0):.0f} %)",
                     f"{observed['verdict']} (δ {100 * c['delta']:.1f} %)"))
    return md_table(("network", "metric", "noise floor", "false positives", "rate (95% interval)", "A/A B/A (95% interval)",
                     "A/A verdict at the default δ", "A/A verdict at δ = noise floor"), rows)


def runs_view(result: dict[str, Any], name: str) -> str:
    """A row per variant: how many runs, and the median of each metric of the view (view_metrics)."""
    metrics = view_metrics(result, name)
    rows: list[tuple[Any, ...]] = []
    for cell in result["cells"]:
        for v in result["experiment"]["variants"]:
            runs = [r for r in cell["runs"] if r["variant"] == v["label"]]
            rows.append((v["label"], len(runs), *[fmt(median([r.get(m) for r in runs]), m) for m in metrics]))
    return md_table(("variant", "runs", *[label(m) + " (median)" for m in metrics]), rows)


def view_metrics(result: dict[str, Any], name: str) -> list[str]:
    """The columns of a runs view, those some run measured (no idle columns without [load] idle): the shape's metrics
    but avg, p90 and max; the cold-start view without the JIT and GC figures, which cold-start-jit sets beside the
    success rate."""
    runs = [r for cell in result["cells"] for r in cell["runs"]]
    if name == "cold-start-jit":
        wanted = ["success_pct", *(m for m in schema.COLD_JIT_GC if m != "gc_pause_ms")]
    else:
        shape = result["experiment"]["load"]["shape"]
        wanted = [m for m in schema.METRICS.get(shape, []) if m not in ("avg", "p90", "max", *schema.COLD_JIT_GC)]
    return [m for m in wanted if any(not nan(r.get(m)) for r in runs)]


def section_view(result: dict[str, Any],
                 section_of: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any] | None]) -> str:
    """A section of every cell as one table (a column for the cell when there are several) and its notes."""
    sections = [(cell, section) for cell in result["cells"] if (section := section_of(result, cell))]
    if not sections:
        raise SystemExit(f"{result['name']}: no cell has this section (a [[writeup]], a [load] ramp)")
    several = len(sections) > 1
    head = (("network",) if several else ()) + tuple(sections[0][1]["head"])
    rows = [((cell_title(cell),) if several else ()) + tuple(r) for cell, section in sections for r in section["rows"]]
    notes = [(f"{cell_title(cell)}: " if several else "") + n for cell, section in sections for n in section["notes"]]
    return md_table(head, rows) + "".join(f"\n- {n}" for n in notes)


SEED_FILE = re.compile(r"^\d{3}(?:_[0-9a-f]+\.txt)?,\s*")  # a [[writeup]] source's file name: the section is what a reader needs


def stage_figures(figures: list[dict[str, Any]], side: str, first: bool, named: bool = False) -> str:
    """A stage's figures on one side ("writeup", as written, or "perflab"), each later stage's with its ratio to
    the stage it is set against (named when `named`: "(3.26× over (2))"), a unit they share said once, at the end:
    "mean 22.21 (0.045×), p95 103 (0.052×) ms"."""
    units = {r["unit"] for r in figures if r["metric"] != "error_rate"}
    shared = units.pop() if len(units) == 1 else None

    def ratio(r: dict[str, Any]) -> str:
        if first or nan(r[f"{side}_ratio"]):
            return ""
        return f" ({times_text(r[f'{side}_ratio'])}{' over ' + writeup.stage_number(r['over']) if named else ''})"
    text = ", ".join(f"{short(r['metric'])} {figure_text(r[side], r['metric'], None if shared else r['unit'], written=side == 'writeup')}"
                     + ratio(r) for r in figures)
    return text + (f" {shared}" if shared else "")


def case_study_markdown(result: dict[str, Any]) -> str:
    """The write-up beside perflab as docs/case-studies.md shows it (tooling/perflab/analyse/writeup.py's table, as the report's
    writeup section reads it): a row per stage, the write-up's section (in the head when every stage has the same),
    its figures and perflab's medians, and under it, per metric, whether perflab moved the write-up's way, and
    each stage that differs with the file's reason."""
    tables = [(cell, t) for cell in result["cells"]
              if (t := writeup.table(result["experiment"], cell["runs"], cell.get("delta") or result.get("delta") or 0.03))]
    if not tables:
        return "No write-up figures in this result: its experiment has no `[[writeup]]`, or it was published before it had."
    out = []
    for cell, w in tables:
        stages: dict[str, list[dict[str, Any]]] = {}
        for r in w["rows"]:
            stages.setdefault(r["stage"], []).append(r)
        sections = list(dict.fromkeys(SEED_FILE.sub("", r["source"]) for r in w["rows"]))
        named = writeup.stage_over_stage(w)
        rows = [(stage, *([] if len(sections) == 1 else [SEED_FILE.sub("", figures[0]["source"])]),
                 stage_figures(figures, "writeup", stage == w["baseline_stage"], named),
                 stage_figures(figures, "perflab", stage == w["baseline_stage"], named)) for stage, figures in stages.items()]
        head = ("stage", f"write-up: {sections[0]}") if len(sections) == 1 else ("stage", "section", "write-up")
        if len(tables) > 1:
            out.append(f"**{cell_title(cell)}**")
        out.append(md_table((*head, "perflab (median)"), rows))
        same = [short(d["metric"]) for d in w["directions"] if d["agrees"]]
        differ = [f"{short(d['metric'])} (" + "; ".join(f"{s['stage']}: write-up {s['writeup']}, perflab {s['perflab']}"
                                                       for s in d["stages"] if s["writeup"] != s["perflab"]) + ")"
                  for d in w["directions"] if not d["agrees"]]
        if same or differ:
            against = "Stage over stage" if named else f"Against {w['baseline_stage']}"
            out.append(f"{against}, perflab moves the write-up's way in {', '.join(same) or 'no figure'}"
                       + (f"; not in {', '.join(differ)}" if differ else "") + ".")
        if w["differ"]:
            out.append("\n".join(f"- {differ_text(stage)}" for stage in w["differ"]))
    return "\n\n".join(out)


def command_markdown_table(result: dict[str, Any]) -> str:
    keys, rows = command_rows(result)
    return md_table(keys, rows) + f"\n\n<sub>{result['command']} · {result.get('started')}</sub>\n"


def jmh_markdown_table(result: dict[str, Any]) -> str:
    """One row per JMH benchmark (and parameter): score ± error, and `:gc.alloc.rate.norm` (bytes per operation,
    from -prof gc) beside it; the percentiles and the other GC rows stay in result.json."""
    def key(r: dict[str, Any]) -> tuple[str, str | None]:
        return r["benchmark"].split(":")[0], r.get("codec")
    allocated = {key(r): r["score"] for r in result["rows"] if r["benchmark"].endswith(":gc.alloc.rate.norm")}
    rows = [(r["benchmark"].split(".", 1)[1], r.get("codec") or "", r["mode"], f"{fmt(r['score'])} ± {fmt(r.get('error'))}",
             r["units"], fmt(allocated.get(key(r)))) for r in result["rows"] if ":" not in r["benchmark"]]
    return (md_table(("benchmark", "parameter", "mode", "score", "units", "bytes allocated per op"), rows)
            + f"\n\n<sub>{result['command']} · {result.get('started')}</sub>\n")


def command_markdown(result: dict[str, Any]) -> str:
    return "\n".join([f"# {result['name']}", "", result["experiment"].get("description", ""), "",
                      command_markdown_table(result), "", "```", result["experiment"]["command"], "```", ""])


VIEWS: dict[str, Callable[[dict[str, Any]], str]] = {
    "verdict": verdict_view, "sweep": sweep_view, "capacity": capacity_view, "mechanisms": mechanisms_view, "aa": aa_view,
    "writeup": lambda result: section_view(result, writeup_section), "ramp": lambda result: section_view(result, ramp_section),
    "case-study": case_study_markdown,
    **{name: functools.partial(runs_view, name=name) for name in ("cold-start", "cold-start-jit", "first-request", "runs")}}

"""A cell's sections after its comparisons, for REPORT.md, the runner's text and report.html alike: a ramp's stages,
the write-up beside perflab, the leakage check; each one {title, head, rows, notes}. Pure functions of a result."""
from typing import Any

from perflab.analyse import comparison
from perflab.analyse import ramp
from perflab.analyse import writeup
from perflab.results.units import fmt, label, nan, pct, ratio_text, short


def interval_text(row: dict[str, Any]) -> str:
    """'0.417–0.422': a compared metric's 95 % interval of B/A ('–' when there is none)."""
    lo, hi = row["interval"]
    return "–" if nan(lo) or nan(hi) else f"{fmt(lo)}–{fmt(hi)}"


def extra_sections(result: dict[str, Any], cell: dict[str, Any]) -> list[dict[str, Any]]:
    """The cell's sections after its comparisons: a ramp's stages, the write-up beside perflab; each one
    {title, head, rows, notes}, for REPORT.md, the runner's text and report.html alike."""
    return [s for s in (ramp_section(result, cell), writeup_section(result, cell), leakage_section(result, cell)) if s]


def leakage_section(result: dict[str, Any], cell: dict[str, Any]) -> dict[str, Any] | None:
    """The leakage check (--leakage): each variant interleaved against itself served alone, on the claimed metrics."""
    if not cell.get("leakage"):
        return None
    claimed = comparison.claimed_metrics(result["experiment"])
    rows = [(c["candidate"], label(r["metric"]), fmt(r["median_a"], r["metric"]), fmt(r["median_b"], r["metric"]),
             f"{fmt(r['ratio'])} ({pct(r['ratio'])})", interval_text(r), r["verdict"])
            for c in cell["leakage"] for r in c["rows"] if r["metric"] in claimed]
    return {"title": "Leakage: each variant interleaved against itself alone",
            "head": ("variant", "metric", "alone", "interleaved", "interleaved/alone", "95% interval", "verdict"),
            "rows": rows,
            "notes": [f"each variant's arm served alone by an app of its own, in the same schedule and at the same arrival "
                      f"rate; \"no difference\" at δ {100 * cell['delta']:.1f} %: the other arms' requests (the JIT's "
                      "profile of shared code, caches, the pool, GC, CPU) leave it as it is alone"]}


def section_text(section: dict[str, Any]) -> list[str]:
    """A section as the runner prints it: its title, its rows (cells joined by " | ") and its notes."""
    return [f"-- {section['title']}", " | ".join(section["head"]), *(" | ".join(str(x) for x in r) for r in section["rows"]),
            *section["notes"]]


def ramp_section(result: dict[str, Any], cell: dict[str, Any]) -> dict[str, Any] | None:
    """Per variant, each stage of its ramp, every figure the median over its rounds, and whether the stage held the
    SLO in how many rounds; the notes give each variant's breaking rate."""
    e = result["experiment"]
    if not any(r.get("stages") for r in cell["runs"]):
        return None
    p95_ms, max_errors = ramp.slo_of(e)
    rows, notes = [], []
    for v in e["variants"]:
        runs = [r for r in cell["runs"] if r["variant"] == v["label"] and r.get("stages")]
        for s in ramp.median_stages(runs):
            rows.append((v["label"], ramp.stage_label(s), f"{s['requests']:,.0f}", fmt(s["avg"]), fmt(s["p95"]), fmt(s["max"]),
                         fmt(s["error_rate"], "error_rate"), f"{s['held']} of {s['runs']}"))
        if runs:
            held = sum(1 for r in runs if r.get("held_peak"))
            rates = ", ".join(f"{r['breaking_rate']:g}" if not r.get("held_peak") else f"none up to {r['breaking_rate']:g}"
                              for r in runs)
            first = sum(1 for r in runs if not r["stages"][0]["held"])
            notes.append(f"{v['label']}: breaking rate per round {rates}/s"
                         + (f"; {held} of {len(runs)} round(s) held the peak: raise the ramp" if held else "")
                         + (f"; {first} of {len(runs)} round(s) broke at the first stage: start the ramp lower" if first else ""))
    return {"title": f"The ramp: {ramp.describe(e['load'])}, SLO p95 < {p95_ms:g} ms and errors < "
                     f"{fmt(max_errors, 'error_rate')} (medians over the rounds)",
            "head": ("variant", "stage (/s)", "requests", "mean (ms)", "p95 (ms)", "max (ms)", "errors", "held (rounds)"),
            "rows": rows, "notes": notes}


def figure_text(value: float | None, key: str, unit: str | None, written: bool = False) -> str:
    """A figure in its unit: the write-up's as written ('1,966 ms', '13.98 ms'), perflab's to a few digits
    ('17.5 ms'); an error rate as a percentage."""
    if key == "error_rate":
        return fmt(value, "error_rate")
    if nan(value):
        return "–"
    text = f"{value:,}" if written else fmt(value)
    return f"{text}{' ' + unit if unit else ''}"


def times_text(x: float) -> str:
    return "–" if nan(x) else f"{ratio_text(x)}×"


NO_WHY = "no reason given yet ([[writeup]] why)"


def differ_text(stage: dict[str, Any]) -> str:
    """One stage that differs from the write-up (writeup.differing), in a line: the figures and the file's reason."""
    return f"{stage['stage']} differs in {', '.join(map(short, stage['metrics']))}: {stage['why'] or NO_WHY}"


def writeup_section(result: dict[str, Any], cell: dict[str, Any]) -> dict[str, Any] | None:
    """The write-up's figures beside perflab's (tooling/perflab/analyse/writeup.py), each stage's ratio on both sides to the
    first stage, or to the stage it is set against when one is (a column then names it),
    one line per metric: does the direction agree, and one per stage that differs, with the file's reason. None for
    an A/A: its twin is no stage of the case study."""
    if result.get("calibration"):
        return None
    t = writeup.table(result["experiment"], cell["runs"], cell.get("delta") or result.get("delta") or 0.03)
    if not t:
        return None
    mixed = writeup.stage_over_stage(t)
    rows = [(r["stage"], r["variant"], short(r["metric"]), figure_text(r["writeup"], r["metric"], r["unit"], written=True),
             figure_text(r["perflab"], r["metric"], r["unit"]),
             *([writeup.stage_number(r["over"]) if r["over"] != r["stage"] else "–"] if mixed else []),
             times_text(r["writeup_ratio"]), times_text(r["perflab_ratio"]))
            for r in t["rows"]]
    agree = [short(d["metric"]) for d in t["directions"] if d["agrees"]]
    notes = [f"direction agrees at every stage: {', '.join(agree)}"] if agree else []
    notes += [f"{short(d['metric'])}: direction disagrees ("
              + "; ".join(f"{s['stage']}: write-up {s['writeup']}, perflab {s['perflab']}" for s in d["stages"]) + ")"
              for d in t["directions"] if not d["agrees"]]
    notes += [differ_text(stage) for stage in t["differ"]]
    notes += [f"sources: " + "; ".join(dict.fromkeys(r["source"] for r in t["rows"]))]
    ratios = ("set against", "write-up / that stage", "perflab / that stage") if mixed else (
        f"write-up / {t['baseline_stage']}", f"perflab / {t['baseline_stage']}")
    return {"title": "The write-up beside perflab", "head": ("stage", "variant", "metric", "write-up", "perflab (median)",
            *ratios), "rows": rows, "notes": notes}

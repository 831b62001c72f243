"""What the runner says: one line per run, the verdict table (text, Markdown), the headline and the sentences under
it. Pure functions of a result (a cell's extra sections are tooling/perflab/render/report_sections.py's, the tables README.md and docs/
regenerate tooling/perflab/render/report_views.py's, report.html tooling/perflab/render/html_page.py's)."""
import math
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from perflab.analyse import comparison
from perflab.results import schema
from perflab.measure import runwindow
from perflab.analyse import stats
from perflab.render.report_sections import extra_sections, interval_text, section_text
from perflab.results.units import delta_text, fmt, label, nan, pct, ratio_text, short


def run_line(run: dict[str, Any]) -> str:
    keys = [k for k in ("p50", "p95", "tps", "error_rate", "capacity", "served", "first_ms", "second_ms", "idle_first_ms",
                        "idle_second_ms", "ready_ms", "success_pct") if k in run]
    parts = [f"{label(k)} {fmt(run[k], k)}" for k in keys]
    parts += [f"{label(k)} {fmt(v, k)}" for k, v in run.get("mechanism", {}).items()]
    if run.get("steady") and not run["steady"].get("steady", True):
        parts.append("NOT STEADY: " + run["steady"].get("reason", ""))
    parts += [f"invariant '{i['name']}' {'ok' if i['ok'] else 'BROKEN'}" for i in run.get("invariants", [])]
    return f"{run['variant']} round {run['round']}: " + ", ".join(parts)


def cell_title(cell: dict[str, Any]) -> str:
    title: str = cell["network"]
    if cell.get("parameter"):
        title += f" | {cell['parameter']} = {cell['value']}"
    return title


def gc_text(cell: dict[str, Any]) -> str:
    """'GC: SerialGC' when every variant ran with the same one, else 'GC: before G1GC, after SerialGC'; '' unknown."""
    by_variant: dict[str, set[str]] = {}
    for run in cell["runs"]:
        if run.get("gc"):
            by_variant.setdefault(run["variant"], set()).add(run["gc"])
    if not by_variant:
        return ""
    names = {gc for gcs in by_variant.values() for gc in gcs}
    if len(names) == 1:
        return f"GC: {names.pop()}"
    return "GC: " + ", ".join(f"{variant} {'/'.join(sorted(gcs))}" for variant, gcs in by_variant.items())


PROCESS = {"app": "the app", "mariadb": "MariaDB"}


def limit_texts(cell: dict[str, Any]) -> list[str]:
    """Per limited process, whether its CPU limit held in every run: 'the app held to 1 CPU in 2 of 2 runs (at
    most 0.97 CPU-s per s; throttled 12 of 400 periods)', with each variant's share of throttled periods when the
    runs are of several (which stage's CPU ran out)."""
    out = []
    for process in PROCESS:
        checks = [c for r in cell["runs"] for c in r.get("limits") or [] if c["process"] == process]
        if not checks:
            continue
        held = sum(1 for c in checks if c["held"])
        rates = [c["cpu_per_s"] for c in checks if c.get("cpu_per_s") is not None]
        parts = [f"at most {max(rates):.2f} CPU-s per s"] if rates else []
        if any("periods" in c for c in checks):
            parts.append(f"throttled {sum(c.get('throttled', 0) for c in checks)} of "
                         f"{sum(c.get('periods', 0) for c in checks)} periods" + throttled_by_variant(cell, process))
        how = "cpulimit" if all(c["how"] == "cpulimit" for c in checks) else "a cgroup quota"
        out.append(f"{PROCESS[process]} held to {checks[0]['cpus']:g} CPU by {how} in {held} of {len(checks)} runs"
                   + (f" ({'; '.join(parts)})" if parts else ""))
    return out


def throttled_by_variant(cell: dict[str, Any], process: str) -> str:
    """': wallet-before 41 % / wallet-after 3 %': each variant's throttled share of its runs' periods, when the cell
    has runs of more than one variant; '' otherwise."""
    shares: dict[str, list[int]] = {}
    for r in cell["runs"]:
        for c in r.get("limits") or []:
            if c["process"] == process and c.get("periods"):
                counts = shares.setdefault(r["variant"], [0, 0])
                counts[0] += c.get("throttled", 0)
                counts[1] += c["periods"]
    if len(shares) < 2:
        return ""
    return ": " + " / ".join(f"{variant} {100 * t / p:.0f} %" for variant, (t, p) in shares.items())


def machine_lines(cell: dict[str, Any]) -> list[str]:
    """The cell's machine profile, the GC each app ran with, and whether each CPU limit held; [] for a result
    written before machine profiles."""
    if not cell.get("machine"):
        return []
    return [f"machine {cell['machine']}", *filter(None, [gc_text(cell)]), *limit_texts(cell)]


def limit_warnings(cell: dict[str, Any]) -> list[str]:
    """A run in which a limited process used more CPU than its share (and its tolerance)."""
    return [f"{PROCESS[c['process']]} used {c['cpu_per_s']:.2f} CPU-s per s in {r['testid']}, over its {c['cpus']:g} CPU "
            f"limit: the machine profile did not hold" for r in cell["runs"] for c in r.get("limits") or []
            if c["held"] is False]


def p_text(row: dict[str, Any], tests: int) -> str:
    """The p column: Mann-Whitney's p (Holm-adjusted among `tests` secondary rows when it was), or, when the rounds
    cannot bring it under stats.SIGNIFICANCE however far apart the sides are (stats.smallest_mwu_p) and it is not
    under it, a dash that says so, never a p read as if it could: '– (3+3 rounds cannot reach 0.05)'."""
    holm = "p_holm" in row
    p = row["p_holm"] if holm else row["p_value"]
    floor = stats.smallest_mwu_p(row.get("n_a", 0), row.get("n_b", 0), tests if holm else 1)
    if floor > stats.SIGNIFICANCE and not nan(p) and p > stats.SIGNIFICANCE:
        return f"– ({row.get('n_a', 0)}+{row.get('n_b', 0)} rounds cannot reach {stats.SIGNIFICANCE:g})"
    return fmt(p)


def verdict_rows(cell: dict[str, Any]) -> Iterator[tuple[str, ...]]:
    for c in cell.get("comparisons", []):
        tests = sum("p_holm" in r for r in c["rows"])
        for r in c["rows"]:
            yield (schema.who(c), label(r["metric"]), fmt(r["median_a"], r["metric"]), fmt(r["median_b"], r["metric"]),
                   f"{fmt(r['ratio'])} ({pct(r['ratio'])})", interval_text(r), p_text(r, tests), r["verdict"])


HEAD = ("candidate", "metric", "baseline", "candidate value", "B/A", "95% BCa interval", "p (MWU, Holm)", "verdict")


def why(result: dict[str, Any], c: dict[str, Any], also_moved: bool = True) -> str:
    """The comparison's "because" sentence, written from its rows by this checkout's comparison.because() (the
    sentence stored in result.json is the one its run wrote; a regenerated report words and formats it the current
    way); also_moved=False leaves out the other mechanisms that moved, which the report lists."""
    return comparison.because(result["experiment"], c["rows"], c["primary"], also_moved)


def against_why(result: dict[str, Any], c: dict[str, Any]) -> str:
    """'B against A: p95 −62 % (better), because ...': a comparison's line under its heading."""
    return f"{c['candidate']} against {c['baseline']}: {why(result, c)}"


def place(cell: dict[str, Any]) -> str:
    """A cell in a sentence: its network profile, and the sweep value after an @."""
    return f"{cell['profile']}{at(cell.get('value'))}"


def primary_cells(result: dict[str, Any]) -> list[dict[str, Any]]:
    """One entry per cell and candidate: the primary metric's B/A, its 95 % interval, δ and the verdict the result
    is judged by (an A/A's at δ = its noise floor, from its calibration), what the file expected and whether it
    came out so. The headline, verdict.svg and rounds.svg read these."""
    observed = {c["profile"]: c for c in comparison.primary_calibrations(result.get("calibration")) if "observed" in c}
    judged = {schema.cell_key(x): x for x in result.get("verdict", {}).get("cells", [])}  # a command result has none
    out = []
    for cell in result["cells"]:
        for c in cell.get("comparisons", []):
            row, delta = c["primary"], c["primary"]["delta"]
            if cell["profile"] in observed:
                calibration = observed[cell["profile"]]
                row, delta = dict(calibration["observed"], metric=row["metric"]), calibration["delta"]
            x = judged[schema.cell_key({"profile": cell["profile"], "value": cell.get("value"), **c})]
            out.append({"place": place(cell), "profile": cell["profile"], "value": cell.get("value"),
                        "title": cell_title(cell), "baseline": c["baseline"], "candidate": c["candidate"],
                        "control": c.get("control", False),
                        "metric": row["metric"], "ratio": row["ratio"], "interval": tuple(row["interval"]),
                        "delta": delta, "verdict": x["verdict"], "expect": x["expect"], "ok": x["ok"],
                        "lower_is_better": row["lower_is_better"], "round_ratios": list(row["round_ratios"]),
                        "also": also_cells(c, x)})
    return out


def also_cells(c: dict[str, Any], judged: dict[str, Any]) -> list[dict[str, Any]]:
    """The claimed metrics of `[primary] also` of one comparison: metric, ratio, interval, δ, verdict, expect, ok."""
    rows = {r["metric"]: r for r in c["rows"]}
    nothing = {"ratio": math.nan, "interval": (math.nan, math.nan), "delta": math.nan}
    return [dict(nothing, **{k: rows[a["metric"]][k] for k in ("ratio", "interval", "delta") if a["metric"] in rows}, **a)
            for a in judged.get("also", [])]


def judged_text(c: dict[str, Any]) -> str:
    """Whether a cell's verdict is what the file expected: "as expected", "expected better", or a control's note."""
    if c["expect"] == "any":
        return "a control, no claim"
    return "as expected" if c["ok"] else f"expected {c['expect']}"


def headline_parts(result: dict[str, Any]) -> tuple[bool, list[str]]:
    """(as expected?, [one clause per profile and candidate]): 'cross-zone: better (p95 B/A 0.37, 95 % interval
    0.11–0.40), as expected'; with several candidates each clause names its own ('localhost, bulkhead: ...');
    "no difference" and "inconclusive" give δ, the margin they are judged by."""
    cells = primary_cells(result)
    several = len({schema.who(c) for c in cells}) > 1
    clauses = []
    for c in cells:
        who = f"{c['place']}, {schema.who(c)}" if several else c["place"]
        clauses.append(f"{who}: {claim_text(c)}")
        clauses += [f"{who}, also {claim_text(a)}" for a in c["also"]]
    return result.get("verdict", {}).get("ok", False), clauses


def claim_text(c: dict[str, Any]) -> str:
    """'better (p95 B/A 0.37, 95 % interval 0.11–0.40), as expected': one claimed metric's verdict, its numbers and
    whether it is what the file expected; "no difference" and "inconclusive" give δ."""
    lo, hi = c["interval"]
    numbers = f"{short(c['metric'])} B/A {ratio_text(c['ratio'])}, 95 % interval {ratio_text(lo)}–{ratio_text(hi)}"
    if c["verdict"] not in ("better", "worse"):
        numbers += f", δ {delta_text(c['delta'])}"
    return f"{c['verdict']} ({numbers}), {judged_text(c)}"


SMOKE_VERDICT = ("not judged: a smoke run is too short for a verdict; it checks the mechanisms and invariants "
                 "(the checks above). Run without --smoke for the verdict.")


def is_smoke(result: dict[str, Any]) -> bool:
    return bool(result.get("args", {}).get("smoke"))


def headline(result: dict[str, Any], bold: bool = False) -> str:
    """The report's first line: each profile's verdict in words, with its numbers, and whether it is as expected."""
    ok, clauses = headline_parts(result)
    if not clauses:
        return "no verdict: nothing was compared"
    if is_smoke(result):
        return SMOKE_VERDICT
    overall = "As expected" if ok else "Not as expected"
    overall += " (each A/A at δ = its noise floor)" if result.get("calibration") else ""
    return (f"**{overall}.**" if bold else f"{overall}.") + " " + "; ".join(clauses)


ROLE = {"primary": "the primary metric: the verdict rests on its interval",
        "also": "a claimed metric ([primary] also): its own verdict rests on its interval",
        "declared": "a declared mechanism: the \"because\" sentence reads it",
        "mechanism": "a mechanism the verdict does not cite: reported only",
        "secondary": "a secondary metric: reported, the verdict does not rest on it"}


def warning_lines(result: dict[str, Any], cell: dict[str, Any]) -> list[str]:
    """One line per metric with warnings: which metric, what its role is (so why the warning matters) and the
    warnings themselves, e.g. 'phone cache hit ratio (a secondary metric: ...): only 0 round(s), fewer than 10'."""
    e = result["experiment"]
    declared = comparison.declared_mechanisms(e)
    mechanisms = {m["name"] for m in e.get("mechanism", [])}
    comparisons = cell.get("comparisons", [])
    out = []
    for c in comparisons:
        for r in (r for r in c["rows"] if r.get("warnings")):
            role = ("primary" if r["metric"] == e["primary"]["metric"] else "also" if r["metric"] in e["primary"].get("also", [])
                    else "declared" if r["metric"] in declared
                    else "mechanism" if r["metric"] in mechanisms else "secondary")
            who = f"{schema.who(c)}, " if len(comparisons) > 1 else ""
            out.append((list(ROLE).index(role), f"{who}{label(r['metric'])} ({ROLE[role]}): {'; '.join(r['warnings'])}"))
    return [line for _, line in sorted(out, key=lambda x: x[0])]


def commit_lines(e: dict[str, Any]) -> list[str]:
    """One line per variant built from a commit (tooling/perflab/lab/refs.py): 'candidate 1a2b3c4d: commit 1a2b3c4d "subject" (HEAD)'."""
    return [f"{v['label']}: commit {c['short']} \"{c['subject']}\" ({c['ref']})"
            for v in e.get("variants", []) for c in [v.get("commit")] if c]


def text(result: dict[str, Any]) -> str:
    if schema.is_command(result):
        return command_table(result)
    out = [headline(result), *commit_lines(result["experiment"])]
    for cell in result["cells"]:
        body = list(verdict_rows(cell))
        widths = [max(len(str(r[i])) for r in [HEAD] + body) for i in range(len(HEAD))]
        out += [f"== {cell_title(cell)}", *[f"   {m}" for m in machine_lines(cell)], padded(HEAD, widths),
                padded(["-" * w for w in widths], widths), *[padded(r, widths) for r in body]]
        out += [f"   WARNING: {w}" for w in limit_warnings(cell)]
        out += [f"   {against_why(result, c)}" for c in cell.get("comparisons", [])]
        out += [line for section in extra_sections(result, cell) for line in section_text(section)]
    for c in result.get("calibration", []):
        out.append(aa_sentence(c))
    out += [power_sentence(p) for p in result.get("power", [])]
    out += [repeats_sentence(r) for r in result.get("repeats", [])]
    if reproduction := reproduction_of(result):
        out.append(reproduction_sentence(reproduction))
    v = result["verdict"]
    if is_smoke(result):
        out.append(f"verdict: {SMOKE_VERDICT}")
        return "\n".join(out)
    if v["ok"] and not v["cells"]:
        out.append("verdict: none: one variant, measured, nothing claimed")
        return "\n".join(out)
    out.append(f"verdict: {'as expected' if v['ok'] else 'NOT as expected'} — " +
               "; ".join(f"{x['profile']}{at(x['value'])}: {x['candidate']} {x['verdict']}"
                         + "".join(f", {label(a['metric'])} {a['verdict']}" for a in x.get("also", []))
                         + (" (a control, no claim)" if x.get("expect") == "any" else "") for x in v["cells"])
               + (" (each A/A at δ = its noise floor)" if result.get("calibration") else ""))
    return "\n".join(out)


def padded(row: Sequence[object], widths: list[int]) -> str:
    """A row of the runner's text table, each value left-aligned in its column's width."""
    return "  ".join(str(v).ljust(w) for v, w in zip(row, widths))


def at(value: object) -> str:
    return "" if value is None else f" @ {value}"


def power_sentence(p: dict[str, Any]) -> str:
    """The power check's line: how often the planted slowdown was called worse."""
    o = p["observed"]
    return (f"power check {p['profile']} ({p['metric']}): the planted twin called {p['expect']} in {p['hits']} of "
            f"{p['analyses']} analyses of {p['rounds']} rounds ({100 * p['power']:.0f} %, {p['drawn']} of a run of "
            f"{p['pool']}) at δ {100 * p['delta']:.1f} %; the whole run: B/A {o['ratio']:.3g} "
            f"({o['interval'][0]:.3g}–{o['interval'][1]:.3g}), {o['verdict']}"
            + ("" if p["power"] >= 0.8 else " — below the 80 % the check asks for"))


def repeats_sentence(r: dict[str, Any]) -> str:
    """--repeat's line: how the separate runs' primary verdicts came out."""
    counts = ", ".join(f"{v} in {n}" for v, n in r["verdicts"].items())
    low, high = min(r["ratios"]), max(r["ratios"])
    return (f"{r['runs']} separate runs on {r['profile']} ({r['metric']}): {counts}; {r['expect']} in {r['met']} of "
            f"{r['runs']}; B/A from {low:.3g} to {high:.3g}")


def aa_sentence(c: dict[str, Any]) -> str:
    if "skipped" in c:
        return f"A/A {c['profile']} ({c['metric']}): {c['skipped']}"
    lo, hi = c.get("fpr_interval", (math.nan, math.nan))
    return (f"A/A {c['profile']} ({c['metric']}): noise floor {100 * c['noise_floor']:.1f} %, δ {100 * c['delta']:.1f} %, "
            f"false-positive rate {c['false_positives']}/{c['analyses']} = {100 * c['false_positive_rate']:.1f} % "
            f"(95% interval {100 * lo:.1f}–{100 * hi:.1f} %){' ≤ 5 %' if c['fpr_ok'] else ' ABOVE 5 %'}"
            + (f"; A/A analyses of {c['rounds']} rounds drawn as whole instance lifetimes (of {c['lifetimes']})"
               if c.get("lifetimes") else ""))


def md_table(head: Sequence[str], rows: Iterable[Iterable[object]]) -> str:
    """A Markdown table; a '|' inside a cell (a sweep cell's title has one) is escaped, so it stays in its column."""
    def cell(x: object) -> str:
        return str(x).replace("|", "\\|")
    return "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] + ["| " + " | ".join(cell(x) for x in r) + " |" for r in rows])


def lifetimes_sentence(lifetimes: list[dict[str, Any]]) -> str:
    """How the apps were started in a cell: how many instance lifetimes, in which orders, and how long the
    settling after each warm-up took (cells.start_instances)."""
    orders = "; ".join(" → ".join(l["start_order"]) for l in lifetimes)
    waits = [s["seconds"] for l in lifetimes for s in l["settled"].values()]
    busy = [name for l in lifetimes for name, s in l["settled"].items() if not s["quiet"]]
    settled = f"{min(waits):g} s" if min(waits) == max(waits) else f"{min(waits):g}–{max(waits):g} s"
    text = (f"{len(lifetimes)} instance lifetime(s) per variant, started and warmed in the order {orders}; "
            f"each process (the apps, MariaDB) settled for {settled} after the warm-ups "
            f"(quiet: under 5 % of a core)")
    return text + (f"; still busy when settling stopped: {', '.join(busy)}" if busy else "")


def markdown(result: dict[str, Any]) -> str:
    e = result["experiment"]
    out = [f"# {result['name']}", "", headline(result, bold=True), "", e.get("description", ""), "",
           f"- variants: " + ", ".join(f"**{v['label']}** (`{v.get('profile', '')} {' '.join(v.get('args', []))}`)" for v in e["variants"]),
           *[f"- {line}" for line in commit_lines(e)],
           f"- load: `{e['load'].get('script', '')}`, {e['load']['shape']} model, {load_text(e['load'])}; "
           f"{e['rounds']} round(s) per variant in balanced blocks (cap {e['max_rounds']})",
           f"- practical margin δ = {100 * result['delta']:.1f} % ({result['delta_source']}); unit of observation: one run"]
    out += [f"- {line}" for line in setting_lines(e)]
    out += runwindow.markdown_lines(result)  # the dashboard at this run's time range
    controls = sorted({schema.who(x) for x in result["verdict"]["cells"] if x.get("expect") == "any"})
    if controls:
        out.append("- controls, reported without a claim (`expect = \"any\"`): " + ", ".join(controls))
    out.append("")
    for cell in result["cells"]:
        box = machine_lines(cell)
        out += [f"## {cell_title(cell)}", "", *[f"- {m}" for m in box], *([""] if box else []), md_table(HEAD, verdict_rows(cell)), ""]
        if cell.get("delta") not in (None, result["delta"]):
            out.append(f"- δ for this profile: {100 * cell['delta']:.1f} % (its A/A noise floor)")
        out += [f"- δ for {label(metric)}, claimed beside it: {100 * d:.1f} % (the larger of "
                f"{100 * stats.MIN_DELTA:.0f} % and its own A/A noise floor)" for metric, d in (cell.get("also_delta") or {}).items()]
        out += [f"- {against_why(result, c)}" for c in cell.get("comparisons", [])]
        if cell.get("lifetimes"):
            out.append(f"- {lifetimes_sentence(cell['lifetimes'])}")
        unsteady = [r["testid"] for r in cell["runs"] if r.get("steady") and not r["steady"].get("steady", True)]
        if unsteady:
            out.append(f"- runs that never reached a steady state: {', '.join(unsteady)}")
        out += [f"- warning: {w}" for w in limit_warnings(cell) + warning_lines(result, cell)]
        out.append("")
        for section in extra_sections(result, cell):
            out += [f"### {section['title']}", "", md_table(section["head"], section["rows"]), ""]
            out += [f"- {note}" for note in section["notes"]] + ([""] if section["notes"] else [])
    for c in result.get("calibration", []):
        out += [f"- {aa_sentence(c)}"]
    out += [f"- {power_sentence(p)}" for p in result.get("power", [])]
    out += [f"- {repeats_sentence(r)}" for r in result.get("repeats", [])]
    if reproduction := reproduction_of(result):
        out += [f"- {reproduction_sentence(reproduction)}"]
    out += ["", "## Runs", "", md_table(("run", "observation"), ((r["testid"], run_line(r)) for c in result["cells"] for r in c["runs"])),
            "", "## Reproduce", "", f"```\n{result['command']}\n```", "", machine_text(result["machine"]), ""]
    return "\n".join(out)


def reproduction_of(result: dict[str, Any]) -> dict[str, Any] | None:
    """The result's reproduction, judged on its claimed cells with its controls named (a result stored before
    controls were named is judged so by schema.migrate, schema version 2 → 3)."""
    reproduction: dict[str, Any] | None = result.get("reproduction")
    return reproduction


def reproduction_sentence(r: dict[str, Any]) -> str:
    """Whether this run repeats the primary verdicts of the run published before it; controls are named as such."""
    cells = "; ".join(f"{c['profile']}{'' if c.get('value') in (None, 'None') else ' ' + str(c['value'])} "
                      f"{c['candidate']}{' (a control)' if c.get('control') else ''}: {c['verdict']} "
                      f"(before: {c['previous'] or 'not measured'})" for c in r["cells"])
    head = "same primary verdict as" if r["same"] else "primary verdict DIFFERS from"
    return f"{head} the previously published run ({r['previous_started']}, commit {r['previous_commit']}){controls_clause(r)}: {cells}"


def controls_clause(r: dict[str, Any]) -> str:
    """The controls' part of a reproduction: they are compared like the claims, but do not decide `same`."""
    if r.get("controls_same") is None:
        return ""
    return " in its claimed cells; the controls " + ("repeat theirs too" if r["controls_same"] else "do not all repeat theirs")


def setting_lines(e: dict[str, Any]) -> list[str]:
    """How the run's ramp was chosen, when a [setting] rule chose it: the rule's input (the pilot's figure), where it
    was measured (this run's machine, or the pilot published with the file), and the ramp it gave."""
    rule = e.get("setting", {})
    if not rule.get("pilot") or "ramp" not in e["load"]:
        return []
    ramp_text = " → ".join(str(r) for r in e["load"]["ramp"]) + "/s"
    applied = rule.get("applied")
    if applied:
        metric = rule["pilot_metric"]
        return [f"setting: the ramp {ramp_text}, by the rule in [setting] on its pilot's {label(metric)} "
                f"{fmt(applied['pilot_figure'], metric)}, measured {applied['measured']} (the file's ramp, from the pilot "
                f"published with it: {' → '.join(str(r) for r in applied['file_ramp'])}/s)"
                + "".join(f"; the pilot's run was not steady: {reason}" for reason in applied.get("unsteady", []))]
    return [f"setting: the ramp {ramp_text}, by the rule in [setting] on the {rule['pilot']} result published "
            f"when it ran"]


def load_text(load: dict[str, Any]) -> str:
    keys = [f"{k} {load[k]}" for k in ("rate", "vus", "requests", "duration", "warmup") if k in load]
    return ", ".join(keys) or "as the script sets"


def machine_text(m: dict[str, Any]) -> str:
    lines = [f"- commit {m.get('commit')}, {m.get('cores')} cores, load average before {fmt_load(m.get('load_before'))}, "
             f"after {fmt_load(m.get('load_after'))}"]
    lines += [f"- {k}: {v}" for k, v in m.get("versions", {}).items()]
    return "\n".join(lines)


def fmt_load(values: Sequence[float] | None) -> str:
    return "–" if not values else " ".join(f"{v:.2f}" for v in values)


def median(values: Iterable[float | None]) -> float:
    present = sorted(v for v in values if v is not None and not nan(v))
    if not present:
        return math.nan
    n = len(present)
    return present[n // 2] if n % 2 else (present[n // 2 - 1] + present[n // 2]) / 2


def command_rows(result: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
    keys = []
    for r in result["rows"]:
        keys += [k for k in r if k not in keys]
    return keys, [[fmt(r.get(k)) if not isinstance(r.get(k), str) else r.get(k) for k in keys] for r in result["rows"]]


def command_table(result: dict[str, Any]) -> str:
    keys, rows = command_rows(result)
    return "\n".join("  ".join(str(x) for x in r) for r in [keys] + rows)

"""What the runner says: one line per run, the verdict table (text, Markdown) and the tables README.md and docs/
regenerate from published results (views). Pure functions of a result (report.html is ab/page.py's)."""
import math
import re

import comparison
import model
import ramp
import runwindow
import stats
import writeup
from words import a_to_b, delta_text, fmt, label, nan, pct, ratio_text, short


def run_line(run):
    keys = [k for k in ("p50", "p95", "tps", "error_rate", "capacity", "served", "first_ms", "second_ms", "idle_first_ms",
                        "idle_second_ms", "ready_ms", "success_pct") if k in run]
    parts = [f"{label(k)} {fmt(run[k], k)}" for k in keys]
    parts += [f"{label(k)} {fmt(v, k)}" for k, v in run.get("mechanism", {}).items()]
    if run.get("steady") and not run["steady"].get("steady", True):
        parts.append("NOT STEADY: " + run["steady"].get("reason", ""))
    parts += [f"invariant '{i['name']}' {'ok' if i['ok'] else 'BROKEN'}" for i in run.get("invariants", [])]
    return f"{run['variant']} round {run['round']}: " + ", ".join(parts)


def cell_title(cell):
    title = cell["network"]
    if cell.get("parameter"):
        title += f" | {cell['parameter']} = {cell['value']}"
    return title


def gc_text(cell):
    """'GC: SerialGC' when every variant ran with the same one, else 'GC: before G1GC, after SerialGC'; '' unknown."""
    by_variant: dict[str, set] = {}
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


def limit_texts(cell):
    """Per limited process, whether its CPU limit held in every run: 'the app held to 1 CPU in 2 of 2 runs (at
    most 0.97 CPU-s per s; throttled 12 of 400 periods)'."""
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
                         f"{sum(c.get('periods', 0) for c in checks)} periods")
        how = "cpulimit" if all(c["how"] == "cpulimit" for c in checks) else "a cgroup quota"
        out.append(f"{PROCESS[process]} held to {checks[0]['cpus']:g} CPU by {how} in {held} of {len(checks)} runs"
                   + (f" ({'; '.join(parts)})" if parts else ""))
    return out


def machine_lines(cell):
    """The cell's machine profile, the GC each app ran with, and whether each CPU limit held; [] for a result
    written before machine profiles."""
    if not cell.get("machine"):
        return []
    return [f"machine {cell['machine']}", *filter(None, [gc_text(cell)]), *limit_texts(cell)]


def limit_warnings(cell):
    """A run in which a limited process used more CPU than its share (and its tolerance)."""
    return [f"{PROCESS[c['process']]} used {c['cpu_per_s']:.2f} CPU-s per s in {r['testid']}, over its {c['cpus']:g} CPU "
            f"limit: the machine profile did not hold" for r in cell["runs"] for c in r.get("limits") or []
            if c["held"] is False]


def interval_text(row):
    """'0.417–0.422': a compared metric's 95 % interval of B/A ('–' when there is none)."""
    lo, hi = row["interval"]
    return "–" if nan(lo) or nan(hi) else f"{fmt(lo)}–{fmt(hi)}"


def p_text(row, tests):
    """The p column: Mann-Whitney's p (Holm-adjusted among `tests` secondary rows when it was), or, when the rounds
    cannot bring it under stats.SIGNIFICANCE however far apart the sides are (stats.smallest_mwu_p) and it is not
    under it, a dash that says so, never a p read as if it could: '– (3+3 rounds cannot reach 0.05)'."""
    holm = "p_holm" in row
    p = row["p_holm"] if holm else row["p_value"]
    floor = stats.smallest_mwu_p(row.get("n_a", 0), row.get("n_b", 0), tests if holm else 1)
    if floor > stats.SIGNIFICANCE and not nan(p) and p > stats.SIGNIFICANCE:
        return f"– ({row.get('n_a', 0)}+{row.get('n_b', 0)} rounds cannot reach {stats.SIGNIFICANCE:g})"
    return fmt(p)


def verdict_rows(cell):
    for c in cell.get("comparisons", []):
        tests = sum("p_holm" in r for r in c["rows"])
        for r in c["rows"]:
            yield (model.who(c), label(r["metric"]), fmt(r["median_a"], r["metric"]), fmt(r["median_b"], r["metric"]),
                   f"{fmt(r['ratio'])} ({pct(r['ratio'])})", interval_text(r), p_text(r, tests), r["verdict"])


HEAD = ("candidate", "metric", "baseline", "candidate value", "B/A", "95% BCa interval", "p (MWU, Holm)", "verdict")


def why(result, c, also_moved=True):
    """The comparison's "because" sentence, written from its rows by this checkout's comparison.because() (the
    sentence stored in result.json is the one its run wrote; a regenerated report words and formats it the current
    way); also_moved=False leaves out the other mechanisms that moved, which the report lists."""
    return comparison.because(result["experiment"], c["rows"], c["primary"], also_moved)


def against_why(result, c):
    """'B against A: p95 −62 % (better), because ...': a comparison's line under its heading."""
    return f"{c['candidate']} against {c['baseline']}: {why(result, c)}"


def place(cell):
    """A cell in a sentence: its network profile, and the sweep value after an @."""
    return f"{cell['profile']}{at(cell.get('value'))}"


def primary_cells(result):
    """One entry per cell and candidate: the primary metric's B/A, its 95 % interval, δ and the verdict the result
    is judged by (an A/A's at δ = its noise floor, from its calibration), what the file expected and whether it
    came out so. The headline, verdict.svg and rounds.svg read these."""
    observed = {c["profile"]: c for c in comparison.primary_calibrations(result.get("calibration")) if "observed" in c}
    judged = {model.cell_key(x): x for x in result.get("verdict", {}).get("cells", [])}  # a command result has none
    out = []
    for cell in result["cells"]:
        for c in cell.get("comparisons", []):
            row, delta = c["primary"], c["primary"]["delta"]
            if cell["profile"] in observed:
                calibration = observed[cell["profile"]]
                row, delta = dict(calibration["observed"], metric=row["metric"]), calibration["delta"]
            x = judged[model.cell_key({"profile": cell["profile"], "value": cell.get("value"), **c})]
            out.append({"place": place(cell), "profile": cell["profile"], "value": cell.get("value"),
                        "title": cell_title(cell), "baseline": c["baseline"], "candidate": c["candidate"],
                        "control": c.get("control", False),
                        "metric": row["metric"], "ratio": row["ratio"], "interval": tuple(row["interval"]),
                        "delta": delta, "verdict": x["verdict"], "expect": x["expect"], "ok": x["ok"],
                        "lower_is_better": row["lower_is_better"], "round_ratios": list(row["round_ratios"]),
                        "also": also_cells(c, x)})
    return out


def also_cells(c, judged):
    """The claimed metrics of `[primary] also` of one comparison: metric, ratio, interval, δ, verdict, expect, ok."""
    rows = {r["metric"]: r for r in c["rows"]}
    nothing = {"ratio": math.nan, "interval": (math.nan, math.nan), "delta": math.nan}
    return [dict(nothing, **{k: rows[a["metric"]][k] for k in ("ratio", "interval", "delta") if a["metric"] in rows}, **a)
            for a in judged.get("also", [])]


def judged_text(c):
    """Whether a cell's verdict is what the file expected: "as expected", "expected better", or a control's note."""
    if c["expect"] == "any":
        return "a control, no claim"
    return "as expected" if c["ok"] else f"expected {c['expect']}"


def headline_parts(result):
    """(as expected?, [one clause per profile and candidate]): 'cross-zone: better (p95 B/A 0.37, 95 % interval
    0.11–0.40), as expected'; with several candidates each clause names its own ('localhost, bulkhead: ...');
    "no difference" and "inconclusive" give δ, the margin they are judged by."""
    cells = primary_cells(result)
    several = len({model.who(c) for c in cells}) > 1
    clauses = []
    for c in cells:
        who = f"{c['place']}, {model.who(c)}" if several else c["place"]
        clauses.append(f"{who}: {claim_text(c)}")
        clauses += [f"{who}, also {claim_text(a)}" for a in c["also"]]
    return result.get("verdict", {}).get("ok", False), clauses


def claim_text(c):
    """'better (p95 B/A 0.37, 95 % interval 0.11–0.40), as expected': one claimed metric's verdict, its numbers and
    whether it is what the file expected; "no difference" and "inconclusive" give δ."""
    lo, hi = c["interval"]
    numbers = f"{short(c['metric'])} B/A {ratio_text(c['ratio'])}, 95 % interval {ratio_text(lo)}–{ratio_text(hi)}"
    if c["verdict"] not in ("better", "worse"):
        numbers += f", δ {delta_text(c['delta'])}"
    return f"{c['verdict']} ({numbers}), {judged_text(c)}"


SMOKE_VERDICT = ("not judged: a smoke run is too short for a verdict; it checks the mechanisms and invariants "
                 "(the checks above). Run without --smoke for the verdict.")


def is_smoke(result):
    return bool(result.get("args", {}).get("smoke"))


def headline(result, bold=False):
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


def warning_lines(result, cell):
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
            who = f"{model.who(c)}, " if len(comparisons) > 1 else ""
            out.append((list(ROLE).index(role), f"{who}{label(r['metric'])} ({ROLE[role]}): {'; '.join(r['warnings'])}"))
    return [line for _, line in sorted(out, key=lambda x: x[0])]


def commit_lines(e):
    """One line per variant built from a commit (ab/refs.py): 'candidate 1a2b3c4d: commit 1a2b3c4d "subject" (HEAD)'."""
    return [f"{v['label']}: commit {c['short']} \"{c['subject']}\" ({c['ref']})"
            for v in e.get("variants", []) for c in [v.get("commit")] if c]


def text(result):
    if model.is_command(result):
        return command_table(result)
    out = [headline(result), *commit_lines(result["experiment"])]
    for cell in result["cells"]:
        body = list(verdict_rows(cell))
        widths = [max(len(str(r[i])) for r in [HEAD] + body) for i in range(len(HEAD))]
        line = lambda r: "  ".join(str(v).ljust(w) for v, w in zip(r, widths))  # noqa: E731
        out += [f"== {cell_title(cell)}", *[f"   {m}" for m in machine_lines(cell)], line(HEAD),
                line(["-" * w for w in widths]), *[line(r) for r in body]]
        out += [f"   WARNING: {w}" for w in limit_warnings(cell)]
        out += [f"   {against_why(result, c)}" for c in cell.get("comparisons", [])]
        out += [line for section in extra_sections(result, cell) for line in section_text(section)]
    for c in result.get("calibration", []):
        out.append(aa_sentence(c))
    out += [power_sentence(p) for p in result.get("power", [])]
    out += [repeats_sentence(r) for r in result.get("repeats", [])]
    if result.get("reproduction"):
        out.append(reproduction_sentence(reproduction_of(result)))
    v = result["verdict"]
    if is_smoke(result):
        out.append(f"verdict: {SMOKE_VERDICT}")
        return "\n".join(out)
    out.append(f"verdict: {'as expected' if v['ok'] else 'NOT as expected'} — " +
               "; ".join(f"{x['profile']}{at(x['value'])}: {x['candidate']} {x['verdict']}"
                         + "".join(f", {label(a['metric'])} {a['verdict']}" for a in x.get("also", []))
                         + (" (a control, no claim)" if x.get("expect") == "any" else "") for x in v["cells"])
               + (" (each A/A at δ = its noise floor)" if result.get("calibration") else ""))
    return "\n".join(out)


def at(value):
    return "" if value is None else f" @ {value}"


def power_sentence(p):
    """The power check's line: how often the planted slowdown was called worse."""
    o = p["observed"]
    return (f"power check {p['profile']} ({p['metric']}): the planted twin called {p['expect']} in {p['hits']} of "
            f"{p['analyses']} analyses of {p['rounds']} rounds ({100 * p['power']:.0f} %, {p['drawn']} of a run of "
            f"{p['pool']}) at δ {100 * p['delta']:.1f} %; the whole run: B/A {o['ratio']:.3g} "
            f"({o['interval'][0]:.3g}–{o['interval'][1]:.3g}), {o['verdict']}"
            + ("" if p["power"] >= 0.8 else " — below the 80 % the check asks for"))


def repeats_sentence(r):
    """--repeat's line: how the separate runs' primary verdicts came out."""
    counts = ", ".join(f"{v} in {n}" for v, n in r["verdicts"].items())
    low, high = min(r["ratios"]), max(r["ratios"])
    return (f"{r['runs']} separate runs on {r['profile']} ({r['metric']}): {counts}; {r['expect']} in {r['met']} of "
            f"{r['runs']}; B/A from {low:.3g} to {high:.3g}")


def aa_sentence(c):
    if "skipped" in c:
        return f"A/A {c['profile']} ({c['metric']}): {c['skipped']}"
    lo, hi = c.get("fpr_interval", (math.nan, math.nan))
    return (f"A/A {c['profile']} ({c['metric']}): noise floor {100 * c['noise_floor']:.1f} %, δ {100 * c['delta']:.1f} %, "
            f"false-positive rate {c['false_positives']}/{c['analyses']} = {100 * c['false_positive_rate']:.1f} % "
            f"(95% interval {100 * lo:.1f}–{100 * hi:.1f} %){' ≤ 5 %' if c['fpr_ok'] else ' ABOVE 5 %'}"
            + (f"; A/A analyses of {c['rounds']} rounds drawn as whole instance lifetimes (of {c['lifetimes']})"
               if c.get("lifetimes") else ""))


def md_table(head, rows):
    """A Markdown table; a '|' inside a cell (a sweep cell's title has one) is escaped, so it stays in its column."""
    def cell(x):
        return str(x).replace("|", "\\|")
    return "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] + ["| " + " | ".join(cell(x) for x in r) + " |" for r in rows])


def lifetimes_sentence(lifetimes):
    """How the apps were started in a cell: how many instance lifetimes, in which orders, and how long the
    settling after each warm-up took (runner.start_instances)."""
    orders = "; ".join(" → ".join(l["start_order"]) for l in lifetimes)
    waits = [s["seconds"] for l in lifetimes for s in l["settled"].values()]
    busy = [name for l in lifetimes for name, s in l["settled"].items() if not s["quiet"]]
    settled = f"{min(waits):g} s" if min(waits) == max(waits) else f"{min(waits):g}–{max(waits):g} s"
    text = (f"{len(lifetimes)} instance lifetime(s) per variant, started and warmed in the order {orders}; "
            f"each process (the apps, MariaDB) settled for {settled} after the warm-ups "
            f"(quiet: under 5 % of a core)")
    return text + (f"; still busy when settling stopped: {', '.join(busy)}" if busy else "")


def markdown(result):
    e = result["experiment"]
    out = [f"# {result['name']}", "", headline(result, bold=True), "", e.get("description", ""), "",
           f"- variants: " + ", ".join(f"**{v['label']}** (`{v.get('profile', '')} {' '.join(v.get('args', []))}`)" for v in e["variants"]),
           *[f"- {line}" for line in commit_lines(e)],
           f"- load: `{e['load'].get('script', '')}`, {e['load']['shape']} model, {load_text(e['load'])}; "
           f"{e['rounds']} round(s) per variant in balanced blocks (cap {e['max_rounds']})",
           f"- practical margin δ = {100 * result['delta']:.1f} % ({result['delta_source']}); unit of observation: one run"]
    out += runwindow.markdown_lines(result)  # the dashboard at this run's time range
    controls = sorted({model.who(x) for x in result["verdict"]["cells"] if x.get("expect") == "any"})
    if controls:
        out.append("- controls, reported without a claim (`expect = \"any\"`): " + ", ".join(controls))
    out.append("")
    for cell in result["cells"]:
        box = machine_lines(cell)
        out += [f"## {cell_title(cell)}", "", *[f"- {m}" for m in box], *([""] if box else []), md_table(HEAD, verdict_rows(cell)), ""]
        if cell.get("delta") not in (None, result["delta"]):
            out.append(f"- δ for this profile: {100 * cell['delta']:.1f} % (its A/A noise floor)")
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
    if result.get("reproduction"):
        out += [f"- {reproduction_sentence(reproduction_of(result))}"]
    out += ["", "## Runs", "", md_table(("run", "observation"), ((r["testid"], run_line(r)) for c in result["cells"] for r in c["runs"])),
            "", "## Reproduce", "", f"```\n{result['command']}\n```", "", machine_text(result["machine"]), ""]
    return "\n".join(out)


# ---------------------------------------------------------------------- a ramp's stages, the write-up beside perflab

def extra_sections(result, cell):
    """The cell's sections after its comparisons: a ramp's stages, the write-up beside perflab; each one
    {title, head, rows, notes}, for REPORT.md, the runner's text and report.html alike."""
    return [s for s in (ramp_section(result, cell), writeup_section(result, cell), leakage_section(result, cell)) if s]


def leakage_section(result, cell):
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


def section_text(section):
    """A section as the runner prints it: its title, its rows (cells joined by " | ") and its notes."""
    return [f"-- {section['title']}", " | ".join(section["head"]), *(" | ".join(str(x) for x in r) for r in section["rows"]),
            *section["notes"]]


def ramp_section(result, cell):
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
            rows.append((v["label"], f"{s['rate']:g}", f"{s['requests']:,.0f}", fmt(s["avg"]), fmt(s["p95"]), fmt(s["max"]),
                         fmt(s["error_rate"], "error_rate"), f"{s['held']} of {s['runs']}"))
        if runs:
            held = sum(1 for r in runs if r.get("held_peak"))
            rates = ", ".join(f"{r['breaking_rate']:g}" if not r.get("held_peak") else f"none up to {r['breaking_rate']:g}"
                              for r in runs)
            first = sum(1 for r in runs if not r["stages"][0]["held"])
            notes.append(f"{v['label']}: breaking rate per round {rates}/s"
                         + (f"; {held} of {len(runs)} round(s) held the peak: raise the ramp" if held else "")
                         + (f"; {first} of {len(runs)} round(s) broke at the first stage: start the ramp lower" if first else ""))
    step = e["load"].get("step", "20s")
    return {"title": f"The ramp: each stage {step} after a {ramp.rise_seconds(e['load']):g} s climb, SLO p95 < {p95_ms:g} ms and errors < "
                     f"{fmt(max_errors, 'error_rate')} (medians over the rounds)",
            "head": ("variant", "stage (/s)", "requests", "mean (ms)", "p95 (ms)", "max (ms)", "errors", "held (rounds)"),
            "rows": rows, "notes": notes}


def figure_text(value, key, unit, written=False):
    """A figure in its unit: the write-up's as written ('1,966 ms', '13.98 ms'), perflab's to a few digits
    ('17.5 ms'); an error rate as a percentage."""
    if key == "error_rate":
        return fmt(value, "error_rate")
    if nan(value):
        return "–"
    text = f"{value:,}" if written else fmt(value)
    return f"{text}{' ' + unit if unit else ''}"


def times_text(x):
    return "–" if nan(x) else f"{ratio_text(x)}×"


def writeup_section(result, cell):
    """The write-up's figures beside perflab's (ab/writeup.py), each stage's ratio to the first on both sides, and
    one line per metric: does the direction agree."""
    t = writeup.table(result["experiment"], cell["runs"], cell.get("delta") or result.get("delta") or 0.03)
    if not t:
        return None
    rows = [(r["stage"], r["variant"], short(r["metric"]), figure_text(r["writeup"], r["metric"], r["unit"], written=True),
             figure_text(r["perflab"], r["metric"], r["unit"]), times_text(r["writeup_ratio"]), times_text(r["perflab_ratio"]))
            for r in t["rows"]]
    agree = [short(d["metric"]) for d in t["directions"] if d["agrees"]]
    notes = [f"direction agrees at every stage: {', '.join(agree)}"] if agree else []
    notes += [f"{short(d['metric'])}: direction disagrees ("
              + "; ".join(f"{s['stage']}: write-up {s['writeup']}, perflab {s['perflab']}" for s in d["stages"]) + ")"
              for d in t["directions"] if not d["agrees"]]
    notes += [f"sources: " + "; ".join(dict.fromkeys(r["source"] for r in t["rows"]))]
    return {"title": "The write-up beside perflab", "head": ("stage", "variant", "metric", "write-up", "perflab (median)",
            f"write-up / {t['baseline_stage']}", f"perflab / {t['baseline_stage']}"), "rows": rows, "notes": notes}


def reproduction_of(result):
    """The result's reproduction, judged on its claimed cells with its controls named (a result stored before
    controls were named is judged so by model.migrate, schema version 2 → 3)."""
    return result.get("reproduction")


def reproduction_sentence(r):
    """Whether this run repeats the primary verdicts of the run published before it; controls are named as such."""
    cells = "; ".join(f"{c['profile']}{'' if c.get('value') in (None, 'None') else ' ' + str(c['value'])} "
                      f"{c['candidate']}{' (a control)' if c.get('control') else ''}: {c['verdict']} "
                      f"(before: {c['previous'] or 'not measured'})" for c in r["cells"])
    head = "same primary verdict as" if r["same"] else "primary verdict DIFFERS from"
    return f"{head} the previously published run ({r['previous_started']}, commit {r['previous_commit']}){controls_clause(r)}: {cells}"


def controls_clause(r):
    """The controls' part of a reproduction: they are compared like the claims, but do not decide `same`."""
    if r.get("controls_same") is None:
        return ""
    return " in its claimed cells; the controls " + ("repeat theirs too" if r["controls_same"] else "do not all repeat theirs")


def load_text(load):
    keys = [f"{k} {load[k]}" for k in ("rate", "vus", "requests", "duration", "warmup") if k in load]
    return ", ".join(keys) or "as the script sets"


def machine_text(m):
    lines = [f"- commit {m.get('commit')}, {m.get('cores')} cores, load average before {fmt_load(m.get('load_before'))}, "
             f"after {fmt_load(m.get('load_after'))}"]
    lines += [f"- {k}: {v}" for k, v in m.get("versions", {}).items()]
    return "\n".join(lines)


def fmt_load(values):
    return "–" if not values else " ".join(f"{v:.2f}" for v in values)


# ---------------------------------------------------------------------- views: the tables the docs regenerate

def view(result, name):
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
    e = result["experiment"]
    if name == "verdict":
        rows: list[tuple] = []
        for cell in result["cells"]:
            for c in cell.get("comparisons", []):
                r = c["primary"]
                rows.append((cell_title(cell), f"{c['baseline']} → {c['candidate']}", label(r["metric"]),
                             a_to_b(r), fmt(r["ratio"]),
                             interval_text(r), r["verdict"], why(result, c, also_moved=False)))
        table = md_table(("network", "variants", "primary", "A → B", "B/A", "95% interval", "verdict", "why"), rows)
    elif name == "sweep":
        rows = []
        for cell in result["cells"]:
            for c in cell.get("comparisons", []):
                r = c["primary"]
                rows.append((cell["value"], c["candidate"], fmt(r["median_a"], r["metric"]), fmt(r["median_b"], r["metric"]),
                             fmt(r["ratio"]), interval_text(r), r["verdict"]))
        table = md_table((e["sweep"]["parameter"], "candidate", f"baseline {e['primary']['metric']}", f"candidate {e['primary']['metric']}",
                          "B/A", "95% interval", "verdict"), rows)
    elif name == "capacity":
        rows = []
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
        table = md_table(("network", "variant", "held at (/s, per round)", "broke at (/s)",
                          "served at the held rate (requests/s, every scenario)"), rows)
    elif name == "mechanisms":
        names = {m["name"] for m in e.get("mechanism", [])}
        rows = []
        for cell in result["cells"]:
            for c in cell.get("comparisons", []):
                for r in (r for r in c["rows"] if r["metric"] in names):
                    rows.append((cell_title(cell), label(r["metric"]), a_to_b(r),
                                 fmt(r["ratio"]), interval_text(r), r["verdict"]))
        variants = " → ".join(v["label"] for v in e["variants"])
        table = md_table(("network", "mechanism (median per run)", variants, "B/A", "95% interval", "verdict"), rows)
    elif name == "aa":
        # each calibrated metric's own A/A row at the run's δ (the primary's, or a co-primary's among the rows)
        at_default = {(cell["profile"], r["metric"]): r for cell in result["cells"] for c in cell["comparisons"]
                      for r in [c["primary"], *c.get("rows", [])]}
        rows = []
        for c in (c for c in result.get("calibration", []) if "skipped" not in c):
            observed, default = c["observed"], at_default.get((c["profile"], c["metric"]), {})
            rows.append((c["profile"], c["metric"], f"{100 * c['noise_floor']:.1f} %", f"{c['false_positives']}/{c['analyses']}",
                         f"{100 * c['false_positive_rate']:.1f} % ({100 * c['fpr_interval'][0]:.1f}–{100 * c['fpr_interval'][1]:.1f} %)",
                         f"{fmt(observed['ratio'])} ({interval_text(observed)})",
                         f"{default.get('verdict', '–')} (δ {100 * default.get('delta', 0):.0f} %)",
                         f"{observed['verdict']} (δ {100 * c['delta']:.1f} %)"))
        table = md_table(("network", "metric", "noise floor", "false positives", "rate (95% interval)", "A/A B/A (95% interval)",
                          "A/A verdict at the default δ", "A/A verdict at δ = noise floor"), rows)
    elif name in ("writeup", "ramp"):
        table = section_view(result, writeup_section if name == "writeup" else ramp_section)
    elif name == "case-study":
        table = case_study_markdown(result)
    elif name in ("cold-start", "cold-start-jit", "first-request", "runs"):
        metrics = view_metrics(result, name)
        rows = []
        for cell in result["cells"]:
            for v in e["variants"]:
                runs = [r for r in cell["runs"] if r["variant"] == v["label"]]
                rows.append((v["label"], len(runs), *[fmt(median([r.get(m) for r in runs]), m) for m in metrics]))
        table = md_table(("variant", "runs", *[label(m) + " (median)" for m in metrics]), rows)
    else:
        raise SystemExit(f"unknown view {name!r}")
    r = reproduction_of(result)
    again = "" if not r else (f" · {'reproduces' if r['same'] else 'differs from'} the primary verdict published "
                              f"before{controls_clause(r)}")
    redone = result.get("reanalysed")
    again += f" · statistics: {redone['command']} at {redone['commit']}" if redone else ""
    return table + f"\n\n<sub>{result['command']} · commit {result['machine'].get('commit')} · {result.get('started')}{again}</sub>\n"


def view_metrics(result, name):
    """The columns of a runs view, those some run measured (no idle columns without [load] idle): the shape's metrics
    but avg, p90 and max; the cold-start view without the JIT and GC figures, which cold-start-jit sets beside the
    success rate."""
    runs = [r for cell in result["cells"] for r in cell["runs"]]
    if name == "cold-start-jit":
        wanted = ["success_pct", *(m for m in model.COLD_JIT_GC if m != "gc_pause_ms")]
    else:
        shape = result["experiment"]["load"]["shape"]
        wanted = [m for m in model.METRICS.get(shape, []) if m not in ("avg", "p90", "max", *model.COLD_JIT_GC)]
    return [m for m in wanted if any(not nan(r.get(m)) for r in runs)]


def section_view(result, section_of):
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


def stage_figures(figures, side, first):
    """A stage's figures on one side ("writeup", as written, or "perflab"), each later stage's with its ratio to
    the first stage's, a unit they share said once, at the end: "mean 22.21 (0.045×), p95 103 (0.052×) ms"."""
    units = {r["unit"] for r in figures if r["metric"] != "error_rate"}
    shared = units.pop() if len(units) == 1 else None
    text = ", ".join(f"{short(r['metric'])} {figure_text(r[side], r['metric'], None if shared else r['unit'], written=side == 'writeup')}"
                     + ("" if first or nan(r[f"{side}_ratio"]) else f" ({times_text(r[f'{side}_ratio'])})") for r in figures)
    return text + (f" {shared}" if shared else "")


def case_study_markdown(result):
    """The write-up beside perflab as docs/case-studies.md shows it (ab/writeup.py's table, as the report's
    writeup section reads it): a row per stage, the write-up's section (in the head when every stage has the same),
    its figures and perflab's medians, and under it, per metric, whether perflab moved the write-up's way."""
    tables = [(cell, t) for cell in result["cells"]
              if (t := writeup.table(result["experiment"], cell["runs"], cell.get("delta") or result.get("delta") or 0.03))]
    if not tables:
        return "No write-up figures in this result: its experiment has no `[[writeup]]`, or it was published before it had."
    out = []
    for cell, w in tables:
        stages: dict = {}
        for r in w["rows"]:
            stages.setdefault(r["stage"], []).append(r)
        sections = list(dict.fromkeys(SEED_FILE.sub("", r["source"]) for r in w["rows"]))
        rows = [(stage, *([] if len(sections) == 1 else [SEED_FILE.sub("", figures[0]["source"])]),
                 stage_figures(figures, "writeup", stage == w["baseline_stage"]),
                 stage_figures(figures, "perflab", stage == w["baseline_stage"])) for stage, figures in stages.items()]
        head = ("stage", f"write-up: {sections[0]}") if len(sections) == 1 else ("stage", "section", "write-up")
        if len(tables) > 1:
            out.append(f"**{cell_title(cell)}**")
        out.append(md_table((*head, "perflab (median)"), rows))
        same = [short(d["metric"]) for d in w["directions"] if d["agrees"]]
        differ = [f"{short(d['metric'])} (" + "; ".join(f"{s['stage']}: write-up {s['writeup']}, perflab {s['perflab']}"
                                                       for s in d["stages"] if s["writeup"] != s["perflab"]) + ")"
                  for d in w["directions"] if not d["agrees"]]
        if same or differ:
            out.append(f"Against {w['baseline_stage']}, perflab moves the write-up's way in {', '.join(same) or 'no figure'}"
                       + (f"; not in {', '.join(differ)}" if differ else "") + ".")
    return "\n\n".join(out)


def median(values):
    values = sorted(v for v in values if not nan(v))
    if not values:
        return math.nan
    n = len(values)
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2


def command_rows(result):
    keys = []
    for r in result["rows"]:
        keys += [k for k in r if k not in keys]
    return keys, [[fmt(r.get(k)) if not isinstance(r.get(k), str) else r.get(k) for k in keys] for r in result["rows"]]


def command_table(result):
    keys, rows = command_rows(result)
    return "\n".join("  ".join(str(x) for x in r) for r in [keys] + rows)


def command_markdown_table(result):
    keys, rows = command_rows(result)
    return md_table(keys, rows) + f"\n\n<sub>{result['command']} · {result.get('started')}</sub>\n"


def jmh_markdown_table(result):
    """One row per JMH benchmark (and parameter): score ± error, and `:gc.alloc.rate.norm` (bytes per operation,
    from -prof gc) beside it; the percentiles and the other GC rows stay in result.json."""
    def key(r):
        return r["benchmark"].split(":")[0], r.get("codec")
    allocated = {key(r): r["score"] for r in result["rows"] if r["benchmark"].endswith(":gc.alloc.rate.norm")}
    rows = [(r["benchmark"].split(".", 1)[1], r.get("codec") or "", r["mode"], f"{fmt(r['score'])} ± {fmt(r.get('error'))}",
             r["units"], fmt(allocated.get(key(r)))) for r in result["rows"] if ":" not in r["benchmark"]]
    return (md_table(("benchmark", "parameter", "mode", "score", "units", "bytes allocated per op"), rows)
            + f"\n\n<sub>{result['command']} · {result.get('started')}</sub>\n")


def command_markdown(result):
    return "\n".join([f"# {result['name']}", "", result["experiment"].get("description", ""), "",
                      command_markdown_table(result), "", "```", result["experiment"]["command"], "```", ""])

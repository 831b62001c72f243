"""What the runner says: one line per run, the verdict table (text, Markdown), the tables README.md and docs/
regenerate from published results (views), and report.html (inline SVG drawn by ab/charts.py: the verdict,
per-round points with the interval, latency over time A and B overlaid, the sweep's crossover; the JFR differences
and the differential flame graph)."""
import html as h
import math
import pathlib
import re

NAMES = {"avg": "avg (ms)", "p50": "p50 (ms)", "p90": "p90 (ms)", "p95": "p95 (ms)", "p99": "p99 (ms)", "max": "max (ms)",
         "tps": "throughput (/s)", "error_rate": "errors", "capacity": "capacity (/s)",
         "served": "served at capacity (/s)", "first_ms": "first request (ms)",
         "second_ms": "second request (ms)", "first_over_second": "first / second", "ready_ms": "ready (ms)",
         "success_pct": "success (%)", "first100_p99": "first 100 p99 (ms)", "first1000_p99": "first 1k p99 (ms)",
         "steady_p99": "steady p99 (ms)", "first100_p99_over_steady": "first 100 p99 / steady"}
SECONDS = re.compile(r"(?: \(s\)$|\bseconds\b)")  # a metric measured in seconds: "... (s)", "decode seconds per request"


def nan(v):
    return v is None or (isinstance(v, float) and (math.isnan(v) or math.isinf(v)))


def sig(v, digits=3):
    """v to `digits` significant digits, trailing zeros dropped as %g drops them, but never in exponent notation
    (0.000075, not 7.5e-05)."""
    if v == 0 or math.isnan(v) or math.isinf(v):
        return f"{v:g}"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(v))))
    text = f"{v:.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def number(v):
    """A plain number: thousands with separators, tens with one decimal, the rest to 3 significant digits."""
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    if abs(v) >= 10:
        return f"{v:.1f}"
    return sig(v)


def is_seconds(metric):
    return bool(metric) and bool(SECONDS.search(metric))


def duration(seconds):
    """A duration in seconds as a person reads it: '1.23 s' from a second up, else '42.5 ms', '0.075 ms'."""
    return f"{number(seconds)} s" if abs(seconds) >= 1 else f"{number(1000 * seconds)} ms"


def fmt(v, metric=""):
    if nan(v):
        return "–"
    if isinstance(v, str):
        return v
    if metric == "error_rate":
        return f"{100 * v:.2f}%"
    if is_seconds(metric):
        return duration(v)
    return number(v)


def label(metric):
    """A metric's name in a report: the runner's names (p95 (ms)), and a metric in seconds without its "(s)",
    since its values carry their unit (42.5 ms)."""
    return NAMES.get(metric) or re.sub(r" \(s\)$", "", metric)


def short(metric):
    """A metric's name without its unit: "p95", "throughput", "first request"."""
    return re.sub(r" \((?:ms|s|/s|%)\)$", "", label(metric))


def ratio_text(x):
    """A B/A ratio in a sentence or on a chart: two decimals (0.37, 1.04), two significant digits below 0.1."""
    if x is None or math.isnan(x):
        return "–"
    if math.isinf(x):
        return "∞"
    if abs(x) >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}" if abs(x) >= 0.1 else sig(x, 2)


def delta_text(delta):
    """δ as a percentage: 25 %, 8.1 %, 3 %."""
    return f"{sig(100 * delta, 2)} %"


def pct(ratio):
    return "–" if nan(ratio) else f"{100 * (ratio - 1):+.1f}%"


def run_line(run):
    keys = [k for k in ("p50", "p95", "tps", "error_rate", "capacity", "served", "first_ms", "second_ms", "ready_ms", "success_pct") if k in run]
    parts = [f"{label(k)} {fmt(run[k], k)}" for k in keys]
    parts += [f"{label(k)} {fmt(v, k)}" for k, v in run.get("mechanism", {}).items()]
    if run.get("steady") and not run["steady"].get("steady", True):
        parts.append("NOT STEADY: " + run["steady"].get("reason", ""))
    parts += [f"invariant '{i['name']}' {'ok' if i['ok'] else 'BROKEN'}" for i in run.get("invariants", [])]
    return f"{run['variant']} round {run['round']}: " + ", ".join(parts)


def because(e, rows, primary_row):
    """'p95 −62 % (better), because statements per transfer 12 → 5 and Hikari pending 123 → 0'. A verdict is
    explained by the declared mechanisms that moved the same way (better with better, worse with worse); when none
    did, it says "mechanism not shown". Other mechanisms that moved that way are named as "also"."""
    declared = e["primary"].get("mechanisms", [m["name"] for m in e.get("mechanism", []) if m.get("explains", True)])
    verdict = primary_row["verdict"]
    text = lambda r: f"{label(r['metric'])} {a_to_b(r)}"  # noqa: E731
    mechanisms = [m["name"] for m in e.get("mechanism", [])]
    moved = [text(r) for r in rows if r["metric"] in declared and r["verdict"] == verdict]
    also = [text(r) for r in rows if r["metric"] in mechanisms and r["metric"] not in declared and r["verdict"] == verdict]
    head = f"{label(primary_row['metric'])} {pct(primary_row['ratio'])} ({verdict})"
    tail = f"; also {', '.join(also)}" if also else ""
    if verdict in ("better", "worse"):
        if moved:
            return f"{head}, because " + " and ".join(moved) + tail
        if not declared:  # e.g. a capacity search: no run reads a mechanism
            return f"{head}, no mechanism declared{tail}"
        still = [text(r) for r in rows if r["metric"] in declared]
        return (f"{head}, mechanism not shown (declared: {'; '.join(still) or 'none'}): the difference came from "
                f"somewhere else{tail}")
    return head + (f"; mechanisms: {'; '.join(text(r) for r in rows if r['metric'] in declared)}" if declared else "")


def cell_title(cell):
    title = cell["network"]
    if cell.get("parameter"):
        title += f" | {cell['parameter']} = {cell['value']}"
    return title


def a_to_b(row):
    """'12.0 → 5': a compared metric's medians, baseline then candidate."""
    return f"{fmt(row['median_a'], row['metric'])} → {fmt(row['median_b'], row['metric'])}"


def interval_text(row):
    """'0.417–0.422': a compared metric's 95 % interval of B/A ('–' when there is none)."""
    lo, hi = row["interval"]
    return "–" if nan(lo) or nan(hi) else f"{fmt(lo)}–{fmt(hi)}"


def verdict_rows(cell):
    for c in cell.get("comparisons", []):
        for r in c["rows"]:
            p = r.get("p_holm", r["p_value"])
            yield (c["candidate"], label(r["metric"]), fmt(r["median_a"], r["metric"]), fmt(r["median_b"], r["metric"]),
                   f"{fmt(r['ratio'])} ({pct(r['ratio'])})", interval_text(r), fmt(p), r["verdict"])


HEAD = ("candidate", "metric", "baseline", "candidate value", "B/A", "95% BCa interval", "p (MWU, Holm)", "verdict")


def why(result, comparison):
    """The comparison's "because" sentence, written from its rows by this checkout's because() (the sentence stored
    in result.json is the one its run wrote; a regenerated report words and formats it the current way)."""
    return because(result["experiment"], comparison["rows"], comparison["primary"])


def place(cell):
    """A cell in a sentence: its network profile, and the sweep value after an @."""
    return f"{cell['profile']}{at(cell.get('value'))}"


def primary_cells(result):
    """One entry per cell and candidate: the primary metric's B/A, its 95 % interval, δ and the verdict the result
    is judged by (an A/A's at δ = its noise floor, from its calibration), what the file expected and whether it
    came out so. The headline, verdict.svg and rounds.svg read these."""
    import results  # results imports this module
    e = result["experiment"]
    aa = "calibration" in result
    observed = {c["profile"]: c for c in result.get("calibration", []) if "observed" in c}
    judged = {cell_key(x): x for x in result.get("verdict", {}).get("cells", [])}
    out = []
    for cell in result["cells"]:
        for c in cell.get("comparisons", []):
            row, delta = c["primary"], c["primary"].get("delta", cell.get("delta", result.get("delta")))
            if cell["profile"] in observed:
                calibration = observed[cell["profile"]]
                row, delta = dict(calibration["observed"], metric=row["metric"]), calibration["delta"]
            x = judged.get((cell["profile"], str(cell.get("value")), c["candidate"]), {})
            verdict = x.get("verdict", row["verdict"])
            expect = x.get("expect") or ("no difference" if aa else results.expected(e, c["candidate"]))
            out.append({"place": place(cell), "profile": cell["profile"], "value": cell.get("value"),
                        "title": cell_title(cell), "baseline": c["baseline"], "candidate": c["candidate"],
                        "metric": row["metric"], "ratio": row["ratio"], "interval": tuple(row["interval"]),
                        "delta": delta, "verdict": verdict, "expect": expect,
                        "ok": x.get("ok", results.meets(verdict, expect)),
                        "lower_is_better": row.get("lower_is_better", True),
                        "round_ratios": list(row.get("round_ratios") or [])})
    return out


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
    several = len({c["candidate"] for c in cells}) > 1
    clauses = []
    for c in cells:
        lo, hi = c["interval"]
        numbers = f"{short(c['metric'])} B/A {ratio_text(c['ratio'])}, 95 % interval {ratio_text(lo)}–{ratio_text(hi)}"
        if c["verdict"] not in ("better", "worse"):
            numbers += f", δ {delta_text(c['delta'])}"
        who = f"{c['place']}, {c['candidate']}" if several else c["place"]
        clauses.append(f"{who}: {c['verdict']} ({numbers}), {judged_text(c)}")
    return result.get("verdict", {}).get("ok", False), clauses


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
        "declared": "a declared mechanism: the \"because\" sentence reads it",
        "mechanism": "a mechanism the verdict does not cite: reported only",
        "secondary": "a secondary metric: reported, the verdict does not rest on it"}


def warning_lines(result, cell):
    """One line per metric with warnings: which metric, what its role is (so why the warning matters) and the
    warnings themselves, e.g. 'phone cache hit ratio (a secondary metric: ...): only 0 round(s), fewer than 10'."""
    e = result["experiment"]
    declared = e["primary"].get("mechanisms", [m["name"] for m in e.get("mechanism", []) if m.get("explains", True)])
    mechanisms = {m["name"] for m in e.get("mechanism", [])}
    comparisons = cell.get("comparisons", [])
    out = []
    for c in comparisons:
        for r in (r for r in c["rows"] if r.get("warnings")):
            role = ("primary" if r["metric"] == e["primary"]["metric"] else "declared" if r["metric"] in declared
                    else "mechanism" if r["metric"] in mechanisms else "secondary")
            who = f"{c['candidate']}, " if len(comparisons) > 1 else ""
            out.append((list(ROLE).index(role), f"{who}{label(r['metric'])} ({ROLE[role]}): {'; '.join(r['warnings'])}"))
    return [line for _, line in sorted(out, key=lambda x: x[0])]


def text(result):
    if result.get("rows") is not None and not result.get("cells"):
        return command_table(result)
    out = [headline(result)]
    for cell in result["cells"]:
        body = list(verdict_rows(cell))
        widths = [max(len(str(r[i])) for r in [HEAD] + body) for i in range(len(HEAD))]
        line = lambda r: "  ".join(str(v).ljust(w) for v, w in zip(r, widths))  # noqa: E731
        out += [f"== {cell_title(cell)}", line(HEAD), line(["-" * w for w in widths]), *[line(r) for r in body]]
        out += [f"   {why(result, c)}" for c in cell.get("comparisons", [])]
    for c in result.get("calibration", []):
        out.append(aa_sentence(c))
    if result.get("reproduction"):
        out.append(reproduction_sentence(reproduction_of(result)))
    v = result["verdict"]
    if is_smoke(result):
        out.append(f"verdict: {SMOKE_VERDICT}")
        return "\n".join(out)
    out.append(f"verdict: {'as expected' if v['ok'] else 'NOT as expected'} — " +
               "; ".join(f"{x['profile']}{at(x['value'])}: {x['candidate']} {x['verdict']}"
                         + (" (a control, no claim)" if x.get("expect") == "any" else "") for x in v["cells"])
               + (" (each A/A at δ = its noise floor)" if result.get("calibration") else ""))
    return "\n".join(out)


def at(value):
    return "" if value is None else f" @ {value}"


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
           f"- load: `{e['load'].get('script', '')}`, {e['load']['shape']} model, {load_text(e['load'])}; "
           f"{e['rounds']} round(s) per variant in balanced blocks (cap {e['max_rounds']})",
           f"- practical margin δ = {100 * result['delta']:.1f} % ({result['delta_source']}); unit of observation: one run"]
    controls = sorted({x["candidate"] for x in result["verdict"]["cells"] if x.get("expect") == "any"})
    if controls:
        out.append("- controls, reported without a claim (`expect = \"any\"`): " + ", ".join(controls))
    out.append("")
    for cell in result["cells"]:
        out += [f"## {cell_title(cell)}", "", md_table(HEAD, verdict_rows(cell)), ""]
        if cell.get("delta") not in (None, result["delta"]):
            out.append(f"- δ for this profile: {100 * cell['delta']:.1f} % (its A/A noise floor)")
        out += [f"- {why(result, c)}" for c in cell.get("comparisons", [])]
        if cell.get("lifetimes"):
            out.append(f"- {lifetimes_sentence(cell['lifetimes'])}")
        unsteady = [r["testid"] for r in cell["runs"] if r.get("steady") and not r["steady"].get("steady", True)]
        if unsteady:
            out.append(f"- runs that never reached a steady state: {', '.join(unsteady)}")
        out += [f"- warning: {w}" for w in warning_lines(result, cell)]
        out.append("")
    for c in result.get("calibration", []):
        out += [f"- {aa_sentence(c)}"]
    if result.get("reproduction"):
        out += [f"- {reproduction_sentence(reproduction_of(result))}"]
    out += ["", "## Runs", "", md_table(("run", "observation"), ((r["testid"], run_line(r)) for c in result["cells"] for r in c["runs"])),
            "", "## Reproduce", "", f"```\n{result['command']}\n```", "", machine_text(result["machine"]), ""]
    return "\n".join(out)


def cell_key(c):
    """One verdict cell's identity across runs: its network profile, sweep value and candidate."""
    return c["profile"], str(c.get("value")), c["candidate"]


def judge_reproduction(r, verdict_cells):
    """Names the controls among r's cells (a verdict cell with `expect = "any"`) and judges the reproduction:
    `same`, every claimed cell repeats its verdict; `controls_same`, every control does (None without controls)."""
    controls = {cell_key(c) for c in verdict_cells if c.get("expect") == "any"}
    cells = [dict(c, control=cell_key(c) in controls) for c in r["cells"]]
    claimed = [c for c in cells if not c["control"]]
    controlled = [c for c in cells if c["control"]]
    return dict(r, cells=cells, same=bool(claimed) and all(c["verdict"] == c["previous"] for c in claimed),
                controls_same=all(c["verdict"] == c["previous"] for c in controlled) if controlled else None)


def reproduction_of(result):
    """The result's reproduction judged by the current rule, from its own verdict cells (so a regenerated table
    judges a result stored before controls were named the same way as a new one)."""
    r = result.get("reproduction")
    return r and judge_reproduction(r, result.get("verdict", {}).get("cells", []))


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
    mechanisms (every declared mechanism, A → B), cold-start, first-request, rows (command experiments), jmh (a JMH
    run: one row per benchmark and parameter, its score and the bytes it allocates per operation)."""
    if name == "rows":
        return command_markdown_table(result)
    if name == "jmh":
        return jmh_markdown_table(result)
    e = result["experiment"]
    if name == "verdict":
        rows = []
        for cell in result["cells"]:
            for c in cell.get("comparisons", []):
                r = c["primary"]
                rows.append((cell_title(cell), f"{c['baseline']} → {c['candidate']}", label(r["metric"]),
                             a_to_b(r), fmt(r["ratio"]),
                             interval_text(r), r["verdict"], why(result, c)))
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
        at_default = {cell["profile"]: c["primary"] for cell in result["cells"] for c in cell["comparisons"]}
        rows = []
        for c in (c for c in result.get("calibration", []) if "skipped" not in c):
            observed, default = c["observed"], at_default.get(c["profile"], {})
            rows.append((c["profile"], c["metric"], f"{100 * c['noise_floor']:.1f} %", f"{c['false_positives']}/{c['analyses']}",
                         f"{100 * c['false_positive_rate']:.1f} % ({100 * c['fpr_interval'][0]:.1f}–{100 * c['fpr_interval'][1]:.1f} %)",
                         f"{fmt(observed['ratio'])} ({interval_text(observed)})",
                         f"{default.get('verdict', '–')} (δ {100 * default.get('delta', 0):.0f} %)",
                         f"{observed['verdict']} (δ {100 * c['delta']:.1f} %)"))
        table = md_table(("network", "metric", "noise floor", "false positives", "rate (95% interval)", "A/A B/A (95% interval)",
                          "A/A verdict at the default δ", "A/A verdict at δ = noise floor"), rows)
    elif name in ("cold-start", "first-request", "runs"):
        metrics = [m for m in __import__("shapes").METRICS.get(e["load"]["shape"], []) if m not in ("avg", "p90", "max")]
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
    return table + f"\n\n<sub>{result['command']} · commit {result['machine'].get('commit')} · {result.get('started')}{again}</sub>\n"


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


# ---------------------------------------------------------------------- report.html

def profile_section(cell, out_dir):
    """The JFR differences of the cell (baseline against the first candidate) and the differential flame graph."""
    try:
        import jfr
        import flame
    except ImportError:
        return '<p id="flame-diff">profile analysis unavailable (ab/jfr.py, ab/flame.py)</p>'
    comparisons = cell.get("comparisons") or []
    if not comparisons:
        return ""
    pick = lambda label: next((r["jfr"] for r in reversed(cell["runs"]) if r["variant"] == label and r.get("jfr")), None)  # noqa: E731
    a_path, b_path = pick(comparisons[0]["baseline"]), pick(comparisons[0]["candidate"])
    if not (a_path and b_path):
        return '<p id="flame-diff">no JFR recording in this cell (--no-jfr, or a shape without a measured window)</p>'
    requests = lambda label: next((r.get("requests") for r in reversed(cell["runs"]) if r["variant"] == label), None)  # noqa: E731
    out = []
    try:
        a = jfr.summary(a_path, requests=requests(comparisons[0]["baseline"]))
        b = jfr.summary(b_path, requests=requests(comparisons[0]["candidate"]))
        out.append(jfr_tables(jfr.diff(a, b), comparisons[0]))
    except Exception as error:  # the report still renders; the reason is shown
        out.append(f"<p>JFR summary failed: {h.escape(str(error))}</p>")
    try:
        target = pathlib.Path(out_dir) / f"flame-diff-{cell['tag']}.html"
        flame.diff_flamegraph(a_path, b_path, str(target))
        out.append(f'<iframe id="flame-diff" src="{target.name}" width="100%" height="520" style="border:1px solid #ccc"></iframe>'
                   f'<p><a href="{target.name}">differential flame graph</a>: red = more CPU samples in {h.escape(comparisons[0]["candidate"])}, blue = fewer</p>')
    except Exception as error:
        out.append(f'<p id="flame-diff">flame graph failed: {h.escape(str(error))}</p>')
    return "".join(out)


JFR_SECTIONS = {"cpu_layers": "CPU by library (the JDK's own work charged to the library that called it)",
                "cpu_self": "top methods by CPU samples (self)", "cpu_total": "methods by CPU samples (on the stack)",
                "allocation": "allocation by class", "monitor_enter": "lock contention (synchronized)",
                "thread_park": "threads parked (locks, pools)", "gc": "GC pauses", "jit": "JIT activity", "totals": "totals"}


def jfr_tables(diff, comparison):
    """A and B side by side for each section of the JFR summary (ab/jfr.py), largest change first."""
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


def html(result, out_dir="."):
    import charts  # charts draws with this module's words and numbers
    e = result["experiment"]
    labels = [v["label"] for v in e["variants"]]
    sections = []
    for cell in result["cells"]:
        rows = "".join("<tr>" + "".join(f"<td>{h.escape(str(x))}</td>" for x in r) + "</tr>" for r in verdict_rows(cell))
        head = "".join(f"<th>{h.escape(x)}</th>" for x in HEAD)
        why_ = "".join(f"<p><b>{h.escape(why(result, c))}</b></p>" for c in cell.get("comparisons", []))
        sections.append(f"<h2>{h.escape(cell_title(cell))}</h2>{why_}<table id=\"verdict-table\"><tr>{head}</tr>{rows}</table>"
                        f"<h3>B/A per round, with the 95 % interval</h3>{charts.rounds_panel(cell)}"
                        f"<h3>p95 latency over time, every run ({' / '.join(h.escape(x) for x in labels)})</h3>"
                        f"{charts.latency_chart(cell, labels)}"
                        f"<h3>Why: JFR of the measured window</h3>{profile_section(cell, out_dir)}")
    aa = "".join(f"<p>{h.escape(aa_sentence(c))}</p>" for c in result.get("calibration", []))
    dashboards = "".join(f'<li><a href="{pathlib.Path(r["dashboard"]).name}">{h.escape(r["testid"])}</a></li>'
                         for c in result["cells"] for r in c["runs"] if r.get("dashboard"))
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>{h.escape(result['name'])}</title>
<style>body{{font-family:sans-serif;max-width:1000px;margin:2em auto}}table{{border-collapse:collapse;margin:.5em 0}}
td,th{{border:1px solid #ccc;padding:2px 6px;font-size:12px}}</style></head><body>
<h1>{h.escape(result['name'])}: {'as expected' if result['verdict']['ok'] else 'not as expected'}</h1>
<p id="headline"><b>{h.escape(headline(result))}</b></p>
<p>{h.escape(e.get('description', ''))}</p>
<p>δ = {100 * result['delta']:.1f} % ({h.escape(result['delta_source'])}); {e['rounds']} rounds per variant (cap {e['max_rounds']}); one run = one observation.</p>
{aa}{charts.verdict(result) or ''}{charts.sweep(result, element_id="sweep-chart") or ''}{''.join(sections)}
<h2>k6 dashboards</h2><ul>{dashboards or '<li>none (smoke)</li>'}</ul>
<h2>Reproduce</h2><pre>{h.escape(result['command'])}</pre><pre>{h.escape(machine_text(result['machine']))}</pre>
</body></html>"""

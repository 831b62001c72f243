"""Results: the layout (results/<timestamp>-<experiment>/), the published copies the docs cite
(docs/results/<name>/), the tables regenerated from them into README.md and docs/, smoke checks, the overall
verdict, and experiments of kind "command" (JMH and other benchmarks launched by the same command)."""
import datetime
import json
import math
import os
import pathlib
import re
import shutil
import subprocess

import charts
import doclint
import report

ROOT = pathlib.Path(__file__).resolve().parent.parent
PUBLISHED = ROOT / "docs" / "results"
# the pages whose tables are regenerated and checked: README.md, docs/*.md and docs/walkthroughs/*.md (docs/results
# holds the results themselves)
DOCS = doclint.pages(ROOT)
BLOCK = re.compile(r"(<!-- results:(?P<name>[\w.-]+)(?: view=(?P<view>[\w-]+))? -->\n)(?P<body>.*?)(<!-- /results -->)", re.S)
KEEP = {"result.json", "REPORT.md", "report.html"}


def write(result, out_dir):
    (out_dir / "result.json").write_text(json.dumps(result, indent=1, default=str))
    (out_dir / "REPORT.md").write_text(report.markdown(result))
    (out_dir / "report.html").write_text(report.html(result, out_dir))


def publish(out_dir, name):
    """Copies the result, its reports and flame graphs to docs/results/<name>/ and draws its charts there
    (ab/charts.py), in place of what was published under that name before. When that had a screenshot of its
    report (report.png, which the docs may show), the new report.html is photographed again (ab/screenshot.py)."""
    target = PUBLISHED / name
    photographed = (target / "report.png").exists()
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    for path in pathlib.Path(out_dir).iterdir():
        if path.name in KEEP or path.name.startswith("flame-"):
            shutil.copy2(path, target / path.name)
    charts.write(json.loads((target / "result.json").read_text()), target)
    if photographed and (target / "report.html").exists():
        try:
            import screenshot
            screenshot.screenshot(target / "report.html", target / "report.png")
        except Exception as error:  # Chromium missing or failing: the result is published, the picture is not
            print(f"report.png not renewed ({error}): python3 ab/screenshot.py {target / 'report.html'} "
                  f"--png {target / 'report.png'}", flush=True)
    return target


def is_command(result):
    """A result of kind "command" (JMH, a benchmark's rows) rather than an A/B."""
    return result.get("rows") is not None and not result.get("cells")


def report_markdown(result):
    return report.command_markdown(result) if is_command(result) else report.markdown(result)


def published_folders():
    """The published experiment results (docs/results/<name>/ with a result.json of the runner); the newcomer
    check's result (docs/results/newcomer/, ab/newcomer.py) is published there too but is not an experiment."""
    return [p.parent for p in sorted(PUBLISHED.glob("*/result.json")) if "experiment" in json.loads(p.read_text())]


def regenerate_published(folders=None):
    """Rewrites every published result's REPORT.md and charts from its result.json (both are pure functions of
    it); report.html stays as its run wrote it, since its JFR sections read the run's recordings, which are not
    published. Returns the paths that changed."""
    changed = []
    for folder in folders or published_folders():
        result = json.loads((folder / "result.json").read_text())
        path = folder / "REPORT.md"
        text = report_markdown(result)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            changed.append(path)
        changed += charts.write(result, folder)
    return [p.relative_to(ROOT) if p.is_relative_to(ROOT) else p for p in changed]


def reproduction(name, verdict):
    """How this result's primary verdicts compare with the ones already published under `name` (the previous run
    of the same experiment): issue 12's "two consecutive runs give the same primary verdict", checked each time a
    result is published. `same` is judged on the claimed cells; a control's (`expect = "any"`) verdict is compared
    too and reported in `controls_same`, but it is no claim, so it does not decide `same`. None when nothing was
    published before."""
    path = PUBLISHED / name / "result.json"
    if not path.exists():
        return None
    before = json.loads(path.read_text())
    previous = {report.cell_key(c): c["verdict"] for c in before.get("verdict", {}).get("cells", [])}
    cells = [{"profile": c["profile"], "value": c.get("value"), "candidate": c["candidate"], "verdict": c["verdict"],
              "previous": previous.get(report.cell_key(c))} for c in verdict["cells"]]
    return report.judge_reproduction({"previous_started": before.get("started"),
                                      "previous_commit": before.get("machine", {}).get("commit"), "cells": cells},
                                     verdict["cells"])


def load_published(name):
    path = PUBLISHED / name / "result.json"
    if not path.exists():
        raise SystemExit(f"no published result {name!r} ({path.relative_to(ROOT)}): ./perflab ab <experiment> --publish {name}")
    return json.loads(path.read_text())


def render_block(name, view):
    return report.view(load_published(name), view or "verdict").rstrip("\n") + "\n"


def blocks(text):
    return list(BLOCK.finditer(text))


def regenerate_tables(paths=None):
    changed = []
    for path in paths or DOCS:
        text = path.read_text()
        new = BLOCK.sub(lambda m: m.group(1) + render_block(m.group("name"), m.group("view")) + m.group(5), text)
        if new != text:
            path.write_text(new)
            changed.append(path.relative_to(ROOT))
    return changed


NOT_MEASURED = re.compile(r"<!-- not measured: [^>]+-->")


def unbacked_tables(path):
    """Markdown tables outside results blocks that hold a digit in a body row, with no `<!-- not measured: why -->`
    line right above them (tables of ports, defaults or knobs say so; measured numbers come from a results block)."""
    text = BLOCK.sub(lambda m: m.group(1) + "\n" * m.group("body").count("\n") + m.group(5), path.read_text())
    lines = text.splitlines()
    found, i = [], 0
    while i < len(lines):
        if lines[i].lstrip().startswith("|") and i + 1 < len(lines) and re.match(r"\s*\|[\s:|-]+\|\s*$", lines[i + 1]):
            start = i
            i += 2
            body = []
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                body.append(lines[i])
                i += 1
            above = "\n".join(lines[max(0, start - 2):start])
            if any(re.search(r"\d", row) for row in body) and not NOT_MEASURED.search(above):
                found.append(f"{path.relative_to(ROOT)}:{start + 1}: {lines[start][:80]}")
        else:
            i += 1
    return found


def noise_floor(experiment, metric=None, lineage=()):
    """The noise floors of the newest A/A calibration of this experiment, per network profile ({profile: floor}),
    and where they come from: published first, else results/. Without an A/A of its own, the newest A/A of the
    nearest file it extends (`lineage`) whose calibrated metric is this experiment's primary `metric`: the same
    apps measured the same way are no less noisy in a sweep or a variant of the file. ({}, None) when there is
    none."""
    for name in (experiment, *lineage):
        candidates = [PUBLISHED / f"{name}-aa" / "result.json"]
        candidates += sorted((ROOT / "results").glob(f"*-{name}-aa/result.json"), reverse=True)
        for path in candidates:
            if not path.exists():
                continue
            calibration = json.loads(path.read_text()).get("calibration", [])
            floors = {c["profile"]: c["noise_floor"] for c in calibration if c.get("noise_floor") is not None
                      and (name == experiment or metric is None or c.get("metric") == metric)}
            if floors:
                source = str(path.relative_to(ROOT))
                return floors, source if name == experiment else f"{source}, the A/A of {name}, which {experiment} extends"
    return {}, None


def smoke_checks(e, cells):
    """Deterministic checks (mechanism values per variant) and the invariants, over every run."""
    passed, failed = 0, []
    ops = {"==": lambda v, t: abs(v - t) < 1e-9, "<=": lambda v, t: v <= t, ">=": lambda v, t: v >= t,
           "<": lambda v, t: v < t, ">": lambda v, t: v > t}
    labels = {"baseline": e["variants"][0]["label"], "candidate": e["variants"][-1]["label"]}
    for cell in cells:
        for check in e.get("check", []):
            label = labels.get(check.get("side"), check.get("variant"))
            for run in (r for r in cell["runs"] if r["variant"] == label):
                value = run.get(check["mechanism"], run.get("mechanism", {}).get(check["mechanism"]))
                ok = value is not None and not (isinstance(value, float) and math.isnan(value)) and ops[check["op"]](value, check["value"])
                line = f"{cell['tag']} {label}: {check['mechanism']} = {value} (expected {check['op']} {check['value']})"
                print(("  ok    " if ok else "  FAIL  ") + line, flush=True)
                if ok:
                    passed += 1
                else:
                    failed.append(line)
        for run in cell["runs"]:
            for inv in run.get("invariants", []):
                if inv["ok"]:
                    passed += 1
                else:
                    failed.append(f"{run['testid']}: invariant '{inv['name']}' broken ({inv.get('value', '')})")
    return {"passed": passed, "failed": failed}


def expected(e, candidate):
    """What the file expects of one candidate's primary verdict: its variant's own `expect`, else [primary]'s."""
    variant = next((v for v in e["variants"] if v["label"] == candidate), {})
    return variant.get("expect", e["primary"].get("expect", "better"))


def meets(verdict, expect):
    """"any" is a cell the file makes no claim about (a control): reported, never failing the run; "tie" is met by
    "no difference"."""
    return expect == "any" or verdict == expect or (expect in ("tie", "no difference") and verdict == "no difference")


def overall(e, cells, aa, calibration):
    """Whether the primary verdicts came out as the experiment expects. An A/A is judged at δ = the noise floor it
    measured (the δ an A/B on this profile gets), where a calibration has one: at a δ below the floor its verdict
    says only that the floor is above δ."""
    at_floor = {c["profile"]: c["observed"]["verdict"] for c in calibration or [] if "observed" in c}
    per_cell = []
    for cell in cells:
        for c in cell.get("comparisons", []):
            verdict = at_floor.get(cell["profile"], c["primary"]["verdict"]) if aa else c["primary"]["verdict"]
            expect = "no difference" if aa else expected(e, c["candidate"])
            per_cell.append({"profile": cell["profile"], "value": cell["value"], "candidate": c["candidate"],
                             "verdict": verdict, "expect": expect, "ok": meets(verdict, expect)})
    ok = all(p["ok"] for p in per_cell) if per_cell else False
    if aa and calibration:
        ok = ok and all(c["fpr_ok"] for c in calibration if "skipped" not in c)
    return {"ok": ok, "cells": per_cell}


def run_command_experiment(e, args):
    """kind = "command": a benchmark launched by one command (JMH, the JDBC ceiling); `[[metric]]` regexes read its
    output into rows. The result lands in the same layout as every other experiment."""
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out_dir = pathlib.Path(args.out) if args.out else ROOT / "results" / f"{stamp}-{e['name']}"
    out_dir.mkdir(parents=True, exist_ok=True)
    command = (e.get("smoke", {}).get("command") if args.smoke else None) or e["command"]
    env = dict(os.environ, RESULTS_DIR=str(out_dir))
    print(f"experiment {e['name']}: {command} -> {out_dir}", flush=True)
    started = datetime.datetime.now()
    ran = subprocess.run(command, shell=True, cwd=ROOT, env=env, capture_output=True, text=True)
    (out_dir / "output.txt").write_text(ran.stdout + ran.stderr)
    rows = []
    for m in e.get("metric", []):
        for match in re.finditer(m["regex"], ran.stdout + ran.stderr, re.M):
            rows.append({"metric": m["name"], **{k: _number(v) for k, v in match.groupdict().items()}})
    result = {"experiment": e, "name": e["name"], "command": f"./perflab ab {e['name']}" + (" --smoke" if args.smoke else ""),
              "started": started.isoformat(timespec="seconds"), "exit": ran.returncode, "rows": rows, "cells": [],
              "machine": {"cores": os.cpu_count(), "load_after": os.getloadavg()}}
    checks = {"passed": 0, "failed": []}
    if ran.returncode != 0:
        checks["failed"].append(f"command exited {ran.returncode}: {(ran.stdout + ran.stderr).strip()[-500:]}")
    for check in e.get("check", []):
        hits = [r for r in rows if r["metric"] == check["metric"] and all(r.get(k) == v for k, v in check.get("where", {}).items())]
        ok = bool(hits) and all(eval_op(r[check["field"]], check["op"], check["value"]) for r in hits)
        if ok:
            checks["passed"] += 1
        else:
            checks["failed"].append(f"{check['metric']} {check['field']} {check['op']} {check['value']}: {hits or 'no row'}")
    result["checks"] = checks
    (out_dir / "result.json").write_text(json.dumps(result, indent=1, default=str))
    (out_dir / "REPORT.md").write_text(report.command_markdown(result))
    print(report.command_table(result), flush=True)
    if args.publish:
        publish(out_dir, args.publish)
    print(f"{'smoke ' if args.smoke else ''}{e['name']}: {checks['passed']} passed, {len(checks['failed'])} failed", flush=True)
    for line in checks["failed"]:
        print("  FAIL  " + line, flush=True)
    return 1 if checks["failed"] else 0


def eval_op(value, op, target):
    return {"==": value == target, "<=": value <= target, ">=": value >= target, "<": value < target, ">": value > target}[op]


def _number(text):
    try:
        return float(text.replace(",", ""))
    except (AttributeError, ValueError):
        return text

#!/usr/bin/env python3
"""perflab's one experiment runner: ./perflab ab <experiment> [options] | --list | --tables

Runs the variants of experiments/<name>.toml in interleaved balanced blocks (A B B A ...), for each network
profile and each point of the sweep, with the file's load shape; scrapes the mechanism metrics around each run,
records JFR for the measured window, checks the invariants, compares every variant with the baseline (the first)
and writes result.json, REPORT.md and report.html under results/<timestamp>-<experiment>/. docs/experiments.md
describes the file format and the statistics.

The stages live in modules of their own: the plan (tooling/perflab/plan/planner.py: the flags over the file, checked before anything
starts), the lab made ready (tooling/perflab/measure/preparation.py) and the cells measured (tooling/perflab/measure/cells.py); this module calls them in
order, then analyses, stores and renders the result, and runs the modes of its own (--reanalyse, --recalibrate, a
command experiment).

Exit code: 0 when the primary verdict is what the file expects in every cell (and, with --smoke, every check
and invariant holds), 1 otherwise, 2 on a usage error.
"""
import argparse
import datetime
import os
import pathlib
import re
import shlex
import signal
import subprocess
import sys
import time
import types
from typing import Any, NoReturn

from perflab.analyse import comparison
from perflab.plan import experiment as experiments
from perflab.plan import setting
from perflab.lab import seam
from perflab.results import schema
from perflab.analyse import phases
from perflab.render import publishing, report
from perflab.results import store
from perflab.analyse import stats
from perflab.analyse import writeup
from perflab.measure.cells import judge_cell, measure_cells
from perflab.plan.planner import also_deltas_for, commits_mode, delta_for, parse_args, plan
from perflab.measure.preparation import Context, checkout_commit, identity, machine, prepare

from perflab.paths import ROOT


def log(message: str) -> None:
    print(message, flush=True)


def attach_writeups(e: dict[str, Any], cells: list[dict[str, Any]]) -> None:
    """Each cell's write-up beside perflab (tooling/perflab/analyse/writeup.py), into result.json, when the file has `[[writeup]]`."""
    for cell in cells:
        table = writeup.table(e, cell["runs"], cell.get("delta", stats.MIN_DELTA))
        if table:
            cell["writeup"] = table


def main(argv: list[str] | None = None) -> int:
    """./perflab ab: a mode of its own (--list, --tables, --recalibrate, --reanalyse, a command experiment), or an A/B
    in stages, each called once: the plan (the file and the flags, frozen before anything starts), the lab made
    ready, the cells measured, then analysed, stored and rendered."""
    args = parse_args(argv)
    if args.list:
        print("\n".join(experiments.describe_all()))
        return 0
    if args.tables:
        changed = publishing.regenerate_published() + publishing.regenerate_tables()
        log("\n".join(f"updated {p}" for p in changed) or "tables, reports and charts already up to date")
        log("\n".join(f"not published yet (its block says so): {b}" for b in publishing.unpublished_blocks()))
        return 0
    if args.recalibrate:
        return recalibrate(args.recalibrate)
    if args.reanalyse:
        return reanalyse(args.reanalyse)
    if not args.experiment:
        log("usage: ./perflab ab <experiment> [options] | --list | --tables  (./perflab ab --help)")
        return 2
    e = experiments.load(args.experiment)
    if args.baseline or args.candidate:
        commits_mode(e, args)
    if e["kind"] == "command":
        refused = seam.for_run(args.base_url).cannot_run(e, {})
        if refused:
            raise SystemExit(refused)
        return run_command_experiment(e, args)
    pins = plan(e, args)
    if pins is None:  # --plan: the lifetimes and rounds were the answer
        return 0
    pilot = apply_setting(e, args) if not (args.smoke or args.base_url) else None
    ctx, result, name = measure(e, args, pins, command_text(argv if argv is not None else sys.argv[1:], args))
    code = store_and_render(ctx, result, args, name)
    if pilot and args.publish:
        publish_pilot(e, *pilot)
    return code


def command_text(argv: list[str], args: argparse.Namespace) -> str:
    """The command a result records: the run's own words, less a published run's --out (a folder of the machine it
    ran on, which the repository must not point to)."""
    words = list(argv)
    if args.publish:
        for i, word in reversed(list(enumerate(words))):
            if word == "--out":
                del words[i:i + 2]
            elif word.startswith("--out="):
                del words[i]
    return "./perflab ab " + " ".join(shlex.quote(w) for w in words)


def measure(e: dict[str, Any], args: argparse.Namespace, pins: dict[str, frozenset[int]],
            command: str) -> tuple[Context, dict[str, Any], str]:
    """The lab made ready, the cells measured and analysed: (the run's context, its result, its name)."""
    ctx, name, delta_source = prepare(e, args, pins)
    started, info = time.time(), machine(ctx.env)
    cells = measure_cells(ctx, e, args)
    result = analyse(ctx, e, args, cells, name=name, info=info, started=started, delta_source=delta_source,
                     command=command)
    return ctx, result, name


def apply_setting(e: dict[str, Any], args: argparse.Namespace) -> tuple[pathlib.Path, dict[str, Any]] | None:
    """A [setting] rule's input measured on this machine when the published pilot's was not (plan/setting.py):
    the pilot runs first, in full, and the file's rule on its figure sets this run's ramp. A pilot whose runs were
    not steady still sets it, named as such in the log and the report (on a slower machine the first seconds of
    every run verify the senders' fresh tokens under the app's CPU share; no warm-up removes them). Refused when the
    pilot broke its invariants (money created, say: its figure is of a wrong run) or no run measured the figure. The
    pilot's run folder and result when it ran here, else None."""
    pilot_name = setting.pilot_of(e)
    where, why = setting.source(e, args.setting, identity())
    if pilot_name is None or where == "published":
        return None
    log(f"setting: the pilot {pilot_name} runs first, on this machine ({why}); its figure sets the ramp by the "
        f"rule in experiments/{e['name']}.toml [setting] (--setting published keeps the file's {e['load']['ramp']})")
    pilot_args = parse_args([pilot_name, *(["--out", str(pathlib.Path(args.out) / "pilot")] if args.out else []),
                             *(["--no-jfr"] if args.no_jfr else [])])
    pilot = experiments.load(pilot_name)
    pilot_pins = plan(pilot, pilot_args) or {}
    ctx, result, name = measure(pilot, pilot_args, pilot_pins, f"./perflab ab {pilot_name}")
    store_and_render(ctx, result, pilot_args, name)
    if result["checks"]["failed"]:
        raise SystemExit(f"setting: the pilot ({ctx.out_dir}) broke its invariants, so its figure does not set the "
                         f"ramp: {'; '.join(result['checks']['failed'])}. Its REPORT.md says which run; "
                         f"--setting published runs on the file's ramp instead")
    metric = e["setting"]["pilot_metric"]
    seconds, unsteady = setting.figure(result, metric), setting.unsteady(result)
    if seconds is None:
        raise SystemExit(f"setting: the pilot ({ctx.out_dir}) gives the rule no figure to read: no run measured {metric!r}")
    where_text = (f"on this run's machine (published beside it as docs/results/{pilot_name})" if args.publish else
                  f"on this run's machine ({ctx.out_dir})")
    targets = setting.apply(e, seconds, where_text, unsteady)
    log(f"setting: {metric} {seconds:.4g} here -> ramp {targets} (the file's, from the published pilot: "
        f"{e['setting']['applied']['file_ramp']})")
    for reason in unsteady:
        log(f"  warning: the pilot's run was not steady ({reason}); its figure is the window's, transient included")
    return ctx.out_dir, result


def publish_pilot(e: dict[str, Any], out_dir: pathlib.Path, result: dict[str, Any]) -> None:
    """The pilot a published run measured first, published beside it under its own name: the file's ramp must then
    be the rule's on it (tooling/tests/plan/test_experiment.py holds them equal), which the last line says."""
    target = publishing.publish(out_dir, e["setting"]["pilot"], result)
    log(f"its pilot published to {target.relative_to(ROOT)}: set experiments/{e['name']}.toml's [load] ramp to "
        f"{e['load']['ramp']} (the rule's on it) and each scale that follows the peak")


def analyse(ctx: Context, e: dict[str, Any], args: argparse.Namespace, cells: list[dict[str, Any]], name: str,
            info: dict[str, Any], started: float, delta_source: str, command: str) -> dict[str, Any]:
    """The run's result: the cells with their comparisons, the calibration, power or repeats the mode asks for, the
    write-ups, the checks and the verdict, and where the time went."""
    analysis_began = time.monotonic()
    info["load_after"] = os.getloadavg()
    result: dict[str, Any] = {"experiment": e, "name": name, "args": {k: v for k, v in vars(args).items()},
              "command": command,
              "machine": info, "started": datetime.datetime.fromtimestamp(started).isoformat(timespec="seconds"),
              "took_seconds": round(time.time() - started, 1), "delta": ctx.delta, "delta_source": delta_source, "cells": cells}
    if args.aa:
        result["calibration"] = comparison.calibrate(e, cells)
    if args.plant:
        result["power"] = comparison.power(e, cells)
        for p in result["power"]:
            log(report.power_sentence(p))
    if args.repeat:
        result["repeats"] = comparison.repeats(e, cells)
    attach_writeups(e, cells)
    result["checks"] = comparison.smoke_checks(e, cells, say=log)
    result["verdict"] = comparison.overall(e, cells, args.aa, result.get("calibration"))
    if args.publish:
        result["reproduction"] = store.reproduction(args.publish, result["verdict"])
    ctx.timings.add("analysis", time.monotonic() - analysis_began)
    result["timings"] = ctx.timings.record()
    return result


def store_and_render(ctx: Context, result: dict[str, Any], args: argparse.Namespace, name: str) -> int:
    """result.json and the reports written (and published with --publish), the text report and the last lines;
    the exit code: a smoke's checks, an A/B's invariants and verdict."""
    out_dir = ctx.out_dir
    result = store.write(result, out_dir)
    publishing.write_reports(result, out_dir)
    log("")
    log(report.text(result))
    log(f"report: {out_dir / 'REPORT.md'} and {out_dir / 'report.html'}")
    if args.publish:
        target = publishing.publish(out_dir, args.publish, result)
        log(f"published to {target.relative_to(ROOT)}; ./perflab ab --tables refreshes the docs")
    if args.smoke:
        passed, failed = result["checks"]["passed"], result["checks"]["failed"]
        log(f"smoke {name}: {passed} passed, {len(failed)} failed")
        log(phases.line(result["timings"]))
        return 1 if failed else 0
    if result["checks"]["failed"]:
        log("invariants broken: " + "; ".join(result["checks"]["failed"]))
        log(phases.line(result["timings"]))
        return 1
    log(phases.line(result["timings"]))
    return 0 if result["verdict"]["ok"] else 1


def refresh_from_file(e: dict[str, Any]) -> None:
    """What --reanalyse takes from the experiment's file as this checkout has it: the A/A results it names for its
    floors (`[primary] floors`, run after the result was) and the write-up's figures and reasons (`[[writeup]]`,
    facts about the write-up, not about the run). The run's setting, variants and load stay as they ran."""
    if not (experiments.DIR / f"{e['name']}.toml").exists():
        return
    current = experiments.load(e["name"])
    if "writeup" in current:
        e["writeup"] = current["writeup"]
    if current["primary"].get("floors"):
        e["primary"]["floors"] = current["primary"]["floors"]


def refresh_margin(e: dict[str, Any], result: dict[str, Any]) -> tuple[dict[str, float], dict[str, dict[str, float]]]:
    """δ as a run of this checkout would get it from the file's floors: the result's δ and where it comes from (the
    report's header names them, so a reader sees which A/A set it); each profile's, and each profile's `[primary]
    also` metrics' own, returned."""
    args = argparse.Namespace(delta=None)
    result["delta"], result["delta_source"], per_profile = delta_for(e, args)
    ran_on = {key: value for key in identity() if (value := (result.get("machine") or {}).get(key)) is not None}
    if per_profile:  # δ came from the named A/A results
        result["delta_source"] += store.floors_elsewhere_text(store.floors_elsewhere(e, None, ran_on))
    return per_profile, also_deltas_for(e, args)


def reanalyse(name: str) -> int:
    """--reanalyse: a published result's statistics recomputed from its runs by this checkout (the comparisons at δ
    as a run would get it now, from the floors its file names now, an A/A's calibration, the power check, the
    verdict, the write-up beside it), for when the statistics, the floors or the write-up's figures changed after it
    ran; REPORT.md and the charts follow, report.html keeps its run's analysis."""
    result = store.load_published(name)
    if schema.is_command(result):
        raise SystemExit(f"--reanalyse {name}: a command experiment's result (its rows are the benchmark's own "
                         f"figures, with no statistics of perflab's to recompute): rerun it, ./perflab ab {name}")
    e = result["experiment"]
    aa = bool(result.get("calibration"))
    per_profile: dict[str, float] = {}
    also: dict[str, dict[str, float]] = {}
    if not aa:
        refresh_from_file(e)
        per_profile, also = refresh_margin(e, result)
    for cell in result["cells"]:
        delta = per_profile.get(cell["profile"], cell.get("delta", stats.MIN_DELTA))
        judge_cell(e, cell, delta, also.get(cell["profile"]))
    attach_writeups(e, result["cells"])
    if aa:
        result["calibration"] = comparison.calibrate(e, result["cells"])
        for c in result["calibration"]:
            log(report.aa_sentence(c))
    if result.get("power"):
        result["power"] = comparison.power(e, result["cells"])
        for p in result["power"]:
            log(report.power_sentence(p))
    result["verdict"] = comparison.overall(e, result["cells"], aa, result.get("calibration"))
    result["reanalysed"] = {"commit": checkout_commit(), "command": f"./perflab ab --reanalyse {name}"}
    folder = store.PUBLISHED / name
    (folder / "result.json").write_text(store.dump(schema.stamp(result)))
    publishing.regenerate_published([folder])
    log(report.headline(store.read(folder / "result.json")))
    return 0


def recalibrate(name: str) -> int:
    """--recalibrate: the calibration of a published A/A's runs with this checkout's statistics, for when the
    statistics changed after the A/A ran; the published result and the tables stay as they are."""
    result = store.load_published(name)
    if "calibration" not in result:
        raise SystemExit(f"docs/results/{name} is not an A/A result (./perflab ab <experiment> --aa --publish {name})")
    log(f"{result['command']} ({result['started']}, commit {result['machine'].get('commit')}), re-analysed:")
    e = result["experiment"]
    for cell, c in zip(result["cells"], comparison.calibrate(e, result["cells"])):
        log(report.aa_sentence(c))
        ratios = comparison.lifetime_ratios(e, cell["runs"], c["metric"])
        if len(ratios) > 1:
            log("  per instance lifetime, B/A of the medians: " + ", ".join(f"{r:.3g}" for r in ratios))
        if "observed" in c:
            o = c["observed"]
            log(f"  A/A B/A {o['ratio']:.3g} ({o['interval'][0]:.3g}–{o['interval'][1]:.3g}): {o['verdict']} at δ = the floor")
    return 0


def run_command_experiment(e: dict[str, Any], args: argparse.Namespace) -> int:
    """kind = "command": a benchmark launched by one command (JMH, the JDBC ceiling); `[[metric]]` regexes read its
    output into rows, `[[check]]` judges them (comparison.command_checks). The result lands in the same layout as
    every other experiment."""
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out_dir = pathlib.Path(args.out) if args.out else ROOT / "results" / f"{stamp}-{e['name']}"
    out_dir.mkdir(parents=True, exist_ok=True)
    command = (e.get("smoke", {}).get("command") if args.smoke else None) or e["command"]
    env = dict(os.environ, RESULTS_DIR=str(out_dir))
    log(f"experiment {e['name']}: {command} -> {out_dir}")
    started = datetime.datetime.now()
    ran = subprocess.run(command, shell=True, cwd=ROOT, env=env, capture_output=True, text=True)
    reset_failed = reset_after_command(e, env)
    output = ran.stdout + ran.stderr + reset_failed
    exit_code = ran.returncode or (1 if reset_failed else 0)
    (out_dir / "output.txt").write_text(output)
    rows = command_rows(e, output)
    checks = comparison.command_checks(e, rows, exit_code, output)
    result = store.write({"experiment": e, "name": e["name"], "command": f"./perflab ab {e['name']}" + (" --smoke" if args.smoke else ""),
                            "started": started.isoformat(timespec="seconds"), "exit": exit_code, "rows": rows, "cells": [],
                            "machine": {"cores": os.cpu_count(), "load_after": os.getloadavg()}, "checks": checks}, out_dir)
    publishing.write_reports(result, out_dir)
    log(report.command_table(result))
    if args.publish:
        publishing.publish(out_dir, args.publish, result)
    log(f"{'smoke ' if args.smoke else ''}{e['name']}: {checks['passed']} passed, {len(checks['failed'])} failed")
    for line in checks["failed"]:
        log("  FAIL  " + line)
    return 1 if checks["failed"] else 0


def reset_after_command(e: dict[str, Any], env: dict[str, str]) -> str:
    """`[dataset] reset` of a command experiment: the data command run once the benchmark is done (it wrote into the
    data set), as the loaders' own process through the lab; what it said when it failed, for the checks to see."""
    reset = e.get("dataset", {}).get("reset")
    if not reset:
        return ""
    done = seam.for_run(None, log).run_data(reset, {"label": e["name"]}, env)
    return "" if done.returncode == 0 else f"\nreset failed ({reset}): {(done.stdout + done.stderr).strip()[-800:]}\n"


def command_rows(e: dict[str, Any], output: str) -> list[dict[str, Any]]:
    """A command's output read into rows: one per match of each `[[metric]]` regex, its named groups as fields
    (numbers where they read as one, thousands separators allowed)."""
    rows = []
    for m in e.get("metric", []):
        for match in re.finditer(m["regex"], output, re.M):
            rows.append({"metric": m["name"], **{k: number(v) for k, v in match.groupdict().items()}})
    return rows


def number(text: str | None) -> float | str | None:
    """'1,234.5' -> 1234.5; text that is no number (or None, a group that did not match) stays as it is."""
    if text is None:
        return text
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return text


def stop_on_signals() -> None:
    """`kill <runner>` (TERM), a closed terminal (HUP) and Ctrl-C stop a run the way Ctrl-C does: the apps it
    started are stopped and its proxies cleared on the way out. Python's default for TERM and HUP exits at once,
    skipping every `finally`, and a run started in the background inherits INT ignored."""
    def interrupted(signum: int, frame: types.FrameType | None) -> NoReturn:
        raise KeyboardInterrupt(signal.Signals(signum).name)
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(signum, interrupted)


if __name__ == "__main__":
    stop_on_signals()
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)

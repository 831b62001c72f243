#!/usr/bin/env python3
"""perflab's one experiment runner: ./perflab ab <experiment> [options] | --list | --tables

Runs the variants of experiments/<name>.toml in interleaved balanced blocks (A B B A ...), for each network
profile and each point of the sweep, with the file's load shape; scrapes the mechanism metrics around each run,
records JFR for the measured window, checks the invariants, compares every variant with the baseline (the first)
and writes result.json, REPORT.md and report.html under results/<timestamp>-<experiment>/. docs/experiments.md
describes the file format and the statistics.

Exit code: 0 when the primary verdict is what the file expects in every cell (and, with --smoke, every check
and invariant holds), 1 otherwise, 2 on a usage error.
"""
import argparse
import copy
import datetime
import math
import os
import pathlib
import platform
import re
import shlex
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import comparison  # noqa: E402
import duet  # noqa: E402
import model  # noqa: E402
import experiment as experiments  # noqa: E402
import interleave  # noqa: E402
import lab  # noqa: E402
import lifetimes  # noqa: E402
import machine as machines  # noqa: E402
import measure  # noqa: E402
import network  # noqa: E402
import phases  # noqa: E402
import pinning  # noqa: E402
import refs  # noqa: E402
import report  # noqa: E402
import results  # noqa: E402
import runwindow  # noqa: E402
import shapes  # noqa: E402
import stats  # noqa: E402
import writeup  # noqa: E402
from words import delta_text  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent


def log(message):
    print(message, flush=True)


def stack_env():
    """The stack's settings. ./perflab reads .env (one reader, ab/labenv.py load_env; a variable already set
    wins) and exports them before it starts the runner."""
    if "PERFLAB_DB_PORT" not in os.environ:
        raise SystemExit("perflab: start the runner with ./perflab ab, which exports the stack's settings from .env")
    return {key: value for key, value in os.environ.items() if key.startswith("PERFLAB_")}


class Progress:
    """Which run of how many, the phase, and the time left, estimated from the runs so far."""

    def __init__(self, total):
        self.total = total
        self.done = 0
        self.started = time.time()
        self.first_step = None

    def step(self, text):
        """Before each run: 'run i of N', the time so far, and the time left at the pace of the runs so far."""
        now = time.time()
        self.first_step = self.first_step or now
        self.done += 1
        pace = (now - self.first_step) / (self.done - 1) if self.done > 1 else None
        left = f", about {fmt_seconds(pace * (self.total - self.done + 1))} left" if pace else ""
        log(f"[run {self.done}/{self.total} | {fmt_seconds(now - self.started)} elapsed{left}] {text}")

    def grow(self, extra):
        self.total += extra

    @staticmethod
    def note(text):
        log(f"    {text}")


def fmt_seconds(s):
    s = int(s)
    return f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"


class Context:
    def __init__(self, e, args, env, out_dir, the_lab=None):
        self.e = e
        self.args = args
        self.env = env
        self.out_dir = out_dir
        # the lab seam: every start, data command and limit goes through it (ab/lab.py)
        self.lab = the_lab or lab.for_run(args.base_url, log)
        self.toxiproxy = self.lab.proxies(env)
        self.links = {}  # the current cell's network links (run_cell)
        self.pins = {}  # --pin: {role: cores} (ab/pinning.py)
        # [load] observe = false: no JFR, no k6 dashboard, no k6 metrics to Prometheus; the runs cost the machine only
        # the load and the app, as a capacity step does (an experiment that measures the machine's CPU per request)
        observe = e["load"].get("observe", True)
        self.jfr = shapes.Jfr(enabled=observe and not args.no_jfr and e["load"]["shape"] in ("open", "closed"))
        # a cold start with [load] jfr = true: the app records JIT and GC events from launch (shapes.cold_start_run)
        # [load] jfr = true is the experiment's own measurement (JIT and GC over the first requests, which its checks
        # read), not the profiling that --no-jfr turns off
        self.launch_jfr = e["load"]["shape"] == "cold-start" and bool(e["load"].get("jfr"))
        self.dashboard = observe and not args.smoke
        prometheus = f"http://127.0.0.1:{env['PERFLAB_PROMETHEUS_PORT']}"
        self.prometheus_rw = f"{prometheus}/api/v1/write" if observe and port_open(int(env["PERFLAB_PROMETHEUS_PORT"])) else None
        self.progress = None
        self.delta: float = stats.MIN_DELTA  # the smallest change a verdict calls real (main sets it)
        self.profile_delta: dict = {}  # the same, per network profile (from the last A/A)
        self.timings = phases.Timings()  # where the run's time goes (result.json's timings, the last line)


def port_open(port):
    import socket
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def points(e):
    sweep = e.get("sweep")
    return [(None, None)] if not sweep else [(sweep["parameter"], v) for v in sweep["values"]]


def cell_tag(profile, parameter, value):
    tag = profile
    if parameter is not None:
        tag += f"-{parameter.rsplit('.', 1)[-1]}{value:g}" if isinstance(value, (int, float)) else f"-{value}"
    return tag


DUET = "every variant at once"  # a duet's unit in the run order (ab/duet.py)


def run_cell(ctx, e, profile, parameter, value):
    """All rounds of all variants at one network profile and one sweep point."""
    cell_e = experiments.with_point(e, parameter, value) if parameter else e
    cell_e = {**cell_e, **lifetimes.for_cell(cell_e, profile)}  # --planned: this profile's rounds and lifetimes
    overrides = {parameter.split(".", 1)[1]: value} if parameter and parameter.startswith("network.") else None
    if profile == "remote":
        links, options, net_args = {}, [], []
    else:
        links = network.profile(profile, overrides)
        options, net_args = ctx.toxiproxy.apply(links)
    box = machines.profile(e["machine"])
    cell = new_cell(ctx, e, profile, parameter, value, links, box)
    ctx.e = cell_e
    shape = cell_e["load"]["shape"]
    load = cell_e["load"]
    hosts, labels = cell_hosts(ctx, cell_e, profile)
    apps = ctx.lab.apps(cell_e, hosts, ctx.env, options, net_args)
    by_label = {a.label: (a, v) for a, v in zip(apps, hosts)}
    started = list(by_label)  # the apps' labels: the variants', or the interleaved mode's one app
    where = f"{profile}" + (f", {parameter}={value}" if parameter else "")
    ctx.links = links
    restart_every = int(load.get("restart_every", 0)) if shape in ("open", "closed", "capacity") else 0
    cell["lifetimes"] = []
    try:
        hold_stores(ctx, box)
        if shape in ("open", "closed", "capacity"):
            start_instances(ctx, cell, by_label, started, load, where)
        rounds = cell_e["rounds"]
        units = [DUET] if cell_e.get("duet") else started  # what runs at a time: an app, or in a duet all of them
        order = stats.schedule(units, rounds)
        done = 0
        while True:
            for label in order[done * len(units):]:
                if stats.restart_due(len(cell["runs"]), len(labels), restart_every):
                    for app in apps:
                        app.stop()
                    start_instances(ctx, cell, by_label, started, load, where)
                app, variant = by_label[started[0] if label == DUET else label]
                first = next(iter(variant["arm_labels"].values())) if cell_e.get("interleave") else app.label
                round_no = sum(1 for r in cell["runs"] if r["variant"] == first) + 1
                ctx.progress.step(f"{where}: {label} round {round_no}/{rounds} ({shape})")
                began = time.time()
                pairs = [by_label[x] for x in started] if label == DUET else [(app, variant)]
                with runwindow.Window(runwindow.endpoint(ctx.env), e["name"], runwindow.variants_of(pairs), round_no, profile, say=log):
                    runs = one_round(ctx, cell_e, pairs, round_no, cell)  # Grafana draws the round's window
                record_runs(cell, runs, began)
            done = len(cell["runs"]) // len(labels)
            compare_cell(ctx, cell_e, cell)
            if done >= cell_e["max_rounds"] or not comparison.grows(cell_e, cell["comparisons"]):
                break
            extra = min(2, cell_e["max_rounds"] - done)
            log(f"  primary verdict inconclusive after {done} rounds: adding {extra} (cap {cell_e['max_rounds']})")
            order = stats.schedule(units, done + extra)
            rounds = done + extra
            ctx.progress.grow(extra * len(units))
    finally:
        for app in apps:
            app.stop()
        release_stores(ctx)
    ctx.e = e
    return cell


def planted_cpu(e, plant, profile):
    """--plant as the app takes it: a duration as given ("150us"), or a share ("5%") of the primary metric's median
    (a latency in ms) in the experiment's newest A/A on this profile, as whole microseconds."""
    if not plant or not plant.endswith("%"):
        return plant
    levels, source = results.aa_level(e["name"], e["primary"].get("metric"), e.get("lineage", []))
    if profile not in levels:
        raise SystemExit(f"--plant {plant}: no A/A of {e['name']} on {profile} to take {plant} of "
                         f"(./perflab ab {e['name']} --aa --publish {e['name']}-aa), or give a duration such as 150us")
    micros = round(share(plant, "--plant", "a share such as 5% or a duration such as 150us") * levels[profile] * 1000)
    log(f"  planted: {micros}us of CPU per request of the twin, {plant} of the A/A's {e['primary']['metric']} "
        f"{levels[profile]:.3g} ms ({source})")
    return f"{micros}us"


def attach_writeups(e, cells):
    """Each cell's write-up beside perflab (ab/writeup.py), into result.json, when the file has `[[writeup]]`."""
    for cell in cells:
        table = writeup.table(e, cell["runs"], cell.get("delta", stats.MIN_DELTA))
        if table:
            cell["writeup"] = table


def cell_hosts(ctx, cell_e, profile):
    """(what the cell's apps serve, the labels of the runs a round makes): every variant in its own app, or
    interleaved one app for all of them, and with --leakage one per variant alone (ab/interleave.py)."""
    if cell_e.get("interleave"):
        hosts = interleave.hosts(cell_e, planted_cpu(cell_e, ctx.args.plant, profile), ctx.args.leakage)
        return hosts, [label for h in hosts for label in h["arm_labels"].values()]
    return cell_e["variants"], [v["label"] for v in cell_e["variants"]]


def new_cell(ctx, e, profile, parameter, value, links, box):
    """A cell's record before its rounds: its network, sweep point, tag, planned lifetimes and machine."""
    cell = {"profile": profile, "network": "a remote lab: " + ", ".join(ctx.args.base_url) if profile == "remote" else network.describe(profile, links), "parameter": parameter, "value": value,
            "tag": cell_tag(profile, parameter, value), "runs": []}
    if e.get("planned", {}).get(profile):
        cell["planned"] = e["planned"][profile]
    if not ctx.lab.remote:  # a remote lab's machine is its own
        cell["machine"] = machines.describe(box)
    return cell


def record_runs(cell, runs, began):
    """A round's runs into the cell, each with its instance lifetime and what it cost (lifetimes.costs); a run that
    sent nothing stops the experiment with k6's reason."""
    lifetime = len(cell["lifetimes"]) - 1 if cell["lifetimes"] else None
    seconds = round((time.time() - began) / len(runs), 1)
    for run in runs:
        run = {**run, "lifetime": lifetime, "seconds": seconds}
        cell["runs"].append(run)
        log("    " + report.run_line(run))
        if run.get("aborted"):
            raise SystemExit(f"{run['variant']}: {run['aborted']}")


def compare_cell(ctx, cell_e, cell):
    """The cell's comparisons so far at its profile's noise floor (and with --leakage the leakage check's)."""
    cell["delta"] = ctx.profile_delta.get(cell["profile"], ctx.delta)
    cell["comparisons"] = comparison.compare(cell_e, cell["runs"], cell["delta"])
    if ctx.args.leakage:
        cell["leakage"] = comparison.leakage(cell_e, cell["runs"], cell["delta"])


def one_round(ctx, cell_e, pairs, round_no, cell):
    """One round's runs, in the shape the cell measures: every (app, variant) of a duet at once, or the one pair's
    run (the interleaved mode's runs are one per arm)."""
    load, shape = cell_e["load"], cell_e["load"]["shape"]
    if cell_e.get("duet"):
        return shapes.duet_round(ctx, pairs, round_no, load, cell)
    app, variant = pairs[0]
    if cell_e.get("interleave"):
        return shapes.interleaved_run(ctx, app, variant, round_no, load, cell)
    if shape in ("open", "closed"):
        return [shapes.measured_run(ctx, app, variant, round_no, load, cell)]
    if shape == "capacity":
        return [shapes.capacity_run(ctx, app, variant, round_no, load, cell)]
    if shape == "first-request":
        return [shapes.first_request_run(ctx, app, variant, round_no, cell)]
    return [shapes.cold_start_run(ctx, app, variant, round_no, load, cell)]


def hold_stores(ctx, box):
    """The stores for one cell: MariaDB in the machine profile's CPU share (the lab releases a killed run's first),
    and with --pin MariaDB and Redis on their cores."""
    limited = ctx.lab.hold_database(box["mariadb"]["cpus"], box["name"])  # None: no share, or a remote lab
    if limited is not None:
        log(f"  MariaDB held to {machines.cpus_text(box['mariadb']['cpus'])}" + ("" if limited else " (not running here: no limit)"))
    for role in ("mariadb", "redis"):
        if role in ctx.pins and not pinning.pin(measure.stack_pid(role), ctx.pins[role]):
            log(f"  --pin {role}: {role} is not running here: not pinned")


def release_stores(ctx):
    ctx.lab.release_database()
    for role in ("mariadb", "redis"):
        if role in ctx.pins:
            pinning.unpin(measure.stack_pid(role))


def start_instances(ctx, cell, by_label, labels, load, where):
    """Starts every variant's app for one instance lifetime at once (each in its own CPU share where the machine
    profile sets one), warms them one by one in stats.start_order (reversed every other lifetime), gives each
    `primer` discarded runs of the measured load, resets the data and lets every app and MariaDB settle; records the
    lifetime in the cell."""
    lifetime = len(cell["lifetimes"])
    order = stats.start_order(labels, lifetime)
    began = time.time()
    apps = [by_label[label][0] for label in order]
    log(f"  starting {', '.join(f'{app.label} on :{app.port}' for app in apps)} at once ({where}"
        + (f", instance lifetime {lifetime + 1}" if lifetime else "") + ")")
    with ctx.timings.timing("app_starts"):
        took = ctx.lab.start_together(apps)
    log("  ready: " + ", ".join(f"{label} in {seconds:.1f} s" for label, seconds in took.items()))
    for label in order:
        app, variant = by_label[label]
        if "app" in ctx.pins:
            pinning.pin(app.pid(), ctx.pins["app"])
        with ctx.timings.timing("warmup"):
            shapes.warm_up(ctx, app, variant, load)
    primers = int(load.get("primer", 0))  # true counts as 1
    for label in order:
        app, variant = by_label[label]
        for n in range(primers):
            log(f"  {label}: discarded run {n + 1}/{primers} of the measured load ({where})")
            with ctx.timings.timing("warmup"):
                shapes.primer_run(ctx, app, variant, load, cell, n + 1)
    for label in order:  # the warm-ups' writes go now, so that MariaDB purges them before the first round
        shapes.reset(ctx, by_label[label][1])
    processes = {label: by_label[label][0].pid() for label in order}
    if by_label[order[0]][0].pid():  # a local lab: its MariaDB too
        processes["MariaDB"] = measure.mariadb_pid()
    with ctx.timings.timing("warmup"):
        settled = shapes.settle(processes, load)
    for name, s in settled.items():
        if s["seconds"] >= shapes.QUIET_WINDOW_S * 2 or not s["quiet"]:
            log(f"  {name}: {'quiet' if s['quiet'] else 'still busy'} after {s['seconds']:g} s of settling (JIT queue, GC, purge)")
    cell["lifetimes"].append({"start_order": order, "settled": settled, "seconds": round(time.time() - began, 1)})


COLD_SHAPES = ("cold-start", "first-request")  # what these measure is the start itself: never from the AOT cache


def warm_start(e, args):
    """Whether the apps start from the AOT cache (launcher.App: `app start --warm`, a plain start when the jar has
    none): the file's `warm_start` when it sets one, else for a smoke, which checks mechanisms and never a time, and
    with --warm-start; never for a shape that measures the start. The published runs started cold: an A/B started
    warm is compared with another started warm, never with them."""
    if e["load"].get("shape") in COLD_SHAPES:
        return False
    if "warm_start" in e:
        return bool(e["warm_start"])
    return bool(args.smoke or args.warm_start)


def margin():
    """The default δ, stats.MIN_DELTA, as the runner states it: "3 %"."""
    return delta_text(stats.MIN_DELTA)


def separate_jvm_mode(e):
    """The mode of separate JVMs a run is in, as its A/A's name says it (<name>-<mode>-aa), whose floor its δ takes:
    "duet", "planned", "pinned", or several ("duet-planned"), or None."""
    return "-".join(m for m, on in (("duet", e.get("duet")), ("planned", e.get("planned")), ("pinned", e.get("pinned")))
                    if on) or None


def delta_for(e, args):
    """δ: --delta, else the file's min_effect, else per network profile the larger of stats.MIN_DELTA (3 %) and that
    profile's noise floor from the last A/A calibration. Returns (the default δ, where it comes from, {profile: δ})."""
    if args.delta is not None:
        return args.delta, "--delta", {}
    if "min_effect" in e["primary"]:
        return e["primary"]["min_effect"], f"experiments/{e['name']}.toml", {}
    floors, source = results.noise_floor(e["name"], e["primary"].get("metric"), e.get("lineage", []), separate_jvm_mode(e))
    per_profile = {profile: max(stats.MIN_DELTA, floor) for profile, floor in floors.items()}
    if not floors:
        return stats.MIN_DELTA, f"default ({margin()})", {}
    listed = ", ".join(f"{profile} {100 * per_profile[profile]:.1f} %" for profile in floors)
    return stats.MIN_DELTA, (f"for a profile without an A/A; per profile the larger of {margin()} and its A/A noise floor: "
                             f"{listed}, from {source}"), per_profile


def checkout_commit():
    """The checkout's short commit, "+changes" when tracked files differ from it."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    dirty = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True).stdout.strip())
    return (commit or "unknown") + ("+changes" if dirty else "")


def machine(env):
    def first_line(command):
        try:
            r = subprocess.run(command, capture_output=True, text=True, timeout=20)
            return (r.stdout + r.stderr).strip().splitlines()[0]
        except Exception as error:  # a missing tool is recorded, not fatal
            return f"unavailable: {error}"
    mem = next((line.split()[1] for line in open("/proc/meminfo") if line.startswith("MemTotal")), "?")
    return {"cores": os.cpu_count(), "memory_kb": int(mem) if mem.isdigit() else mem, "os": platform.platform(),
            "commit": checkout_commit(), "python": platform.python_version(),
            "load_before": os.getloadavg(),
            "versions": {"java": first_line([os.path.join(os.environ.get("JAVA_HOME", "/usr"), "bin", "java"), "-version"]),
                         "k6": first_line([shapes.k6io.binary(), "version"]), "mariadb": first_line(["mariadb", "--version"]),
                         "redis": first_line(["redis-server", "--version"])}}


def aa_variants(e):
    """--aa: the candidate against itself, as two instances of the same configuration. In a duet the twin gets a copy
    of the candidate's database (`<database>_twin`, seeded and reset alike), as an A/B's variants have databases of
    their own: two loads at once on one data set would contend for its rows, as no A/B's do."""
    candidate = e["variants"][-1]
    twin = copy.deepcopy(candidate)
    twin["label"] = f"{candidate['label']} (A/A)"
    if e.get("duet") and twin.get("database"):
        own = f"{twin['database']}_twin"
        for key in ("seed", "reset"):
            if twin.get(key):
                twin[key] = re.sub(rf"(?<![\w-]){re.escape(twin['database'])}(?![\w-])", own, twin[key])
        twin["database"] = own
    return [copy.deepcopy(candidate), twin]


def parse_args(argv):
    p = argparse.ArgumentParser(prog="./perflab ab", description="perflab's experiment runner (docs/experiments.md)")
    p.add_argument("experiment", nargs="?", help="experiments/<name>.toml, by name")
    p.add_argument("--list", action="store_true", help="list the experiments, one line each")
    p.add_argument("--tables", action="store_true", help="regenerate from docs/results/*/result.json: each published REPORT.md "
                   "and its charts (*.svg), and the result tables in README.md and docs/")
    p.add_argument("--smoke", action="store_true", help="short, deterministic: the file's [smoke] settings; checks mechanisms and invariants, never a time")
    p.add_argument("--aa", action="store_true", help="A/A calibration: the candidate against itself; states the noise floor and the false-positive rate")
    p.add_argument("--variant", action="append", metavar="LABEL",
                   help="run only these variants (repeat it; at least two, the first kept is the baseline)")
    p.add_argument("--rounds", type=int, help="runs per variant (default: the file's, else 10)")
    p.add_argument("--max-rounds", type=int, help="cap on rounds while the verdict is inconclusive (default: 2 x rounds)")
    p.add_argument("--rate", type=float, help="arrivals per second (open model)")
    p.add_argument("--duration", help="measured duration per run, e.g. 15s")
    p.add_argument("--profile", action="append", help="network profile(s) to run (default: the file's)")
    p.add_argument("--machine", help="machine profile of experiments/machine.toml (default: the file's `machine`, else unlimited)")
    p.add_argument("--sweep", help="sweep values, comma-separated (default: the file's)")
    p.add_argument("--delta", type=float, help=f"practical margin δ as a fraction (default: the file's, else max({margin()}, A/A "
                   "noise floor))".replace("%", "%%"))
    p.add_argument("--warm-start", action="store_true", help="start every app from the JDK 25 AOT cache when there is one "
                   "for this jar (./perflab aot build); --smoke does by default; never a cold-start experiment")
    p.add_argument("--no-jfr", action="store_true", help="do not record JFR profiles of the measured runs (a cold start's [load] jfr recording stays)")
    p.add_argument("--base-url", action="append", help="a remote lab: the URL of each variant's app, in the file's order "
                   "(repeat per variant); the runner loads and scrapes it but does not start it, and skips network profiles")
    p.add_argument("--prometheus", help="the Prometheus k6 remote-writes to (default: the local stack's, when it answers)")
    p.add_argument("--k6-processes", type=int, help="split each run's load over N k6 processes (--execution-segment)")
    p.add_argument("--baseline", metavar="REF", help="compare two commits (with --candidate): each side runs the jar "
                   "built from its ref (once, cached in .perflab/refs/) with the experiment's first variant's settings "
                   "(profile, args, database, seed) and checks, on that variant's database suffixed with the short sha, "
                   "migrated by the commit's own db/migrations; the file's other variants and write-up tables are left "
                   "out; the runner, the file and the k6 scripts stay the working tree's; exit 1 unless the candidate is "
                   "better or no different")
    p.add_argument("--candidate", metavar="REF", help="the commit compared with --baseline's, e.g. HEAD")
    p.add_argument("--plant", metavar="CPU", help="the power check (interleaved experiments): the candidate against its twin, "
                   "whose requests each burn this much extra CPU in the app, e.g. 150us; states how often the verdict "
                   "calls the twin worse over resampled analyses of the file's rounds (run with more --rounds to subsample)")
    p.add_argument("--plan", metavar="FLOOR", help="print how many JVM lifetimes, and rounds in each, bring the noise "
                   "floor to FLOOR (e.g. 5%%), from the newest A/A's variance at each level, and how long that takes")
    p.add_argument("--planned", metavar="FLOOR", help="run with --plan FLOOR's lifetimes and rounds, per profile "
                   "(with --aa: check the planned floor)")
    p.add_argument("--confidence", metavar="LEVEL", help="with --plan/--planned: size the plan for the upper LEVEL "
                   "(e.g. 80%%) confidence bound of the pilot's variance instead of its estimate (default: the estimate)")
    p.add_argument("--repeat", type=int, metavar="N", help="N separate runs of the whole experiment (apps started afresh "
                   "each time), and how many gave each verdict: with --plant, the power check's 8 of 10")
    p.add_argument("--duet", action="store_true", help="duet: every variant's run of a round at once, each against its "
                   "own app (also `duet = true` in the file; docs/experiments.md)")
    p.add_argument("--leakage", action="store_true", help="the leakage check (interleaved experiments): each variant "
                   "interleaved against itself served alone by an app of its own, in the same schedule")
    p.add_argument("--pin", metavar="ROLE=CORES", help="CPU pinning: the app, k6 (load), MariaDB and Redis on cores of "
                   "their own, e.g. app=1,load=0 (default: not pinned; docs/experiments.md)")
    p.add_argument("--out", help="output folder (default results/<timestamp>-<experiment>)")
    p.add_argument("--publish", metavar="NAME", help="also copy the result to docs/results/NAME/ (what README.md and docs/ cite)")
    p.add_argument("--reanalyse", metavar="NAME", help="recompute the published docs/results/NAME/'s statistics from its "
                   "runs with this checkout's (comparisons, A/A calibration, power check, verdict) and rewrite it")
    p.add_argument("--recalibrate", metavar="NAME", help="re-analyse the runs of the published A/A docs/results/NAME/ with "
                   "the current statistics and print its noise floors (changes nothing)")
    return p.parse_args(argv)


def main(argv=None):
    """./perflab ab: a mode of its own (--list, --tables, --recalibrate, --reanalyse, a command experiment), or an A/B
    in stages, each called once: the plan (the file and the flags, frozen before anything starts), the lab made
    ready, the cells measured, then analysed, stored and rendered."""
    args = parse_args(argv)
    if args.list:
        print("\n".join(experiments.describe_all()))
        return 0
    if args.tables:
        changed = results.regenerate_published() + results.regenerate_tables()
        log("\n".join(f"updated {p}" for p in changed) or "tables, reports and charts already up to date")
        log("\n".join(f"not published yet (its block says so): {b}" for b in results.unpublished_blocks()))
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
        return run_command_experiment(e, args)
    pins = plan(e, args)
    if pins is None:  # --plan: the lifetimes and rounds were the answer
        return 0
    ctx, name, delta_source = prepare(e, args, pins)
    started, info = time.time(), machine(ctx.env)
    cells = measure_cells(ctx, e, args)
    result = analyse(ctx, e, args, cells, name=name, info=info, started=started, delta_source=delta_source,
                     command="./perflab ab " + " ".join(shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:])))
    return store_and_render(ctx, result, args, name)


def plan(e, args):
    """The experiment as this run makes it (the flags over the file), checked before anything starts; the --pin
    cores, or None when --plan answered instead of a run."""
    if args.variant:
        experiments.only_variants(e, args.variant)
    e["analysis_rounds"] = e.get("rounds", 10)  # the rounds an A/B of the file has: what the power check resamples
    if args.smoke:
        experiments.apply_smoke(e)
    else:
        e["rounds"] = args.rounds or e.get("rounds", 10)
        e["max_rounds"] = max(e["rounds"], args.max_rounds or e.get("max_rounds", 2 * e["rounds"]))
    if args.rate:
        e["load"]["rate"] = args.rate
    if args.duration:
        e["load"]["duration"] = args.duration
    if args.k6_processes:
        e["load"]["processes"] = args.k6_processes
    if args.profile:
        e["profiles"] = args.profile
    if args.machine:
        e["machine"] = args.machine
    machines.profile(e["machine"])  # an unknown profile stops the run before anything starts
    if args.sweep and e.get("sweep"):
        e["sweep"]["values"] = [float(v) if v.replace(".", "", 1).isdigit() else v for v in args.sweep.split(",")]
    pins = pinning.parse(args.pin)  # before the run's name: a pinned A/A is <name>-pinned-aa
    if pins:
        e["pinned"] = pinning.text(pins)
    if args.duet:
        e["duet"] = True
    if e.get("duet"):
        left_out = duet.prepare(e)
        if left_out:
            log(f"duet: left out, shared by the apps at once: {', '.join(left_out)}")
    if args.plan or args.planned:
        if plan_lifetimes(e, args):
            return None
    if args.repeat is not None and (args.repeat < 2 or args.aa or args.smoke):
        raise SystemExit("--repeat N: at least 2 separate runs, of an A/B or the power check (not --aa or --smoke)")
    if args.aa and args.plant:
        raise SystemExit("--plant runs the power check, an A/A with a known slowdown planted in the twin: leave --aa out")
    if args.aa or args.plant:
        e["variants"] = aa_variants(e)
        mode = separate_jvm_mode(e)
        e["name_suffix"] = "-power" if args.plant else f"-{mode}-aa" if mode else "-aa"
        e["check"] = []
    if args.plant:
        e["primary"]["expect"] = "worse"  # the twin's requests each burn the planted CPU
    if e.get("interleave"):
        interleave.check(e)  # before any data set is loaded: what one app cannot serve
    elif args.plant or args.leakage:
        flag = "--plant" if args.plant else "--leakage"
        raise SystemExit(f"{flag}: {e['name']} is not interleaved (interleave = true); it checks the interleaved mode")
    if args.leakage:
        if args.aa or args.plant:
            raise SystemExit("--leakage runs the variants interleaved and each alone: leave --aa and --plant out")
        e["max_rounds"] = e["rounds"]  # a check of its own: its rounds do not grow with the comparison's verdict
        e["name_suffix"] = "-leakage"
    experiments.assign_redis_dbs(e)
    return pins


def prepare(e, args, pins):
    """The lab made ready for the plan: its services, the output folder, the run's context (the noise floor, the
    progress), every variant's data set and the AOT cache; (context, the run's name, where δ came from)."""
    env = stack_env()
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    name = e["name"] + e.get("name_suffix", "")
    out_dir = pathlib.Path(args.out) if args.out else ROOT / "results" / f"{stamp}-{name}"
    out_dir.mkdir(parents=True, exist_ok=True)
    the_lab = lab.for_run(args.base_url, log)
    if args.base_url:
        if len(args.base_url) != len(e["variants"]):
            raise SystemExit(f"--base-url: give one URL per variant ({len(e['variants'])}: {', '.join(v['label'] for v in e['variants'])})")
        e["profiles"] = ["remote"]
        for v in e["variants"]:
            v.pop("seed", None), v.pop("reset", None)
        e["invariant"] = []
    the_lab.ensure_services(env)
    if any(v.get("ref") for v in e["variants"]):
        if args.base_url:
            raise SystemExit("--base-url: a remote lab runs its own builds; a variant's ref needs a local lab")
        log("jars of the variants' commits:")
        refs.prepare(e, env.get("PERFLAB_DB_NAME", "perflab"))
    ctx = Context(e, args, env, out_dir, the_lab)
    ctx.pins = pins
    if ctx.pins and args.base_url:
        raise SystemExit("--pin: a remote lab's processes are not on this machine")
    if "load" in ctx.pins:
        os.environ[pinning.ENV] = ",".join(map(str, sorted(ctx.pins["load"])))
    if args.prometheus:
        ctx.prometheus_rw = args.prometheus.rstrip("/") + "/api/v1/write"
    if args.aa:
        ctx.delta, delta_source, ctx.profile_delta = (args.delta, "--delta", {}) if args.delta else (stats.MIN_DELTA, f"A/A ({margin()})", {})
    else:
        ctx.delta, delta_source, ctx.profile_delta = delta_for(e, args)
    cells_planned = len(e["profiles"]) * len(points(e))
    rounds_planned = sum(d["rounds"] for d in e["planned"].values()) * len(points(e)) if e.get("planned") else cells_planned * e["rounds"]
    rounds_planned *= args.repeat or 1
    # what a round runs one after the other: every variant's app, one app (interleaved, a duet), or with --leakage
    # the interleaved app and an app per variant alone
    per_round = (1 + len(e["variants"]) if args.leakage else 1) if e.get("interleave") or e.get("duet") else len(e["variants"])
    ctx.progress = Progress(rounds_planned * per_round)
    log(f"{'A/A' if args.aa else 'experiment'} {name}: {' vs '.join(v['label'] for v in e['variants'])}; "
        f"{e['load']['shape']} load, {rounds_text(e)}, profiles {', '.join(e['profiles'])}, "
        f"machine {e['machine']}" + (f", {pinning.text(ctx.pins)}" if ctx.pins else "")
        + (f", sweep {e['sweep']['parameter']} over {e['sweep']['values']}" if e.get("sweep") else "")
        + f"; δ {100 * ctx.delta:.1f} % ({delta_source}) -> {out_dir}")
    ready_data_and_apps(ctx, e, args)
    return ctx, name, delta_source


def ready_data_and_apps(ctx, e, args):
    """Every variant's data set loaded (or cloned, or found in place), each with how long it took, and the AOT cache
    the apps start from: said when they start cold, built first for a variant that must start from it."""
    for variant in e["variants"]:
        if variant.get("seed"):
            log(f"data set for {variant['label']}: {variant['seed']}")
            with ctx.timings.timing("data_sets"):
                began = time.monotonic()
                output = ctx.lab.data_command(variant["seed"], variant, ctx.env, "the data set")
            log(f"  {ready_line(variant, output, time.monotonic() - began)}")
    e["warm_start"] = warm_start(e, args)
    if e["warm_start"]:
        log("apps start warm from the AOT cache" if ctx.lab.aot_cache_fresh() else
            "apps start cold: no AOT cache for this jar (./perflab aot build makes one; smokes then start warm)")
    if any(v.get("aot") for v in e["variants"]):
        if not ctx.lab.aot_cache_fresh():
            log("building the AOT cache first (./perflab aot build)")
            ctx.lab.build_aot_cache()


def measure_cells(ctx, e, args):
    """Every cell (profile × sweep point, and --repeat), measured one after another; the proxies cleared after."""
    cells = []
    rounds_began = time.monotonic()
    try:
        for repeat in range(1, (args.repeat or 1) + 1):  # --repeat: separate runs, each with apps of its own
            for profile in e["profiles"]:
                for parameter, value in points(e):
                    cell = run_cell(ctx, e, profile, parameter, value)
                    if args.repeat:
                        log(f"  run {repeat}/{args.repeat} on {profile}: " + "; ".join(
                            f"{c['candidate']} {c['primary']['verdict']}" for c in cell.get("comparisons", [])))
                        cell = {**cell, "repeat": repeat, "tag": f"{cell['tag']}-x{repeat}"}
                    cells.append(cell)
    finally:
        if not args.base_url:
            ctx.toxiproxy.clear()
    ctx.timings.rounds_took(time.monotonic() - rounds_began)
    return cells


def analyse(ctx, e, args, cells, name, info, started, delta_source, command):
    """The run's result: the cells with their comparisons, the calibration, power or repeats the mode asks for, the
    write-ups, the checks and the verdict, and where the time went."""
    analysis_began = time.monotonic()
    info["load_after"] = os.getloadavg()
    result = {"experiment": e, "name": name, "args": {k: v for k, v in vars(args).items()},
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
        result["reproduction"] = results.reproduction(args.publish, result["verdict"])
    ctx.timings.add("analysis", time.monotonic() - analysis_began)
    result["timings"] = ctx.timings.record()
    return result


def store_and_render(ctx, result, args, name):
    """result.json and the reports written (and published with --publish), the text report and the last lines;
    the exit code: a smoke's checks, an A/B's invariants and verdict."""
    out_dir = ctx.out_dir
    result = results.write(result, out_dir)
    log("")
    log(report.text(result))
    log(f"report: {out_dir / 'REPORT.md'} and {out_dir / 'report.html'}")
    if args.publish:
        target = results.publish(out_dir, args.publish)
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


def ready_line(variant, output, seconds):
    """How long a variant's database took to be ready: the seeder's own line when it cloned the data set
    (ab/seedclone.py), else the command's time, in place or loaded."""
    said = [line.split("] ", 1)[-1] for line in output.splitlines() if " ready in " in line and "database " in line]
    if said:
        return said[-1]
    how = "in place" if "in place" in output else "loaded"
    return f"database {variant.get('database', 'perflab')} ready in {seconds:.1f} s ({how})"


def rounds_text(e):
    """How many rounds the run plans: the file's (or --rounds) with their cap, or per profile --planned's."""
    if e.get("planned"):
        return ", ".join(f"{d['rounds']} rounds per variant in {d['lifetimes']} lifetimes on {p}"
                         for p, d in e["planned"].items()) + " (--planned)"
    return f"{e['rounds']} round(s) per variant (cap {e['max_rounds']})"


def share(text, flag, what):
    """A share as a flag gives it, "5%" or 0.05, strictly between 0 and 1; SystemExit naming the flag otherwise."""
    try:
        value = float(text.rstrip("%")) / 100 if text.endswith("%") else float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < 1:
        raise SystemExit(f"{flag}: {what}, not {text}")
    return value


def plan_lifetimes(e, args):
    """--plan/--planned TARGET: lifetimes and rounds in each, for the noise floor to reach TARGET, planned from the
    newest A/A of separate JVMs (ab/lifetimes.py); printed, and with --planned applied to this run. True when the
    run ends here (--plan)."""
    if args.plan and args.planned:
        raise SystemExit("--plan prints the plan, --planned runs it: give one")
    target = share(args.plan or args.planned, "--plan/--planned", "a noise floor to reach, such as 5%")
    if e.get("interleave"):
        raise SystemExit(f"--plan: {e['name']} is interleaved: its rounds share one lifetime, whose variance cancels "
                         "in each round's ratio; plan a file of separate JVMs")
    pilot, source = results.newest_aa(e["name"], e["primary"].get("metric"), e.get("lineage", []),
                                      "duet" if e.get("duet") else None)
    if pilot is None:
        raise SystemExit(f"--plan: no A/A of {e['name']} to plan from: run ./perflab ab {e['name']} --aa first (the pilot)")
    confidence = share(args.confidence, "--confidence", "a confidence level, such as 80%") if args.confidence else None
    plans = [p for p in lifetimes.plan(pilot, target, confidence) if p["profile"] in e["profiles"]]
    log(lifetimes.describe(plans, source))
    if args.plan:
        return True
    lifetimes.apply(e, plans)
    return False


def commits_mode(e, args):
    """--baseline REF --candidate REF: two commits as the variants (refs.two_commits); a usage error otherwise."""
    clash = [flag for flag, given in (("--aa", args.aa), ("--variant", args.variant), ("--base-url", args.base_url)) if given]
    if not (args.baseline and args.candidate) or clash or e["kind"] == "command":
        why = ("give both --baseline and --candidate" if not (args.baseline and args.candidate) else
               f"not with {', '.join(clash)}" if clash else f"{e['name']} runs one command, not an app")
        log(f"--baseline/--candidate: {why}")
        raise SystemExit(2)
    refs.two_commits(e, refs.resolve(args.baseline), refs.resolve(args.candidate))


def reanalyse(name):
    """--reanalyse: a published result's statistics recomputed from its runs by this checkout (the comparisons at δ
    as a run would get it now, an A/A's calibration, the power check, the verdict), for when the statistics changed
    after it ran; REPORT.md and the charts follow, report.html keeps its run's analysis."""
    result = results.load_published(name)
    e = result["experiment"]
    aa = bool(result.get("calibration"))
    per_profile = {} if aa else delta_for(e, argparse.Namespace(delta=None))[2]
    for cell in result["cells"]:
        cell["delta"] = per_profile.get(cell["profile"], cell.get("delta", stats.MIN_DELTA))
        cell["comparisons"] = comparison.compare(e, cell["runs"], cell["delta"])
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
    folder = results.PUBLISHED / name
    (folder / "result.json").write_text(results.dump(model.stamp(result)))
    results.regenerate_published([folder])
    log(report.headline(results.read(folder / "result.json")))
    return 0


def recalibrate(name):
    """--recalibrate: the calibration of a published A/A's runs with this checkout's statistics, for when the
    statistics changed after the A/A ran; the published result and the tables stay as they are."""
    result = results.load_published(name)
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


def run_command_experiment(e, args):
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
    output = ran.stdout + ran.stderr
    (out_dir / "output.txt").write_text(output)
    rows = command_rows(e, output)
    checks = comparison.command_checks(e, rows, ran.returncode, output)
    result = results.write({"experiment": e, "name": e["name"], "command": f"./perflab ab {e['name']}" + (" --smoke" if args.smoke else ""),
                            "started": started.isoformat(timespec="seconds"), "exit": ran.returncode, "rows": rows, "cells": [],
                            "machine": {"cores": os.cpu_count(), "load_after": os.getloadavg()}, "checks": checks}, out_dir)
    log(report.command_table(result))
    if args.publish:
        results.publish(out_dir, args.publish)
    log(f"{'smoke ' if args.smoke else ''}{e['name']}: {checks['passed']} passed, {len(checks['failed'])} failed")
    for line in checks["failed"]:
        log("  FAIL  " + line)
    return 1 if checks["failed"] else 0


def command_rows(e, output):
    """A command's output read into rows: one per match of each `[[metric]]` regex, its named groups as fields
    (numbers where they read as one, thousands separators allowed)."""
    rows = []
    for m in e.get("metric", []):
        for match in re.finditer(m["regex"], output, re.M):
            rows.append({"metric": m["name"], **{k: number(v) for k, v in match.groupdict().items()}})
    return rows


def number(text):
    """'1,234.5' -> 1234.5; text that is no number (or None, a group that did not match) stays as it is."""
    try:
        return float(text.replace(",", ""))
    except (AttributeError, ValueError):
        return text


def stop_on_signals():
    """`kill <runner>` (TERM), a closed terminal (HUP) and Ctrl-C stop a run the way Ctrl-C does: the apps it
    started are stopped and its proxies cleared on the way out. Python's default for TERM and HUP exits at once,
    skipping every `finally`, and a run started in the background inherits INT ignored."""
    def interrupted(signum, frame):
        raise KeyboardInterrupt(signal.Signals(signum).name)
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(signum, interrupted)


if __name__ == "__main__":
    stop_on_signals()
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)

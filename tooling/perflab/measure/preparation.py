"""The lab made ready for a plan: the stack's settings, the run's context (the lab seam, the proxies, JFR, δ, the
progress), every variant's data set and the AOT cache, and the machine the run is measured on."""
import argparse
import copy
import datetime
import os
import pathlib
import platform
import shutil
import subprocess
import time
from collections.abc import Sequence
from typing import Any

from perflab.measure import k6io
from perflab.lab import seam
from perflab.analyse import phases
from perflab.lab import pinning
from perflab.lab import refs
from perflab.measure import procedures
from perflab.measure import runwindow
from perflab.analyse import stats
from perflab.plan.planner import also_deltas_for, delta_for, margin, points, rounds_text, warm_start
from perflab.results import store

from perflab.paths import ROOT


def log(message: str) -> None:
    print(message, flush=True)


def stack_env() -> dict[str, str]:
    """The stack's settings. ./perflab reads .env (one reader, tooling/perflab/lab/labenv.py load_env; a variable already set
    wins) and exports them before it starts the runner."""
    if "PERFLAB_DB_PORT" not in os.environ:
        raise SystemExit("perflab: start the runner with ./perflab ab, which exports the stack's settings from .env")
    return {key: value for key, value in os.environ.items() if key.startswith("PERFLAB_")}


class Progress:
    """Which run of how many, the phase, and the time left, estimated from the runs so far."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0
        self.started = time.time()
        self.first_step: float | None = None

    def step(self, text: str) -> None:
        """Before each run: 'run i of N', the time so far, and the time left at the pace of the runs so far."""
        now = time.time()
        self.first_step = self.first_step or now
        self.done += 1
        pace = (now - self.first_step) / (self.done - 1) if self.done > 1 else None
        left = f", about {fmt_seconds(pace * (self.total - self.done + 1))} left" if pace else ""
        log(f"[run {self.done}/{self.total} | {fmt_seconds(now - self.started)} elapsed{left}] {text}")

    def grow(self, extra: int) -> None:
        self.total += extra

    @staticmethod
    def note(text: str) -> None:
        log(f"    {text}")


def fmt_seconds(s: float) -> str:
    s = int(s)
    return f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"


class Context:
    def __init__(self, e: dict[str, Any], args: argparse.Namespace, env: dict[str, str], out_dir: pathlib.Path,
                 the_lab: seam.Lab | None = None) -> None:
        self.e = e
        self.args = args
        self.env = env
        self.out_dir = out_dir
        # the lab seam: every start, data command and limit goes through it (tooling/perflab/lab/seam.py)
        self.lab = the_lab or seam.for_run(args.base_url, log)
        self.toxiproxy = self.lab.proxies(env)
        self.links: dict[str, dict[str, Any]] = {}  # the current cell's network links (run_cell)
        self.pins: dict[str, frozenset[int]] = {}  # --pin: {role: cores} (tooling/perflab/lab/pinning.py)
        # [load] observe = false: no JFR, no k6 dashboard, no k6 metrics to Prometheus; the runs cost the machine only
        # the load and the app, as a capacity step does (an experiment that measures the machine's CPU per request)
        observe = e["load"].get("observe", True)
        self.jfr = procedures.Jfr(enabled=observe and not args.no_jfr and e["load"]["shape"] in ("open", "closed"))
        # a cold start with [load] jfr = true: the app records JIT and GC events from launch (procedures.cold_start_run)
        # [load] jfr = true is the experiment's own measurement (JIT and GC over the first requests, which its checks
        # read), not the profiling that --no-jfr turns off
        self.launch_jfr = e["load"]["shape"] == "cold-start" and bool(e["load"].get("jfr"))
        self.dashboard: bool = observe and not args.smoke
        self.prometheus_rw = runwindow.endpoint(env) if observe else None
        self.progress = Progress(0)  # the run's, once prepare knows how many runs it plans
        self.delta: float = stats.MIN_DELTA  # the smallest change a verdict calls real (main sets it)
        self.profile_delta: dict[str, float] = {}  # the same, per network profile (from the last A/A)
        self.also_delta: dict[str, dict[str, float]] = {}  # per profile, each `[primary] also` metric's own δ
        self.timings = phases.Timings()  # where the run's time goes (result.json's timings, the last line)

    def for_cell(self, e: dict[str, Any], links: dict[str, dict[str, Any]]) -> "Context":
        """This run's context for one cell: the cell's experiment (its sweep point, its profile's rounds) and network
        links, everything else shared (the lab, the proxies, the progress, the timings); the run's own is left as it
        was."""
        cell = copy.copy(self)
        cell.e, cell.links = e, links
        return cell


def prepare(e: dict[str, Any], args: argparse.Namespace, pins: dict[str, frozenset[int]]) -> tuple[Context, str, str]:
    """The lab made ready for the plan: its services, the output folder, the run's context (the noise floor, the
    progress), every variant's data set and the AOT cache; (context, the run's name, where δ came from)."""
    env = stack_env()
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    name = e["name"] + e.get("name_suffix", "")
    out_dir = pathlib.Path(args.out) if args.out else ROOT / "results" / f"{stamp}-{name}"
    out_dir.mkdir(parents=True, exist_ok=True)
    the_lab = seam.for_run(args.base_url, log)
    if args.base_url:
        if len(args.base_url) != len(e["variants"]):
            raise SystemExit(f"--base-url: give one URL per variant ({len(e['variants'])}: {', '.join(v['label'] for v in e['variants'])})")
        e["profiles"] = ["remote"]
        for v in e["variants"]:
            v.pop("seed", None), v.pop("reset", None)
        e["invariant"] = []
    refused = the_lab.cannot_run(e, pins)
    if refused:
        raise SystemExit(refused)
    the_lab.ensure_services(env)
    if any(v.get("ref") for v in e["variants"]):
        log("jars of the variants' commits:")
        refs.prepare(e, env.get("PERFLAB_DB_NAME", "perflab"))
    ctx = Context(e, args, env, out_dir, the_lab)
    ctx.pins = pins
    if "load" in ctx.pins:
        os.environ[pinning.ENV] = ",".join(map(str, sorted(ctx.pins["load"])))
    if args.prometheus:
        ctx.prometheus_rw = args.prometheus.rstrip("/") + "/api/v1/write"
    if args.aa:
        ctx.delta, delta_source, ctx.profile_delta = (args.delta, "--delta", {}) if args.delta else (stats.MIN_DELTA, f"A/A ({margin()})", {})
    else:
        ctx.delta, delta_source, ctx.profile_delta = delta_for(e, args)
        ctx.also_delta = also_deltas_for(e, args)
    # the named A/A results measured on another machine, found once: δ's source and the log's note both name them
    noted = not (args.aa or args.smoke or args.delta)
    floors_found = store.floors_elsewhere(e, getattr(args, "floors", None), identity()) \
        if ctx.profile_delta or noted else []
    if ctx.profile_delta:  # δ came from the named A/A results
        delta_source += store.floors_elsewhere_text(floors_found)
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
    if noted:
        for line in calibrated_elsewhere(e, floors_found):
            log(f"  note: {line}")
    ready_data_and_apps(ctx, e, args)
    return ctx, name, delta_source


def calibrated_elsewhere(e: dict[str, Any], floors_found: Sequence[tuple[str, str]]) -> list[str]:
    """What the run takes from a result measured on another machine, a line each: the A/A results whose noise
    floors set δ (store.floors_elsewhere's list) and the pilot its [setting] rule read (named, each with how to
    measure it again here)."""
    lines = [f"δ's A/A {name} was measured on another machine: {elsewhere}; its noise floor may not hold here "
             f"(./perflab ab {e['name']} --aa --publish {name} measures it here)"
             for name, elsewhere in floors_found]
    pilot_name = e.get("setting", {}).get("pilot")
    pilot = store.published(pilot_name) if pilot_name and "applied" not in e["setting"] else None
    elsewhere = store.measured_elsewhere(pilot, identity()) if pilot else None
    if elsewhere:
        lines.append(f"the pilot that set this setting ({pilot_name}) was measured on another machine: {elsewhere}; "
                     f"its figure may not hold here (the default, --setting auto, measures it here first)")
    return lines


def ready_data_and_apps(ctx: Context, e: dict[str, Any], args: argparse.Namespace) -> None:
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
        log(ctx.lab.start_line())
    if any(v.get("aot") for v in e["variants"]):
        if not ctx.lab.aot_cache_fresh():
            log("building the AOT cache first (./perflab aot build)")
            ctx.lab.build_aot_cache()


def ready_line(variant: dict[str, Any], output: str, seconds: float) -> str:
    """How long a variant's database took to be ready: the seeder's own line when it cloned the data set
    (tooling/perflab/lab/datasets/seedclone.py), else the command's time, in place or loaded."""
    said = [line.split("] ", 1)[-1] for line in output.splitlines() if " ready in " in line and "database " in line]
    if said:
        return said[-1]
    how = "in place" if "in place" in output else "loaded"
    return f"database {variant.get('database', 'perflab')} ready in {seconds:.1f} s ({how})"


def checkout_commit() -> str:
    """The checkout's short commit, "+changes" when tracked files differ from it; in compose's runner, which has no
    git, the host's (PERFLAB_COMMIT, set by ./perflab ab when it hands the run over; else "unknown")."""
    if not shutil.which("git"):
        return os.environ.get("PERFLAB_COMMIT") or "unknown"
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    dirty = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True).stdout.strip())
    return (commit or "unknown") + ("+changes" if dirty else "")


def identity() -> dict[str, Any]:
    """This machine as a result records it and another run compares it: its cores and its OS (the kernel build names
    the virtual machine)."""
    return {"cores": os.cpu_count(), "os": platform.platform()}


def machine(env: dict[str, str]) -> dict[str, Any]:
    def first_line(command: list[str]) -> str:
        try:
            r = subprocess.run(command, capture_output=True, text=True, timeout=20)
            return (r.stdout + r.stderr).strip().splitlines()[0]
        except Exception as error:  # a missing tool is recorded, not fatal
            return f"unavailable: {error}"
    mem = next((line.split()[1] for line in open("/proc/meminfo") if line.startswith("MemTotal")), "?")
    return {**identity(), "memory_kb": int(mem) if mem.isdigit() else mem, "commit": checkout_commit(),
            "python": platform.python_version(), "load_before": os.getloadavg(),
            "versions": {"java": first_line([os.path.join(os.environ.get("JAVA_HOME", "/usr"), "bin", "java"), "-version"]),
                         "k6": first_line([k6io.binary(), "version"]), "mariadb": first_line(["mariadb", "--version"]),
                         "redis": first_line(["redis-server", "--version"])}}

"""A run's cells, one network profile × sweep point each, measured one after another: the apps started for each
instance lifetime, warmed, primed and settled, the rounds in a balanced order (grown while the primary verdict is
inconclusive), and each round's runs recorded and compared."""
import argparse
import time
from typing import Any

from perflab.analyse import comparison
from perflab.plan import experiment as experiments
from perflab.plan import interleave
from perflab.plan import lifetimes
from perflab.lab import machine as machines
from perflab.measure import app_metrics
from perflab.lab import network
from perflab.lab import pinning
from perflab.render import report
from perflab.results import store
from perflab.measure import runwindow
from perflab.measure import procedures
from perflab.analyse import stats
from perflab.plan.planner import points, share
from perflab.measure.preparation import Context


def log(message: str) -> None:
    print(message, flush=True)


def measure_cells(ctx: Context, e: dict[str, Any], args: argparse.Namespace) -> list[dict[str, Any]]:
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


def run_cell(ctx: Context, e: dict[str, Any], profile: str, parameter: str | None, value: Any) -> dict[str, Any]:
    """All rounds of all variants at one network profile and one sweep point."""
    cell_e = experiments.with_point(e, parameter, value) if parameter else e
    cell_e = {**cell_e, **lifetimes.for_cell(cell_e, profile)}  # --planned: this profile's rounds and lifetimes
    overrides = {parameter.split(".", 1)[1]: value} if parameter and parameter.startswith("network.") else None
    if profile != "remote":
        links = network.profile(profile, overrides)
        options, net_args = ctx.toxiproxy.apply(links)
    else:
        links, options, net_args = {}, [], []
    box = machines.profile(e["machine"])
    cell = new_cell(ctx, e, profile, parameter, value, links, box)
    ctx = ctx.for_cell(cell_e, links)
    shape = cell_e["load"]["shape"]
    load = cell_e["load"]
    hosts, labels = cell_hosts(ctx, cell_e, profile)
    apps = ctx.lab.apps(cell_e, hosts, ctx.env, options, net_args)
    by_label: dict[str, tuple[procedures.App, dict[str, Any]]] = {a.label: (a, v) for a, v in zip(apps, hosts)}
    started = list(by_label)  # the apps' labels: the variants', or the interleaved mode's one app
    where = f"{profile}" + (f", {parameter}={value}" if parameter else "")
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
                    for running in apps:
                        running.stop()
                    start_instances(ctx, cell, by_label, started, load, where)
                app, variant = by_label[started[0] if label == DUET else label]
                first = next(iter(variant["arm_labels"].values())) if cell_e.get("interleave") else app.label
                round_no = sum(1 for r in cell["runs"] if r["variant"] == first) + 1
                ctx.progress.step(f"{where}: {label} round {round_no}/{rounds} ({shape})")
                began = time.time()
                pairs = [by_label[x] for x in started] if label == DUET else [(app, variant)]
                record_runs(cell, one_round(ctx, cell_e, pairs, round_no, cell), began)
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
    return cell


DUET = "every variant at once"  # a duet's unit in the run order (tooling/perflab/plan/duet.py)


def cell_tag(profile: str, parameter: str | None, value: Any) -> str:
    tag = profile
    if parameter is not None:
        tag += f"-{parameter.rsplit('.', 1)[-1]}{value:g}" if isinstance(value, (int, float)) else f"-{value}"
    return tag


def planted_cpu(e: dict[str, Any], plant: str | None, profile: str, floors: list[str] | None = None) -> str | None:
    """--plant as the app takes it: a duration as given ("150us"), or a share ("5%") of the primary metric's median
    (a latency in ms) in the A/A the run names (--floors, else the file's [primary] floors) on this profile, as whole
    microseconds."""
    if not plant or not plant.endswith("%"):
        return plant
    levels, source = store.aa_level(e, floors)
    if profile not in levels:
        raise SystemExit(f"--plant {plant}: no A/A of {e['name']} named on {profile} to take {plant} of "
                         f"(./perflab ab {e['name']} --aa --publish {e['name']}-aa, then --floors {e['name']}-aa or "
                         "[primary] floors), or give a duration such as 150us")
    micros = round(share(plant, "--plant", "a share such as 5% or a duration such as 150us") * levels[profile] * 1000)
    log(f"  planted: {micros}us of CPU per request of the twin, {plant} of the A/A's {e['primary']['metric']} "
        f"{levels[profile]:.3g} ms ({source})")
    return f"{micros}us"


def cell_hosts(ctx: Context, cell_e: dict[str, Any], profile: str) -> tuple[list[dict[str, Any]], list[str]]:
    """(what the cell's apps serve, the labels of the runs a round makes): every variant in its own app, or
    interleaved one app for all of them, and with --leakage one per variant alone (tooling/perflab/plan/interleave.py)."""
    if cell_e.get("interleave"):
        hosts = interleave.hosts(cell_e, planted_cpu(cell_e, ctx.args.plant, profile, ctx.args.floors), ctx.args.leakage)
        return hosts, [label for h in hosts for label in h["arm_labels"].values()]
    return cell_e["variants"], [v["label"] for v in cell_e["variants"]]


def new_cell(ctx: Context, e: dict[str, Any], profile: str, parameter: str | None, value: Any,
             links: dict[str, dict[str, Any]], box: dict[str, Any]) -> dict[str, Any]:
    """A cell's record before its rounds: its network, sweep point, tag, planned lifetimes and machine."""
    cell = {"profile": profile, "network": "a remote lab: " + ", ".join(ctx.args.base_url) if profile == "remote" else network.describe(profile, links), "parameter": parameter, "value": value,
            "tag": cell_tag(profile, parameter, value), "runs": []}
    if e.get("planned", {}).get(profile):
        cell["planned"] = e["planned"][profile]
    if not ctx.lab.remote:  # a remote lab's machine is its own
        cell["machine"] = machines.describe(box)
    return cell


def record_runs(cell: dict[str, Any], runs: list[dict[str, Any]], began: float) -> None:
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


def judge_cell(e: dict[str, Any], cell: dict[str, Any], delta: float, also_delta: dict[str, float] | None) -> None:
    """Set on the cell its δ, its `[primary] also` metrics' own δ (when an A/A measured them) and its comparisons at
    them: what a run does after each round and --reanalyse does again."""
    cell["delta"] = delta
    cell.pop("also_delta", None)
    if also_delta:
        cell["also_delta"] = also_delta
    cell["comparisons"] = comparison.compare(e, cell["runs"], delta, also_delta)


def compare_cell(ctx: Context, cell_e: dict[str, Any], cell: dict[str, Any]) -> None:
    """The cell's comparisons so far at its profile's noise floor (and with --leakage the leakage check's)."""
    judge_cell(cell_e, cell, ctx.profile_delta.get(cell["profile"], ctx.delta), ctx.also_delta.get(cell["profile"]))
    if ctx.args.leakage:
        cell["leakage"] = comparison.leakage(cell_e, cell["runs"], cell["delta"])


def one_round(ctx: Context, cell_e: dict[str, Any], pairs: list[tuple[procedures.App, dict[str, Any]]], round_no: int,
              cell: dict[str, Any]) -> list[dict[str, Any]]:
    """One round's runs, published while they measure as the round's window, which Grafana draws (tooling/perflab/measure/runwindow.py)."""
    with runwindow.Window(runwindow.endpoint(ctx.env), cell_e["name"], runwindow.variants_of(pairs), round_no,
                          cell["profile"], say=log):
        return round_runs(ctx, cell_e, pairs, round_no, cell)


def round_runs(ctx: Context, cell_e: dict[str, Any], pairs: list[tuple[procedures.App, dict[str, Any]]], round_no: int,
               cell: dict[str, Any]) -> list[dict[str, Any]]:
    """One round's runs, in the shape the cell measures: every (app, variant) of a duet at once, or the one pair's
    run (the interleaved mode's runs are one per arm)."""
    load, shape = cell_e["load"], cell_e["load"]["shape"]
    if cell_e.get("duet"):
        return procedures.duet_round(ctx, pairs, round_no, load, cell)
    app, variant = pairs[0]
    if cell_e.get("interleave"):
        return procedures.interleaved_run(ctx, app, variant, round_no, load, cell)
    if shape in ("open", "closed"):
        return [procedures.measured_run(ctx, app, variant, round_no, load, cell)]
    if shape == "capacity":
        return [procedures.capacity_run(ctx, app, variant, round_no, load, cell)]
    if shape == "first-request":
        return [procedures.first_request_run(ctx, app, variant, round_no, cell)]
    return [procedures.cold_start_run(ctx, app, variant, round_no, load, cell)]


def hold_stores(ctx: Context, box: dict[str, Any]) -> None:
    """The stores for one cell: MariaDB in the machine profile's CPU share (the lab releases a killed run's first),
    and with --pin MariaDB and Redis on their cores."""
    limited = ctx.lab.hold_database(box["mariadb"]["cpus"], box["name"])  # None: no share, or a remote lab
    if limited is not None:
        log(f"  MariaDB held to {machines.cpus_text(box['mariadb']['cpus'])}" + ("" if limited else " (not running here: no limit)"))
    for role in ("mariadb", "redis"):
        if role in ctx.pins and not pinning.pin(app_metrics.stack_pid(role), ctx.pins[role]):
            log(f"  --pin {role}: {role} is not running here: not pinned")


def release_stores(ctx: Context) -> None:
    ctx.lab.release_database()
    for role in ("mariadb", "redis"):
        if role in ctx.pins:
            pinning.unpin(app_metrics.stack_pid(role))


def start_instances(ctx: Context, cell: dict[str, Any], by_label: dict[str, tuple[procedures.App, dict[str, Any]]],
                    labels: list[str], load: dict[str, Any], where: str) -> None:
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
        if "app" in ctx.pins:
            pinning.pin(by_label[label][0].pid(), ctx.pins["app"])
    with ctx.timings.timing("warmup"):
        procedures.warm_up_all(ctx, [by_label[label] for label in order], load)
    primers = int(load.get("primer", 0))  # true counts as 1
    for label in order:
        app, variant = by_label[label]
        for n in range(primers):
            log(f"  {label}: discarded run {n + 1}/{primers} of the measured load ({where})")
            with ctx.timings.timing("warmup"):
                procedures.primer_run(ctx, app, variant, load, cell, n + 1)
    for label in order:  # the warm-ups' writes go now, so that MariaDB purges them before the first round
        procedures.reset(ctx, by_label[label][1])
    processes = {label: by_label[label][0].pid() for label in order}
    if by_label[order[0]][0].pid():  # a local lab: its MariaDB too
        processes["MariaDB"] = app_metrics.mariadb_pid()
    with ctx.timings.timing("warmup"):
        settled = procedures.settle(processes, load)
    for name, s in settled.items():
        if s["seconds"] >= procedures.QUIET_WINDOW_S * 2 or not s["quiet"]:
            log(f"  {name}: {'quiet' if s['quiet'] else 'still busy'} after {s['seconds']:g} s of settling (JIT queue, GC, purge)")
    cell["lifetimes"].append({"start_order": order, "settled": settled, "seconds": round(time.time() - began, 1)})

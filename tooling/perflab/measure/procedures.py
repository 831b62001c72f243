"""The load shapes: how one observation (a run) of one variant is made.

  open / closed   the app is started once per cell and warmed up (discarded); each round is one k6 run of the
                  experiment's script at its rate (open model) or VUs / requests (closed model)
  capacity        each round steps the arrival rate up until the SLO breaks, then bisects between the last rate
                  that held and the first that broke; the observation is the highest rate that held
  first-request   each round starts the app afresh and times its first and second request (seed 003); with
                  [load] idle, then waits that long and times the first and second request after the idle period
  cold-start      each round starts the app and k6 together; k6 fires the moment readiness answers (seed 000)
  interleaved     (an open or closed load with `interleave = true`) one app serves every variant, each request picks
                  one at random; a round is one k6 run, split by arm into one run per variant (tooling/perflab/plan/interleave.py)
  duet            (an open or closed load with `duet = true`) an app per variant as usual, every variant's run of a
                  round at once (tooling/perflab/plan/duet.py)
"""
import concurrent.futures
import contextlib
import json
import math
import pathlib
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from perflab.plan import interleave
from perflab.measure import k6io
from perflab.lab import labsecrets
from perflab.measure import app_metrics
from perflab.analyse import phases
from perflab.analyse import ramp
from perflab.analyse import stats

if TYPE_CHECKING:
    from perflab.lab import seam
    from perflab.lab import network


class App(app_metrics.WindowApp, Protocol):
    """What a run shape does with an app (launcher.App, made by the lab): start it, stop it and read its label."""
    @property
    def label(self) -> str: ...

    def start(self, jvm_opts: str = "") -> None: ...

    def start_in_background(self, jvm_opts: str = "") -> None: ...

    def wait_started(self) -> None: ...

    def started_epoch_ms(self) -> int: ...

    def stop(self) -> None: ...


class Notes(Protocol):
    def note(self, text: str) -> None: ...


class RunContext(Protocol):
    """What a run shape reads of the runner's context (preparation.Context): the cell's experiment, the stack's
    settings, the lab, the network links and proxies, the output folder, JFR, k6's outputs and the progress."""
    e: dict[str, Any]
    env: dict[str, str]
    lab: "seam.Lab"
    timings: phases.Timings
    links: dict[str, dict[str, Any]]
    toxiproxy: "network.Toxiproxy"
    out_dir: pathlib.Path
    jfr: "Jfr"
    launch_jfr: bool
    dashboard: bool
    prometheus_rw: str | None

    @property
    def progress(self) -> Notes: ...


def seconds(duration: object) -> float:
    try:
        return ramp.seconds(duration)
    except ValueError:
        raise SystemExit(f"duration {duration!r}: use e.g. 500ms, 30s or 2m") from None


def k6_env(load: dict[str, Any], variant: dict[str, Any], **extra: Any) -> dict[str, Any]:
    env = {**{k: v for k, v in load.get("env", {}).items()}, **variant.get("env", {})}
    for key, name in (("rate", "RATE"), ("vus", "VUS"), ("requests", "REQUESTS"), ("duration", "DURATION")):
        if key in load:
            env[name] = load[key]
    env.update(extra)
    return env


class Jfr:
    """A JFR recording of the measured window only (tooling/perflab/measure/jfr.py: jcmd JFR.start / JFR.stop, JDK 25 profile settings)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def start(self, pid: int | None) -> None:
        if self.enabled and pid:
            from perflab.measure import jfr
            jfr.start_recording(pid)

    def stop(self, pid: int | None, path: pathlib.Path) -> str | None:
        if not (self.enabled and pid):
            return None
        from perflab.measure import jfr
        jfr.stop_recording(pid, path)
        return str(path) if pathlib.Path(path).exists() else None


def reset(ctx: RunContext, variant: dict[str, Any]) -> None:
    if variant.get("reset"):
        began = time.monotonic()
        ctx.lab.data_command(variant["reset"], variant, ctx.env, "reset")
        if hasattr(ctx, "timings"):
            ctx.timings.add("resets", time.monotonic() - began)


def file_name(path: str | pathlib.Path | None) -> str | None:
    """A file of the run's output folder as a result records it: its name only, never a path of this machine (the
    readers resolve it against the folder the result.json is in); None for none."""
    return pathlib.Path(path).name if path else None


def warm_up(ctx: RunContext, app: App, variant: dict[str, Any], load: dict[str, Any]) -> None:
    """The discarded warm-up after a start. With warmup_network = "bare" it runs without the network profile's
    toxics (the proxies stay): on a slow profile the slower variant could not take the warm-up's load, and would
    start its rounds with less of its code compiled than the faster one."""
    if not load.get("warmup"):
        return
    requests = variant.get("warmup_requests", load.get("warmup_requests", load.get("requests", "")))
    env = k6_env(load, variant, DURATION=load["warmup"], REQUESTS=requests, **load.get("warmup_env", {}))
    network = load.get("warmup_network", "profile")
    if network not in ("profile", "bare"):
        raise SystemExit(f'[load] warmup_network = "{network}": use "profile" or "bare"')
    bare = network == "bare" and ctx.links
    with ctx.toxiproxy.bare(ctx.links) if bare else contextlib.nullcontext():
        k6io.run(load.get("warmup_script", load["script"]), app.url, env, f"{ctx.e['name']}-warmup", app.label)


def warm_up_all(ctx: RunContext, apps: Sequence[tuple[App, dict[str, Any]]], load: dict[str, Any]) -> None:
    """Every app's warm-up, in `apps`' order one by one; with [load] warmup_together (a smoke's default: it judges
    no time) all at once, unless they run bare (warmup_network = "bare" lifts the shared proxies' toxics)."""
    if not load.get("warmup_together") or load.get("warmup_network") == "bare" or len(apps) < 2:
        for app, variant in apps:
            warm_up(ctx, app, variant, load)
        return
    with concurrent.futures.ThreadPoolExecutor(len(apps)) as pool:
        for done in [pool.submit(warm_up, ctx, app, variant, load) for app, variant in apps]:
            done.result()


def primer_run(ctx: RunContext, app: App, variant: dict[str, Any], load: dict[str, Any], cell: dict[str, Any],
               n: int) -> dict[str, Any]:
    """[load] primer = N: N runs exactly like a measured one (reset, k6 through the network profile, the 1 Hz scrapes
    of /actuator/prometheus, JFR, the invariants), discarded, after every app's warm-up. The first runs after a
    start pay for what a warm-up of another shape did not train: k6's setup (every sender logs in) meets JIT
    profiles of a long run of transfers and deoptimizes them, and the measuring itself (JFR's recorder, the
    Prometheus exposition) is compiled on its first use. JFR of the wallet's A/A: 1,409 compilations and 166
    deoptimizations in the first round after a plain warm-up; 914 and 28 after three primers of k6 alone, most of
    them jdk.jfr, the classfile API and io.prometheus; 164 and 5 in a later round."""
    return measured_run(ctx, app, variant, f"primer{n}", load, cell)


DUET_WAIT_S = 600  # a duet's runs wait this long for each other at most (a reset that hangs breaks the round)
QUIET_CORES = 0.05  # an idle app (scrapes, pool housekeeping) uses well under 5 % of a core
QUIET_WINDOW_S = 2.0


def settle(pids: Mapping[str, int | None], load: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """After the warm-ups: waits until every process in `pids` ({name: pid}: the apps, MariaDB) is quiet, under 5 %
    of one core over the same 2 s window, bounded by [load] settle (default 60s, "0s" turns it off). The JIT goes on
    compiling what the warm-up queued after the load stops, and the app warmed first does so while the next one
    warms; MariaDB goes on purging the rows the reset after the warm-up deleted. Waiting until every one is quiet
    starts every variant's first round alike. Returns {name: {"seconds": waited, "quiet": bool}}."""
    cap = seconds(load.get("settle", "60s"))
    started = time.monotonic()
    busy = {name: pid for name, pid in pids.items() if pid and cap > 0}
    settled = {name: {"seconds": 0.0, "quiet": True} for name in pids if name not in busy}
    while busy and time.monotonic() - started < cap:
        before = {name: app_metrics.process_cpu_seconds(pid) for name, pid in busy.items()}
        time.sleep(QUIET_WINDOW_S)  # the measuring window itself, not a wait for an event
        for name, pid in list(busy.items()):
            used = app_metrics.process_cpu_seconds(pid) - before[name]
            if math.isnan(used) or used / QUIET_WINDOW_S < QUIET_CORES:
                settled[name] = {"seconds": round(time.monotonic() - started, 1), "quiet": True}
                del busy[name]
    settled.update({name: {"seconds": round(time.monotonic() - started, 1), "quiet": False} for name in busy})
    return {name: settled[name] for name in pids}


def measured_run(ctx: RunContext, app: App, variant: dict[str, Any], round_no: int | str, load: dict[str, Any],
                 cell: dict[str, Any], together: threading.Barrier | None = None) -> dict[str, Any]:
    """One k6 run of one variant, with its mechanisms, invariants, JFR and steady-state check; in a duet its reset
    is the caller's, and it starts when every variant's run is ready (`together`, a threading.Barrier)."""
    measured = _measure(ctx, app, variant, round_no, load, cell, together)
    requests = k6io.read_requests(measured["paths"]["csv"], load.get("scenario"))
    return _record(ctx, app.label, round_no, load, measured, requests, invariants(ctx, variant))


def interleaved_run(ctx: RunContext, app: App, host: dict[str, Any], round_no: int, load: dict[str, Any],
                    cell: dict[str, Any]) -> list[dict[str, Any]]:
    """One k6 run against an app of the interleaved mode (tooling/perflab/plan/interleave.py): every request picks one of its arms at
    random; each arm's requests, and its per-arm mechanisms, make a run of their own, labelled as host["arm_labels"]
    says (the variant's label, or "<label> (alone)" in the leakage check's apps). The
    iterations k6 dropped carry no arm: each variant's error rate counts all of them."""
    measured = _measure(ctx, app, host, round_no, load, cell)
    checked = invariants(ctx, host)
    by_arm = k6io.requests_by_arm(measured["paths"]["csv"], load.get("scenario"))
    return [_record(ctx, label, round_no, load, measured, by_arm.get(arm, ([], [], [])), checked, arm=arm)
            for arm, label in host["arm_labels"].items()]


def duet_round(ctx: RunContext, pairs: list[tuple[App, dict[str, Any]]], round_no: int, load: dict[str, Any],
               cell: dict[str, Any]) -> list[dict[str, Any]]:
    """A duet's round (tooling/perflab/plan/duet.py): every variant's reset, then every variant's run at once, each k6 against its own
    app (pairs: [(app, variant)]), in threads that wait on k6; the runs in the variants' order."""
    for _, variant in pairs:
        reset(ctx, variant)
    together = threading.Barrier(len(pairs), timeout=DUET_WAIT_S)
    with concurrent.futures.ThreadPoolExecutor(len(pairs)) as pool:
        futures = [pool.submit(measured_run, ctx, app, variant, round_no, load, cell, together) for app, variant in pairs]
        return [f.result() for f in futures]


def _measure(ctx: RunContext, app: App, variant: dict[str, Any], round_no: int | str, load: dict[str, Any],
             cell: dict[str, Any], together: threading.Barrier | None = None) -> dict[str, Any]:
    """Reset (or, in a duet, wait for the other variants' runs), then k6 inside the measurement window (scrapes,
    process CPU, JFR), with the file's fault if any."""
    if together is None:
        reset(ctx, variant)
    else:
        together.wait()
    testid = f"{ctx.e['name']}-{cell['tag']}-{app.instance}-r{round_no}"
    duration = ramp.total_seconds(load) if ramp.of(load) else seconds(load.get("duration", "30s"))
    fault = ctx.e.get("fault")
    if fault:
        ctx.toxiproxy.add_fault(fault["link"], fault["toxic"])
    processes = int(variant.get("k6_processes", load.get("processes", 1)))
    try:
        with app_metrics.Window(app, ctx.e["mechanism"], ctx.env, duration) as window:
            ctx.jfr.start(app.pid())
            started = time.time()
            code, paths = k6io.run(load["script"], app.url, measured_env(load, variant), testid, app.label, ctx.out_dir,
                                   dashboard=ctx.dashboard, prometheus_rw=ctx.prometheus_rw, processes=processes)
            took = time.time() - started
            window.load_generator_cpu(paths.get("cpu_seconds"))
            jfr = ctx.jfr.stop(app.pid(), ctx.out_dir / f"{testid}.jfr")
    finally:
        if fault:
            ctx.toxiproxy.clear_fault(fault["link"])
    return {"code": code, "paths": paths, "took": took, "window": window, "jfr": jfr, "duration": duration,
            "processes": processes, "testid": testid, "dropped": k6io.dropped_iterations(paths["csv"], load.get("scenario"))}


def _record(ctx: RunContext, label: str, round_no: int | str, load: dict[str, Any], measured: dict[str, Any],
            requests: k6io.Requests, checked: list[dict[str, Any]], arm: str | None = None) -> dict[str, Any]:
    """One variant's run record from a measured window and its requests (latencies, times, failed): all of the run's,
    or with `arm` that arm's."""
    paths, window, duration, dropped = measured["paths"], measured["window"], measured["duration"], measured["dropped"]
    latencies, times, failed = requests
    sent = len(latencies) + dropped
    mechanisms = interleave.mechanisms_for(ctx.e["mechanism"], arm) if arm else None
    run = {"variant": label, "round": round_no, "testid": measured["testid"], "k6_exit": measured["code"], **stats.summarize(latencies),
           "tps": len(latencies) / (duration if load.get("shape") == "open" or "duration" in load else measured["took"]),
           "error_rate": (sum(failed) + dropped) / sent if sent else math.nan, "requests": len(latencies),
           "dropped": dropped, "k6_processes": measured["processes"],
           "series": k6io.per_second(latencies, times), "knobs": window.knobs(), "jfr": file_name(measured["jfr"]),
           "dashboard": file_name(paths.get("dashboard")),
           "mechanism": {**window.values(len(latencies), mechanisms),
                         **k6io.summary_values(paths.get("summary"), mechanisms or ctx.e["mechanism"])},
           "gc": window.gc(), "limits": window.limits()}
    if arm:
        run["arm"] = arm
    if not latencies:
        run["aborted"] = k6io.aborted_reason(paths["log"]) or f"k6 sent no request (log {paths['log']})"
    run["steady"] = stats.steady_state([p["p95"] for p in run["series"]]) if len(run["series"]) >= 5 else None
    if ramp.of(load):
        run.update(ramp_record(ctx.e, load, paths, latencies, times, failed))
        run["steady"] = None  # a ramp is meant to climb
    run["invariants"] = checked
    return run


def measured_env(load: dict[str, Any], variant: dict[str, Any]) -> dict[str, Any]:
    """The measured run's k6 environment: with `[load] ramp`, the ramp's (ramp.k6_env) over the file's."""
    return {**k6_env(load, variant), **(ramp.k6_env(load) if ramp.of(load) else {})}


def ramp_record(e: dict[str, Any], load: dict[str, Any], paths: dict[str, Any], latencies: list[float],
                times: list[int], failed: list[bool]) -> dict[str, Any]:
    """A ramped run's stages and breaking rate (tooling/perflab/analyse/ramp.py), from its CSV."""
    return ramp.record(load, latencies, times, failed, k6io.dropped_times(paths["csv"], load.get("scenario")), ramp.slo_of(e))


def invariants(ctx: RunContext, variant: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for inv in ctx.e.get("invariant", []):
        ran = ctx.lab.run_data(inv["command"], variant, ctx.env)
        out.append({"name": inv["name"], "ok": ran.returncode == 0, "value": (ran.stdout + ran.stderr).strip()[-300:]})
    return out


def capacity_run(ctx: RunContext, app: App, variant: dict[str, Any], round_no: int, load: dict[str, Any],
                 cell: dict[str, Any]) -> dict[str, Any]:
    """Steps the arrival rate up until the SLO breaks, then bisects; returns the highest rate that held."""
    cap = ctx.e["capacity"]
    p95_ms, max_errors = ramp.slo_of(ctx.e)
    reset(ctx, variant)
    steps: list[dict[str, Any]] = []

    def holds(rate: float) -> bool:
        step_load = dict(load, rate=rate, duration=cap.get("step_duration", "15s"))
        testid = f"{ctx.e['name']}-{cell['tag']}-{app.instance}-r{round_no}-{rate:g}"
        code, paths = k6io.run(load["script"], app.url, k6_env(step_load, variant), testid, app.label, ctx.out_dir)
        latencies, _, failed = k6io.read_requests(paths["csv"], load.get("scenario"))
        dropped = k6io.dropped_iterations(paths["csv"], load.get("scenario"))
        sent = len(latencies) + dropped
        summary = stats.summarize(latencies)
        errors = (sum(failed) + dropped) / sent if sent else 1.0
        ok = bool(latencies) and summary["p95"] < p95_ms and errors < max_errors
        served = k6io.served(paths["csv"]) / seconds(step_load["duration"])
        steps.append({"rate": rate, "p95": summary["p95"], "error_rate": errors, "served": served, "held": ok})
        ctx.progress.note(f"{app.label} at {rate:g}/s: p95 {summary['p95']:.1f} ms, errors {100 * errors:.2f}%, "
                          f"{served:.0f} requests/s served -> {'held' if ok else 'broke'}")
        return ok

    held, broke, rate = 0.0, None, float(cap["start"])
    while rate <= cap["max"]:
        if holds(rate):
            held = rate
            rate += cap["step"]
        else:
            broke = rate
            break
    for _ in range(cap.get("refine", 2)):
        if broke is None or broke - held <= cap.get("resolution", 10):
            break
        middle = round((held + broke) / 2 / cap.get("resolution", 10)) * cap.get("resolution", 10)
        if middle in (held, broke):
            break
        if holds(middle):
            held = middle
        else:
            broke = middle
    if broke is None:
        ctx.progress.note(f"{app.label} held the search's max ({held:g}/s): its capacity is at least that (censored)")
    return {"variant": app.label, "round": round_no, "testid": f"{cell['tag']}-{app.instance}-r{round_no}",
            "capacity": held, "served": served_at(steps, held), "broke_at": broke, "steps": steps, "mechanism": {}, "invariants": invariants(ctx, variant),
            "series": []}


def served_at(steps: list[dict[str, Any]], held: float) -> float:
    """Requests per second the app served at the highest rate that held, every scenario of the script counted (a
    second scenario, such as transfer.js's reverse pairs, adds requests the primary scenario's rate does not count):
    the figure to set against a ceiling that counts every operation. 0 when no rate held."""
    return next((s["served"] for s in steps if s["held"] and s["rate"] == held), 0.0)


def request_body(spec: dict[str, Any], n: int) -> bytes | None:
    """[request] body with {n} the request's number and {member_password} this install's (stack/secrets.sh), so that
    the experiment files and their results never hold a credential."""
    body = spec.get("body", "").replace("{n}", str(n))
    if "{member_password}" in body:
        body = body.replace("{member_password}", labsecrets.member_password())
    return body.encode() or None


def timed_request(url: str, spec: dict[str, Any], n: int) -> float:
    body = request_body(spec, n)
    request = urllib.request.Request(url + spec["path"], data=body, method=spec.get("method", "GET"),
                                     headers={"Content-Type": "application/json"})
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as e:
        status = e.code
    elapsed = (time.perf_counter() - started) * 1000
    if status != spec.get("expect", 200):
        raise SystemExit(f"{spec['path']} answered {status}, expected {spec.get('expect', 200)}")
    return elapsed


IDLE_MAX_S = 120  # [load] idle: a wait past a keep-alive (seed 003's 20 s), not a soak


def idle_seconds(load: dict[str, Any]) -> float:
    """[load] idle of a first-request experiment in seconds (0 without one), bounded by IDLE_MAX_S."""
    idle = seconds(load["idle"]) if load.get("idle") else 0.0
    if not 0 <= idle <= IDLE_MAX_S:
        raise SystemExit(f"[load] idle = {load['idle']!r}: at most {IDLE_MAX_S} s")
    return idle


def first_request_run(ctx: RunContext, app: App, variant: dict[str, Any], round_no: int,
                      cell: dict[str, Any]) -> dict[str, Any]:
    """The first and second [request] after a fresh start (the deploy trigger); with [load] idle, also the first and
    second after that long without a request (the idle trigger), the mechanisms read around the first of those."""
    app.start()
    spec = ctx.e["request"]
    first = timed_request(app.url, spec, 1000 + round_no)
    second = timed_request(app.url, spec, 2000 + round_no)
    run = {"variant": app.label, "round": round_no, "testid": f"{cell['tag']}-{app.instance}-r{round_no}",
           "first_ms": first, "second_ms": second, "first_over_second": first / second,
           "mechanism": {}, "invariants": [], "series": []}
    idle = idle_seconds(ctx.e["load"])
    if idle:
        run.update(after_idle(ctx, app, spec, idle, round_no))
    return run


def after_idle(ctx: RunContext, app: App, spec: dict[str, Any], idle: float, round_no: int) -> dict[str, Any]:
    """The idle trigger: nothing is sent for `idle` seconds after the second request; then the first request after
    it is timed inside a app_metrics.Window (its mechanisms: e.g. the connections the client opened for it), and a second
    one beside it."""
    time.sleep(idle)  # the idle period itself: no request, as no user came
    with app_metrics.Window(app, ctx.e["mechanism"], ctx.env, 1) as window:
        first = timed_request(app.url, spec, 3000 + round_no)
    second = timed_request(app.url, spec, 4000 + round_no)
    return {"idle_s": idle, "idle_first_ms": first, "idle_second_ms": second, "idle_first_over_second": first / second,
            "mechanism": window.values(1), "knobs": window.knobs(), "gc": window.gc()}


def cold_start_run(ctx: RunContext, app: App, variant: dict[str, Any], round_no: int, load: dict[str, Any],
                   cell: dict[str, Any]) -> dict[str, Any]:
    """Starts the app and k6 together (k6 polls readiness, then fires); with [load] jfr = true the app's JVM
    records JIT and GC events from its first moment (jfr.launch_option), read over the first requests' window."""
    reset(ctx, variant)
    testid = f"{ctx.e['name']}-{cell['tag']}-{app.instance}-r{round_no}"
    recording = ctx.out_dir / f"{testid}.jfr" if ctx.launch_jfr else None
    app.start_in_background(jvm_opts=_launch_option(recording))
    code, paths = k6io.run(load["script"], app.url, k6_env(load, variant), testid, app.label, ctx.out_dir)
    app.wait_started()
    started = app.started_epoch_ms()
    if recording:
        from perflab.measure import jfr
        pid = app.pid()
        if pid is None:
            raise SystemExit(f"{app.label}: no longer running, so its launch recording cannot be stopped")
        jfr.stop_recording(pid, recording, name=jfr.LAUNCH_RECORDING)
    app.stop()
    if not pathlib.Path(paths["summary"]).exists():
        raise SystemExit(f"{app.label}: k6 wrote no summary (log {paths['log']})")
    data = json.loads(pathlib.Path(paths["summary"]).read_text())
    w = data["windows"]
    first = w["first8000"] or w["first1000"]
    total = first["count"] + data.get("dropped", 0)
    failed = first["failures"] + data.get("dropped", 0)
    steady = (w.get("steady") or {}).get("p99") or math.nan
    run = {"variant": app.label, "round": round_no, "testid": testid, "ready_ms": data["readyEpochMs"] - started,
           "success_pct": 100.0 * (total - failed) / total if total else math.nan, "failed": failed,
           "first100_p50": w["first100"]["p50"], "first100_p95": w["first100"]["p95"], "first100_p99": w["first100"]["p99"],
           "first1000_p50": w["first1000"]["p50"], "first1000_p95": w["first1000"]["p95"], "first1000_p99": w["first1000"]["p99"],
           "steady_p99": steady, "first100_p99_over_steady": w["first100"]["p99"] / steady if steady == steady else math.nan,
           "mechanism": {}, "invariants": [], "series": []}
    if recording and recording.exists():
        run.update(first_requests_jit_gc(recording, data, load), launch_jfr=file_name(recording))
    return run


def _launch_option(recording: pathlib.Path | None) -> str:
    if not recording:
        return ""
    from perflab.measure import jfr
    return jfr.launch_option(recording.resolve())


def first_requests_jit_gc(recording: pathlib.Path, data: dict[str, Any], load: dict[str, Any]) -> dict[str, Any]:
    """What the JIT and the GC did over the record window (the first 8,000 requests: from readiness to the end of
    the window's last answer, as k6 saw them), as run metrics (model.METRICS["cold-start"])."""
    from perflab.measure import jfr
    start = data["readyEpochMs"]
    end = data.get("recordEndEpochMs") or start
    s = jfr.window_summary(recording, start, end, load.get("focus"))
    jit, gc = s["jit"], s["gc"]
    return {"jit_compile_ms": jit["compile_ms"], "jit_compilations": jit["compilations"],
            "c2_compile_ms": jit["compile_ms_by_compiler"].get("c2", 0.0), "c2_compilations": jit["by_compiler"].get("c2", 0),
            "deoptimizations": jit["deoptimizations"], "young_gcs": gc["young"], "old_gcs": gc["old"],
            "gc_pause_ms": gc["total_pause_ms"], "focus_compile_ms": (jit.get("focus") or {}).get("compile_ms", math.nan),
            "focus_cpu_pct": 100 * s["cpu"]["focus_share"] if s["cpu"].get("focus_share") is not None else math.nan,
            "record_window_ms": end - start}

"""The one place that runs k6 and reads what it writes: the per-request CSV, the summary JSON (k6/lib's
handleSummary writes it where SUMMARY points) and the web dashboard's HTML export."""
import csv
import functools
import json
import math
import os
import pathlib
import resource
import subprocess
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, Any, Literal

from perflab.lab import labsecrets
from perflab.lab import pinning

from perflab.paths import ROOT
# the percentiles k6's Prometheus remote write exports (k6_http_req_duration_p95 ...): the dashboards' k6 panels
PROMETHEUS_TREND_STATS = "p(50),p(90),p(95),p(99),max"
CsvPaths = str | os.PathLike[str] | Sequence[str | os.PathLike[str]]  # one run's CSV, or a segmented run's
# one run's (or arm's) requests: latencies (ms), send times (s), failed flags
Requests = tuple[list[float], list[int], list[bool]]


@functools.cache
def binary() -> str:
    bin_dir = subprocess.run([str(ROOT / "stack" / "native.sh"), "bin"], capture_output=True, text=True, check=True).stdout.strip()
    path = pathlib.Path(bin_dir) / "k6"
    if not path.exists():
        raise SystemExit(f"k6 is not installed ({path}): ./perflab stack up installs it")
    return str(path)


def segments(n: int) -> tuple[list[str], str]:
    """k6's execution segments for n processes: ['0:1/2', '1/2:1'] and the shared sequence '0,1/2,1'."""
    points = ["0"] + [f"{i}/{n}" for i in range(1, n)] + ["1"]
    return [f"{points[i]}:{points[i + 1]}" for i in range(n)], ",".join(points)


def run(script: str, base_url: str, env: dict[str, Any], testid: str, variant: str,
        out_dir: str | os.PathLike[str] | None = None, dashboard: bool = False, prometheus_rw: str | None = None,
        timeout: float | None = None, processes: int = 1) -> tuple[int, dict[str, Any]]:
    """One k6 run. With out_dir: the CSV, the summary JSON and (dashboard=True) the HTML report land there as
    k6-<testid>.*. processes > 1 splits the run with --execution-segment over that many k6 processes (one load
    generator's share each, as on several machines); their CSVs are read together as one run.
    Returns (exit code, paths)."""
    if processes > 1:
        return run_segmented(script, base_url, env, testid, variant, out_dir, processes, timeout)
    process, paths = start(script, base_url, env, testid, variant, out_dir, dashboard, prometheus_rw)
    try:
        with ChildrenCpu() as cpu:
            code = process.wait(timeout=timeout)
    finally:
        process.sink.close()
    paths["cpu_seconds"] = cpu.seconds
    return code, paths


class ChildrenCpu:
    """CPU seconds (user + system) of the child processes reaped inside the block, from getrusage(RUSAGE_CHILDREN):
    around the wait for k6, k6's own CPU, which /proc no longer shows once it has exited. Only k6 is waited for
    there; a child another thread reaps meanwhile would count too (the runner's other children are reaped
    outside that wait)."""

    def __enter__(self) -> "ChildrenCpu":
        self.before = _children_cpu()
        self.seconds = math.nan
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        self.seconds = _children_cpu() - self.before
        return False


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class K6Process(subprocess.Popen[bytes]):
    """A k6 process and the file its output goes to (closed once it is waited for)."""
    sink: IO[str]


def start(script: str, base_url: str, env: dict[str, Any], testid: str, variant: str,
          out_dir: str | os.PathLike[str] | None = None, dashboard: bool = False, prometheus_rw: str | None = None,
          segment: tuple[str, str, int] | None = None) -> tuple[K6Process, dict[str, Any]]:
    # JWT_SECRET: the app's generated secret, for the scripts that sign tokens (k6/lib/route-auth.js), and the
    # install's stub credentials and PIN (labsecrets.k6_env); in k6's environment rather than on its command line,
    # where ps shows it
    full_env = {**labsecrets.k6_env(), **os.environ, "JWT_SECRET": labsecrets.jwt_secret()}
    full_env.update(BASE_URL=base_url, VARIANT=variant, TESTID=testid, **{k: str(v) for k, v in env.items()})
    # --address "": no REST API port, so that runs side by side (segments, other checkouts) do not collide
    command = [binary(), "run", "--quiet", "--no-color", "--address", "", "--tag", f"testid={testid}", "--tag", f"variant={variant}"]
    name = testid if segment is None else f"{testid}-seg{segment[2]}"
    paths: dict[str, Any] = {}
    if out_dir is not None:
        out_dir = pathlib.Path(out_dir)
        paths = {"csv": out_dir / f"k6-{name}.csv", "summary": out_dir / f"k6-{name}.json", "log": out_dir / f"k6-{name}.log"}
        full_env["SUMMARY"] = str(paths["summary"])
        command += ["--out", f"csv={paths['csv']}"]
        if dashboard:
            paths["dashboard"] = out_dir / f"k6-{name}.html"
            full_env.update(K6_WEB_DASHBOARD="true", K6_WEB_DASHBOARD_PORT="-1", K6_WEB_DASHBOARD_PERIOD="1s",
                            K6_WEB_DASHBOARD_EXPORT=str(paths["dashboard"]))  # 1 s: short runs still get a report
        if prometheus_rw:
            full_env.update(K6_PROMETHEUS_RW_SERVER_URL=prometheus_rw, K6_PROMETHEUS_RW_TREND_STATS=PROMETHEUS_TREND_STATS)
            command += ["-o", "experimental-prometheus-rw"]
    if segment is not None:
        command += ["--execution-segment", segment[0], "--execution-segment-sequence", segment[1]]
    command.append(str(ROOT / script))
    sink = open(paths["log"], "w") if paths else open(os.devnull, "w")
    # on the cores PERFLAB_K6_CPUS names (the runner's --pin load=...), else on any
    process = K6Process(pinning.command(command, pinning.env_cores()), cwd=ROOT, env=full_env, stdout=sink,
                        stderr=subprocess.STDOUT)
    process.sink = sink  # closed with the process (wait)
    return process, paths


def run_segmented(script: str, base_url: str, env: dict[str, Any], testid: str, variant: str,
                  out_dir: str | os.PathLike[str] | None, n: int,
                  timeout: float | None = None) -> tuple[int, dict[str, Any]]:
    parts, sequence = segments(n)
    started = [start(script, base_url, env, testid, variant, out_dir, segment=(part, sequence, i + 1))
               for i, part in enumerate(parts)]
    codes = []
    with ChildrenCpu() as cpu:
        for process, _ in started:
            try:
                codes.append(process.wait(timeout=timeout))
            finally:
                process.sink.close()
    paths = {"csv": [p["csv"] for _, p in started], "summary": [p["summary"] for _, p in started],
             "log": started[0][1]["log"], "logs": [p["log"] for _, p in started], "cpu_seconds": cpu.seconds}
    return max(codes), paths


def aborted_reason(log_path: str | os.PathLike[str]) -> str | None:
    """The line a script's setup() aborted with (k6/lib's precondition checks), if any."""
    try:
        for line in pathlib.Path(log_path).read_text().splitlines():
            if "aborted" in line.lower() or "test aborted" in line.lower():
                return line.strip()
    except OSError:
        pass
    return None


def read_requests(paths: CsvPaths, scenario: str | None = None) -> Requests:
    """The requests of one scenario (all when None): latencies (ms), send timestamps (s) and failed flags. `paths` is
    one CSV or the CSVs of a segmented run, read as one."""
    return _requests(paths, scenario, lambda row: None).get(None, ([], [], []))


def requests_by_arm(paths: CsvPaths, scenario: str | None = None) -> dict[str | None, Requests]:
    """read_requests() per arm of the interleaved mode, in one pass: {arm: (latencies, times, failed)}; requests
    without an `arm` tag under None."""
    return _requests(paths, scenario, arm_of)


def _requests(paths: CsvPaths, scenario: str | None,
              group_of: Callable[[dict[str, str]], str | None]) -> dict[str | None, Requests]:
    groups: dict[str | None, Requests] = {}
    for row in rows(paths):
        if scenario is not None and row.get("scenario") != scenario:
            continue
        latencies, times, failed = groups.setdefault(group_of(row), ([], [], []))
        if row["metric_name"] == "http_req_duration":
            latencies.append(float(row["metric_value"]))
            times.append(int(row["timestamp"]))
        elif row["metric_name"] == "http_req_failed":
            failed.append(float(row["metric_value"]) > 0)
    return groups


def arm_of(row: dict[str, str]) -> str | None:
    """A CSV row's `arm` tag: its own column, else in `extra_tags` (k6 writes tags it has no column for as
    name=value&name=value); None without one."""
    if row.get("arm"):
        return row["arm"]
    for pair in (row.get("extra_tags") or "").split("&"):
        key, _, value = pair.partition("=")
        if key == "arm":
            return value
    return None


def rows(paths: CsvPaths) -> Iterator[dict[str, str]]:
    for path in paths if isinstance(paths, (list, tuple)) else [paths]:
        with open(path, newline="") as f:
            yield from csv.DictReader(f)


def served(paths: CsvPaths) -> int:
    """Requests k6 completed without failing in any of the script's scenarios (setup() and teardown(), which carry no
    scenario tag, left out): what the app served, a second scenario's requests included."""
    return sum(1 for row in rows(paths)
               if row["metric_name"] == "http_req_failed" and row.get("scenario") and float(row["metric_value"]) == 0)


def dropped_iterations(paths: CsvPaths, scenario: str | None = None) -> int:
    """Iterations of the scenario (all when None) k6 could not start in time (an open model that outran its VUs):
    the runner counts them as failed requests."""
    return sum(n for _, n in dropped_times(paths, scenario))


def dropped_times(paths: CsvPaths, scenario: str | None = None) -> list[tuple[int, int]]:
    """The scenario's dropped iterations as (timestamp in seconds, count), in the CSV's order."""
    return [(int(row["timestamp"]), int(float(row["metric_value"]))) for row in rows(paths)
            if row["metric_name"] == "dropped_iterations" and scenario in (None, row.get("scenario"))]


def read_summary(path: str | os.PathLike[str]) -> dict[str, Any]:
    with open(path) as f:
        summary: dict[str, Any] = json.load(f)
    return summary


def summary_values(summary: Any, mechanisms: Iterable[dict[str, Any]]) -> dict[str, float]:
    """The mechanisms of kind "k6": a statistic of a metric the script keeps (`metric`, `stat` as k6's summary
    names it: "count", "avg", "p(90)", "max", ...) from the run's end-of-test summary (one path, or one per k6
    process: then only a count adds up, anything else is NaN); NaN when the summary lacks it."""
    wanted = [m for m in mechanisms if m.get("kind") == "k6"]
    if not wanted:
        return {}
    paths = summary if isinstance(summary, list) else [summary]
    metrics = [read_summary(p).get("metrics", {}) if p and pathlib.Path(p).exists() else {} for p in paths]
    out = {}
    for m in wanted:
        found = [float(ms[m["metric"]]["values"][m["stat"]]) for ms in metrics
                 if m["stat"] in ms.get(m["metric"], {}).get("values", {})]
        if len(found) != len(metrics):
            out[m["name"]] = math.nan
        else:
            out[m["name"]] = sum(found) if m["stat"] == "count" else found[0] if len(found) == 1 else math.nan
    return out


def per_second(latencies: list[float], times: list[int]) -> list[dict[str, Any]]:
    """Latency percentiles and throughput for each second of a run: [{t, rps, p50, p95, p99}]."""
    if not latencies:
        return []
    import numpy as np  # here only: ./perflab k6 and every command that imports this module need no numpy
    t = np.asarray(times)
    v = np.asarray(latencies)
    start = t.min()
    out = []
    for second in np.unique(t):
        values = v[t == second]
        p50, p95, p99 = np.percentile(values, [50, 95, 99])
        out.append({"t": int(second - start), "rps": int(values.size), "p50": float(p50), "p95": float(p95), "p99": float(p99)})
    return out

"""What the runner reads around a measured window: the app's metrics (before, after, and gauges sampled every
second), CPU seconds of the app and of MariaDB, MariaDB's own status counters, and probe commands that run
alongside the load. Mechanism kinds, as declared in an experiment's [[mechanism]] tables:

  delta          a counter's increase                       ratio      a counter's increase per another's (per = "requests": per request sent), times `scale`
  gauge_max      the highest sampled value of a gauge        gauge_mean the mean of the sampled values
  cpu            CPU seconds of `process` per `per` (a counter, or "requests"): app, mariadb, redis, k6 (the load
                 generator's own processes, from their resource usage when they exit) or machine (every core's
                 non-idle time, from /proc/stat: what the whole machine spent)
  mariadb_status a SHOW GLOBAL STATUS counter's increase per `per` (e.g. Questions per transfer)
  k6             a statistic of a metric the k6 script keeps (`metric`, `stat`: "count", "p(90)", ...), from the
                 run's end-of-test summary (k6io.summary_values), e.g. the admitted requests and their latencies
  probe          a number a `command` prints while the load runs (`pattern`, a regex with one group, or `key` for
                 KEY=VALUE), e.g. Redis's small-command latency; {seconds}, {port} and {database} in the command are
                 the window's length less 4 s, the app's port and its database
"""
import math
import os
import pathlib
import re
import shlex
import subprocess
import threading
import time
from typing import Any, Literal, Protocol

from perflab.lab import labenv
from perflab.lab import launcher
from perflab.lab import machine
from perflab.measure import prom

from perflab.paths import ROOT
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class WindowApp(Protocol):
    """What a window reads of an app (launcher.App): its process, its metrics' URL, its limit's name, its port, and
    whether its database is the lab's MariaDB, whose global counters the window then reads (a cluster's is not)."""
    lab_database: bool

    def engine_cpu_seconds(self) -> dict[str, float]: ...

    @property
    def url(self) -> str: ...

    @property
    def instance(self) -> str: ...

    @property
    def port(self) -> int: ...

    def pid(self) -> int | None: ...


def process_cpu_seconds(pid: int | None) -> float:
    """utime + stime of a process from /proc, in seconds; NaN when it is gone."""
    try:
        fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    except (OSError, IndexError, ValueError, TypeError):
        return math.nan


def machine_cpu_seconds(stat: str = "/proc/stat") -> float:
    """Non-idle CPU seconds of all cores since boot (user, nice, system, irq, softirq, steal), from /proc/stat."""
    try:
        for line in pathlib.Path(stat).read_text().splitlines():
            if line.startswith("cpu "):
                ticks = [int(v) for v in line.split()[1:]]
                return (sum(ticks[:8]) - ticks[3] - ticks[4]) / CLOCK_TICKS  # idle and iowait are not work
    except (OSError, ValueError):
        pass
    return math.nan


def stack_pid(service: str) -> int | None:
    """The pid of a native-stack service (mariadb, redis), or None when it does not run here."""
    try:
        return int((labenv.native_run_dir() / f"{service}.pid").read_text().strip())
    except (OSError, ValueError, subprocess.CalledProcessError):
        return None


def mariadb_pid() -> int | None:
    return stack_pid("mariadb")


def mariadb_status(env: dict[str, str], names: list[str]) -> dict[str, float]:
    if not names:
        return {}
    where = ",".join(f"'{n}'" for n in names)
    host, port = labenv.service_address("mariadb", env)
    out = subprocess.run(["mariadb", f"-h{host}", f"-P{port}", f"-u{env['PERFLAB_DB_USER']}",
                          "-N", "-B", "-e", f"SHOW GLOBAL STATUS WHERE Variable_name IN ({where})"],
                         capture_output=True, text=True, env={**os.environ, "MYSQL_PWD": env["PERFLAB_DB_PASSWORD"]}).stdout
    return {line.split("\t")[0]: float(line.split("\t")[1]) for line in out.splitlines() if "\t" in line}


class GaugeSampler(threading.Thread):
    """Samples the experiment's gauges once a second while the load runs."""

    def __init__(self, url: str, gauges: list[dict[str, Any]]) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.gauges = gauges
        self.values: dict[str, list[float]] = {g["name"]: [] for g in gauges}
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            try:
                samples = prom.scrape(self.url, timeout=2)
                for g in self.gauges:
                    self.values[g["name"]].append(prom.total(samples, g["metric"], g.get("labels")))
            except Exception:  # a missed sample is not a result; the app may be busy
                pass
            self.stopping.wait(1.0)

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=5)


class Window:
    """Everything read around one measured run of one app."""

    def __init__(self, app: WindowApp, mechanisms: list[dict[str, Any]], env: dict[str, str],
                 duration_s: float) -> None:
        self.app = app
        self.mechanisms = mechanisms
        self.env = env
        self.duration_s = duration_s
        self.status_names = sorted({m["variable"] for m in mechanisms if m.get("kind") == "mariadb_status"})
        self.gauges = [m for m in mechanisms if m.get("kind", "delta").startswith("gauge")]
        self.probes = [m for m in mechanisms if m.get("kind") == "probe"]
        self.k6_cpu = math.nan  # set by load_generator_cpu: k6 is measured when it exits, not from /proc

    def __enter__(self) -> "Window":
        local = self.app.pid() is not None  # a remote lab's processes and database are not this machine's
        self.db_pid = mariadb_pid() if local else None
        self.redis_pid = stack_pid("redis") if local else None
        self.local = local
        if not self.app.lab_database:  # a cluster's database: its counters are not the lab's
            self.status_names = []
        self.before = prom.scrape(self.app.url)
        self.limits_before = self._limits()
        self.wall_before = time.monotonic()
        self.cpu_before = {**self._cpu(), "k6": 0.0}  # k6's CPU is what its run spent (load_generator_cpu)
        self.status_before = mariadb_status(self.env, self.status_names)
        self.sampler = GaugeSampler(self.app.url, self.gauges)
        self.sampler.start()
        self._start_probes()
        return self

    def _start_probes(self) -> None:
        """One process per distinct command: mechanisms reading two keys of one command's output share its run."""
        self.probe_processes: dict[str, subprocess.Popen[str]] = {}
        for m in self.probes:
            command = self._probe_command(m)
            if command not in self.probe_processes:
                self.probe_processes[command] = self._start_probe(m)

    def _read_probes(self) -> None:
        """Each probe mechanism's output: its command's, read once."""
        outputs: dict[str, str] = {}
        for command, process in self.probe_processes.items():
            try:
                outputs[command], _ = process.communicate(timeout=self.duration_s + 30)
            except subprocess.TimeoutExpired:
                process.kill()
                outputs[command] = ""
        self.probe_output = {m["name"]: outputs[self._probe_command(m)] for m in self.probes}

    def _cpu(self) -> dict[str, float]:
        """CPU seconds so far of the app, MariaDB and Redis (their processes here, or their containers as the engine
        counts them: the compose lab's) and of the machine; NaN for what this lab cannot read."""
        if not self.local:
            return {"app": math.nan, "mariadb": math.nan, "redis": math.nan, "machine": math.nan,
                    **self.app.engine_cpu_seconds()}
        return {"app": process_cpu_seconds(self.app.pid()), "mariadb": process_cpu_seconds(self.db_pid),
                "redis": process_cpu_seconds(self.redis_pid), "machine": machine_cpu_seconds()}

    def _limits(self) -> dict[str, dict[str, Any] | None]:
        """The CPU limits on the app and MariaDB (machine.snapshot: share, cgroup counters) for a local lab."""
        if not self.local:
            return {}
        return {"app": machine.snapshot(self.app.instance), "mariadb": machine.snapshot(machine.MARIADB)}

    def limits(self) -> list[dict[str, Any]]:
        """Whether each CPU limit held over the window: per limited process, its CPU seconds per wall second against
        its share, and its throttled periods (machine.check); [] when nothing was limited."""
        checks = [machine.check(name, self.limits_before.get(name), self.limits_after.get(name),
                                self.cpu_after[name] - self.cpu_before[name], self.wall_seconds) for name in ("app", "mariadb")]
        return [c for c in checks if c]

    def gc(self) -> str | None:
        """The GC the app ran with, from its heap pools' names in its metrics."""
        return machine.gc_from_samples(self.after)

    def load_generator_cpu(self, seconds: float | None) -> None:
        """The CPU seconds k6 spent on this window's run (k6io.run measures them when its processes exit)."""
        self.k6_cpu = seconds if seconds is not None else math.nan

    def _probe_command(self, m: dict[str, Any]) -> str:
        command: str = m["command"]
        return command.format(seconds=max(1, int(self.duration_s) - 4), port=self.app.port,
                              database=getattr(self.app, "database", ""))

    def _start_probe(self, m: dict[str, Any]) -> subprocess.Popen[str]:
        """The probe's process: `./perflab seed …` as the seeding module's own (launcher.data_process), any other
        command split into words as a shell splits them, without a shell."""
        command = self._probe_command(m)
        # the app's own URL too: in compose's lab the app on {port} is a container, not this machine's 127.0.0.1
        argv, shell, environ = launcher.data_process(command, dict(os.environ, PERFLAB_PROBE_APP_URL=self.app.url))
        return subprocess.Popen(shlex.split(command) if shell else argv, cwd=ROOT, env=environ, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)

    def __exit__(self, *exc: object) -> Literal[False]:
        self.sampler.stop()
        self.after = prom.scrape(self.app.url)
        self.cpu_after = {**self._cpu(), "k6": self.k6_cpu}
        self.wall_seconds = time.monotonic() - self.wall_before
        self.limits_after = self._limits()
        self.status_after = mariadb_status(self.env, self.status_names)
        self._read_probes()
        return False

    def delta(self, metric: str, labels: dict[str, str] | None = None) -> float:
        return prom.total(self.after, metric, labels) - prom.total(self.before, metric, labels)

    def denominator(self, m: dict[str, Any], requests: float) -> float:
        per = m.get("per", "requests")
        return requests if per == "requests" else self.delta(per, m.get("per_labels"))

    def values(self, requests: float, mechanisms: list[dict[str, Any]] | None = None) -> dict[str, float]:
        """Each mechanism's value over the window, per `requests` where it says so; `mechanisms` replaces the
        window's own (the interleaved mode's, with one arm's labels)."""
        out: dict[str, float] = {}
        for m in mechanisms if mechanisms is not None else self.mechanisms:
            kind = m.get("kind", "delta")
            if kind in ("gauge_max", "gauge_mean"):
                values = self.sampler.values[m["name"]]
                out[m["name"]] = (max(values) if kind == "gauge_max" else sum(values) / len(values)) if values else math.nan
            elif kind == "cpu":
                spent = self.cpu_after[m["process"]] - self.cpu_before[m["process"]]
                out[m["name"]] = _divide(spent * m.get("scale", 1), self.denominator(m, requests))
            elif kind == "mariadb_status":
                spent = self.status_after.get(m["variable"], math.nan) - self.status_before.get(m["variable"], math.nan)
                out[m["name"]] = _divide(spent, self.denominator(m, requests))
            elif kind == "probe":
                pattern = m.get("pattern") or rf"\b{re.escape(m['key'])}=([0-9.eE+-]+)"
                match = re.search(pattern, self.probe_output.get(m["name"], ""))
                out[m["name"]] = float(match.group(1)) if match else math.nan
            elif kind == "k6":  # read from k6's summary after the run (k6io.summary_values), not the app
                continue
            elif kind == "ratio":
                out[m["name"]] = _divide(self.delta(m["metric"], m.get("labels")) * m.get("scale", 1), self.denominator(m, requests))
            else:
                out[m["name"]] = self.delta(m["metric"], m.get("labels"))
        return out

    def knobs(self) -> list[str]:
        return prom.knobs(self.after)


def _divide(a: float, b: float) -> float:
    return a / b if b else math.nan

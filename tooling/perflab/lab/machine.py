"""Machine profiles (experiments/machine.toml): how much CPU the app and MariaDB get, and the JVM flags that make
the app see the machine a case study ran on. A process is held to its share by a cgroup v1 `cpu` group,
/sys/fs/cgroup/cpu/perflab/<name>/ (cpu.cfs_quota_us = cpus x cpu.cfs_period_us; the pid written to cgroup.procs
moves all its threads), or by Debian's `cpulimit` where that group cannot be written. The app enters its group
before java starts (enter_command), so its startup is held too; MariaDB is moved into its group while an
experiment runs. Each limit leaves .perflab/limit-<name>.json behind, which reports read (snapshot) and release
removes. Every step is idempotent and safe when the process is gone.
"""
import errno
import json
import math
import os
import pathlib
import re
import shutil
import signal
import subprocess
import time
import tomllib
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from perflab.lab import labenv
from perflab.lab.labenv import STATE
from perflab.paths import ROOT

if TYPE_CHECKING:
    from perflab.measure import prom

PROFILES_FILE = ROOT / "experiments" / "machine.toml"
DEFAULT = "unlimited"
MARIADB = "mariadb"  # the name of MariaDB's limit (its group and state)
CGROUP_CPU = pathlib.Path(os.environ.get("PERFLAB_CGROUP_CPU", "/sys/fs/cgroup/cpu"))
PERIOD_US = 100_000
# a limit held when the process used at most its quota, give or take what reading /proc twice around a window and
# the CFS period's edges let through: 5 % of the quota and 0.02 CPU
TOLERANCE = 0.05
SLACK_CPUS = 0.02
# the GC a JVM runs, from the memory pools its metrics name (jvm_memory_used_bytes{id=...})
GC_BY_POOL = (("G1 ", "G1GC"), ("PS ", "ParallelGC"), ("ZGC", "ZGC"), ("Shenandoah", "ShenandoahGC"),
              ("Epsilon", "EpsilonGC"), ("Tenured Gen", "SerialGC"))


# ---------------------------------------------------------------------- profiles

def profiles() -> dict[str, Any]:
    return tomllib.loads(PROFILES_FILE.read_text())


def parse(name: str, table: dict[str, Any]) -> dict[str, Any]:
    """One profile's table -> {'name', 'description', 'why', 'app': {'cpus', 'jvm'}, 'mariadb': {'cpus'}}; cpus is
    None for no limit. A readable error for a key it does not know or a share that is not a positive number."""
    unknown = sorted(set(table) - {"description", "why", "app", "mariadb"})
    if unknown:
        raise SystemExit(f"{PROFILES_FILE.name} [{name}]: unknown key(s) {', '.join(unknown)}")
    out: dict[str, Any] = {"name": name, "description": table.get("description", ""), "why": table.get("why", "")}
    for process in ("app", "mariadb"):
        part = dict(table.get(process, {}))
        allowed = {"cpus", "jvm"} if process == "app" else {"cpus"}
        if set(part) - allowed:
            raise SystemExit(f"{PROFILES_FILE.name} [{name}] {process}: unknown key(s) {', '.join(sorted(set(part) - allowed))}")
        cpus = part.get("cpus")
        if cpus is not None and (isinstance(cpus, bool) or not isinstance(cpus, (int, float)) or cpus <= 0):
            raise SystemExit(f"{PROFILES_FILE.name} [{name}] {process}.cpus = {cpus!r}: a positive number of CPUs")
        out[process] = {"cpus": float(cpus) if cpus is not None else None}
        if process == "app":
            jvm = part.get("jvm", [])
            if not isinstance(jvm, list) or not all(isinstance(f, str) for f in jvm):
                raise SystemExit(f"{PROFILES_FILE.name} [{name}] app.jvm: a list of JVM flags")
            out["app"]["jvm"] = list(jvm)
    return out


def profile(name: str | None = None) -> dict[str, Any]:
    """The named profile (default: unlimited), parsed."""
    name = name or DEFAULT
    known = profiles()
    if name not in known:
        raise SystemExit(f"no machine profile {name!r} in {PROFILES_FILE.name}; known: {', '.join(known)}")
    return parse(name, known[name])


def cpus_text(cpus: float | None) -> str:
    return "unlimited" if cpus is None else f"{cpus:g} CPU"


def describe(p: dict[str, Any]) -> str:
    """'t2-micro: app 1 CPU, JVM -XX:ActiveProcessorCount=1 -XX:MaxRAM=1g; MariaDB unlimited'."""
    app = f"app {cpus_text(p['app']['cpus'])}" + (f", JVM {' '.join(p['app']['jvm'])}" if p["app"]["jvm"] else "")
    return f"{p['name']}: {app}; MariaDB {cpus_text(p['mariadb']['cpus'])}"


MEMORY_FLAGS = re.compile(r"-Xm[sx]|-XX:(MaxRAM|MaxHeapSize|InitialHeapSize|MaxRAMPercentage)\b")


def sizes_memory(jvm: Iterable[str]) -> bool:
    """Whether the flags size the heap or the memory the JVM sees: then they replace the Spring profile's heap preset."""
    return any(MEMORY_FLAGS.match(flag) for flag in jvm)


# ---------------------------------------------------------------------- quota arithmetic and the limit check

def quota_us(cpus: float | None, period_us: int = PERIOD_US) -> int:
    """cpu.cfs_quota_us for a share of cpus (the kernel's floor is 1 ms)."""
    if cpus is None or cpus <= 0:
        raise ValueError(f"a CPU quota needs a positive number of CPUs, not {cpus!r}")
    return max(1000, round(cpus * period_us))


def held(cpu_seconds: float, wall_seconds: float, cpus: float | None) -> tuple[float, bool | None]:
    """(CPU seconds per wall second, whether that stayed within the quota and its tolerance); (nan, None) unknown."""
    if cpus is None or not wall_seconds or math.isnan(cpu_seconds):
        return math.nan, None
    rate = cpu_seconds / wall_seconds
    return rate, rate <= cpus * (1 + TOLERANCE) + SLACK_CPUS


def check(name: str, before: dict[str, Any] | None, after: dict[str, Any] | None, cpu_seconds: float,
          wall_seconds: float) -> dict[str, Any] | None:
    """One process's limit over one window: its share, its CPU per wall second, whether that held, the throttled
    periods (cgroup only) and how it was held. None when the process had no limit."""
    if not after:
        return None
    rate, ok = held(cpu_seconds, wall_seconds, after["cpus"])
    out: dict[str, Any] = {"process": name, "cpus": after["cpus"], "how": after["how"],
           "cpu_per_s": None if math.isnan(rate) else round(rate, 4), "held": ok}
    if before and after.get("nr_periods") is not None and before.get("nr_periods") is not None:
        out.update(periods=after["nr_periods"] - before["nr_periods"],
                   throttled=after["nr_throttled"] - before["nr_throttled"],
                   throttled_s=round((after["throttled_time"] - before["throttled_time"]) / 1e9, 3))
    return out


# ---------------------------------------------------------------------- the cgroup, or cpulimit

def group(name: str) -> pathlib.Path:
    return CGROUP_CPU / "perflab" / name


def state_file(name: str) -> pathlib.Path:
    return STATE / f"limit-{name}.json"


def cgroup_writable() -> bool:
    """Whether this process can make groups under the cgroup v1 cpu controller."""
    parent = CGROUP_CPU / "perflab"
    try:
        parent.mkdir(exist_ok=True)
        return os.access(parent, os.W_OK) and (CGROUP_CPU / "cgroup.procs").exists()
    except OSError:
        return False


def make_group(name: str, cpus: float) -> pathlib.Path:
    """The group with its quota (made again when it is there already); its folder."""
    folder = group(name)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cpu.cfs_period_us").write_text(f"{PERIOD_US}\n")
    (folder / "cpu.cfs_quota_us").write_text(f"{quota_us(cpus)}\n")
    return folder


def enter_command(name: str, cpus: float | None,
                  argv: Sequence[str | os.PathLike[str]]) -> list[str | os.PathLike[str]]:
    """argv started inside the group `name`, held to `cpus` from its first instruction: a shell writes its own pid
    into cgroup.procs, then execs argv (same pid). Without a writable cgroup, argv unchanged (attach() then starts
    cpulimit on the pid)."""
    if cpus is None or not cgroup_writable():
        return list(argv)
    procs = make_group(name, cpus) / "cgroup.procs"
    return ["sh", "-c", 'echo $$ > "$0" && exec "$@"', str(procs), *map(str, argv)]


def record(name: str, pid: int, cpus: float, how: str, limiter: int | None = None,
           machine: str | None = None) -> dict[str, Any]:
    STATE.mkdir(parents=True, exist_ok=True)
    state = {"name": name, "pid": pid, "cpus": cpus, "how": how, "group": str(group(name)) if how == "cgroup" else None,
             "limiter": limiter, "machine": machine}
    state_file(name).write_text(json.dumps(state) + "\n")
    return state


def in_group(name: str, pid: int) -> bool:
    try:
        return str(pid) in (group(name) / "cgroup.procs").read_text().split()
    except OSError:
        return False


def limit(name: str, pid: int | None, cpus: float | None, machine: str | None = None) -> dict[str, Any] | None:
    """Holds pid (all its threads) to cpus: its cgroup, else cpulimit; `machine` names the profile it came from.
    Idempotent; None for no pid or no share."""
    if not pid or cpus is None:
        return None
    if cgroup_writable():
        if not in_group(name, pid):
            try:
                (make_group(name, cpus) / "cgroup.procs").write_text(f"{pid}\n")
            except ProcessLookupError:
                return None
        else:
            make_group(name, cpus)
        return record(name, pid, cpus, "cgroup", machine=machine)
    previous = state(name) or {}
    if previous.get("pid") == pid and previous.get("limiter") and labenv.alive(previous["limiter"]):
        return previous
    return record(name, pid, cpus, "cpulimit", start_cpulimit(pid, cpus), machine)


def cpulimit_command(pid: int, cpus: float) -> list[str]:
    """cpulimit's percentage counts one CPU as 100."""
    return ["cpulimit", "-p", str(pid), "-l", str(max(1, round(cpus * 100))), "-z", "-q"]


def start_cpulimit(pid: int, cpus: float) -> int:
    if not shutil.which("cpulimit"):
        raise SystemExit("cannot hold a process to a CPU share: the cgroup v1 cpu controller "
                         f"({CGROUP_CPU}) is not writable and cpulimit is missing (apt-get install cpulimit)")
    return subprocess.Popen(cpulimit_command(pid, cpus), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True).pid


def state(name: str) -> dict[str, Any] | None:
    try:
        stored: dict[str, Any] = json.loads(state_file(name).read_text())
        return stored
    except (OSError, ValueError):
        return None


def cpu_stat(name: str) -> dict[str, int]:
    """The group's cpu.stat as {'nr_periods', 'nr_throttled', 'throttled_time' (ns)}; {} without a group."""
    try:
        lines = (group(name) / "cpu.stat").read_text().split("\n")
    except OSError:
        return {}
    stat = dict(line.split() for line in lines if len(line.split()) == 2)
    return {k: int(stat[k]) for k in ("nr_periods", "nr_throttled", "throttled_time") if k in stat}


def snapshot(name: str) -> dict[str, Any] | None:
    """The limit on `name` now: its state and, in a cgroup, its cpu.stat counters; None without a limit."""
    s = state(name)
    if not s:
        return None
    return {"cpus": s["cpus"], "how": s["how"], **(cpu_stat(name) if s["how"] == "cgroup" else {})}


def release(name: str) -> None:
    """Back to no limit: every pid of the group into the root group, the group removed, cpulimit stopped, the state
    file gone. Safe when the process, the group or the state is gone already."""
    s = state(name) or {}
    folder = group(name)
    if folder.is_dir():
        try:
            pids = (folder / "cgroup.procs").read_text().split()
        except OSError:
            pids = []
        for pid in pids:
            try:
                (CGROUP_CPU / "cgroup.procs").write_text(f"{pid}\n")
            except OSError:  # gone meanwhile
                pass
        remove_group(folder)
    if s.get("limiter"):
        try:
            os.kill(s["limiter"], signal.SIGTERM)
        except OSError:
            pass
    state_file(name).unlink(missing_ok=True)


def remove_group(folder: pathlib.Path, within: float = 2.0) -> bool:
    """rmdir of a group; the kernel refuses it (EBUSY) while a task that just exited is still leaving it, so it
    tries again for a moment. Whether it is gone."""
    deadline = time.monotonic() + within
    while True:
        try:
            folder.rmdir()
            return True
        except FileNotFoundError:
            return True
        except OSError as error:
            if error.errno != errno.EBUSY or time.monotonic() > deadline:
                return False
        time.sleep(0.05)


def status_line(name: str) -> str:
    """'0.5 CPU (cgroup /sys/fs/cgroup/cpu/perflab/app; throttled 12 of 340 periods)', or 'none'."""
    s = snapshot(name)
    if not s:
        return "none"
    where = f"cgroup {group(name)}" if s["how"] == "cgroup" else "cpulimit"
    if s.get("nr_periods") is not None:
        where += f"; throttled {s['nr_throttled']} of {s['nr_periods']} periods"
    return f"{cpus_text(s['cpus'])} ({where})" + (f", machine profile {s['machine']}" if s.get("machine") else "")


# ---------------------------------------------------------------------- the GC the JVM runs

def gc_from_pools(pool_ids: Iterable[str]) -> str | None:
    """The GC of a JVM from its heap pools' names ('Tenured Gen' -> SerialGC, 'G1 Old Gen' -> G1GC ...); None."""
    for prefix, gc in GC_BY_POOL:
        if any(prefix in pool for pool in pool_ids):
            return gc
    return None


def gc_from_samples(samples: Iterable["prom.Sample"]) -> str | None:
    """The GC from an app's /actuator/prometheus samples (jvm_memory_used_bytes' heap pools)."""
    return gc_from_pools({s.labels.get("id", "") for s in samples
                          if s.name == "jvm_memory_used_bytes" and s.labels.get("area") == "heap"})


HEAP_POOL = re.compile(r'^jvm_memory_used_bytes\{([^}]*)\}', re.M)


def gc_from_text(text: str) -> str | None:
    """The GC from an app's /actuator/prometheus text."""
    pools: set[str] = set()
    for labels in HEAP_POOL.findall(text):
        found = dict(re.findall(r'(\w+)="([^"]*)"', labels))
        if found.get("area") == "heap":
            pools.add(found.get("id", ""))
    return gc_from_pools(pools)

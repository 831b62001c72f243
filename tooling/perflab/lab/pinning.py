"""CPU pinning (`./perflab ab <experiment> --pin app=1,load=0`, docs/experiments.md): the lab's processes on cores
of their own, so that the load generator and the database do not take the app's core at random moments.

A running process is pinned thread by thread (os.sched_setaffinity on each /proc/PID/task/TID: a JVM's threads all
exist once it answers, and the threads they start later inherit the mask); k6 is started pinned (`taskset -c`, its
Go threads inherit it). The JVM sized its GC and compiler threads by the cores it saw at start, all of them.
Unpinning gives a process every core this machine has again.

- parse(spec)              -> {role: frozenset of cores}, or SystemExit naming what is wrong
- pin(pid, cores)          -> pins every thread of a process; False when it is gone
- unpin(pid)               -> every core again
- command(argv, cores)     -> argv started on those cores (taskset -c)
- text(pins)               -> "app on core 1, load on core 0"
"""
import os
from collections.abc import Iterable, Sequence

ROLES = ("app", "load", "mariadb", "redis")  # the app(s), k6, and the stack's two stores
ENV = "PERFLAB_K6_CPUS"  # the load generator's cores, for k6io.start (set by the runner for its own k6 runs)


def available() -> frozenset[int]:
    return frozenset(os.sched_getaffinity(0))


def parse(spec: str | None) -> dict[str, frozenset[int]]:
    """`app=1,load=0` (a role's cores as taskset -c writes them: `app=1`, `app=0-1`, `app=0,2,load=1`) ->
    {role: frozenset}."""
    cores = available()
    lists: dict[str, list[str]] = {}
    role = None
    for part in filter(None, (p.strip() for p in (spec or "").split(","))):
        if "=" in part:
            role, _, part = part.partition("=")
            if role not in ROLES or role in lists:
                raise SystemExit(f"--pin {spec}: give role=cores once per role, roles {', '.join(ROLES)} (e.g. app=1,load=0)")
            lists[role] = []
        elif role is None:
            raise SystemExit(f"--pin {spec}: give role=cores, e.g. app=1,load=0")
        lists[role].append(part)
    pins: dict[str, frozenset[int]] = {}
    for role, items in lists.items():
        try:
            chosen = frozenset().union(*(_cores(i) for i in items))
        except ValueError:
            raise SystemExit(f"--pin {spec}: {role}'s {','.join(items)!r} is not a list of cores such as 1 or 0-1") from None
        if not chosen or not chosen <= cores:
            raise SystemExit(f"--pin {spec}: {role}'s cores {','.join(items)} are not all among this machine's "
                             f"{','.join(map(str, sorted(cores)))}")
        pins[role] = chosen
    return pins


def _cores(value: str) -> frozenset[int]:
    """`1` or `0-1` -> the cores; ValueError for anything else."""
    low, _, high = value.strip().partition("-")
    first, last = int(low), int(high or low)
    if first < 0 or last < first:
        raise ValueError(value)
    return frozenset(range(first, last + 1))


def _tasks(pid: int) -> list[int]:
    try:
        return [int(t) for t in os.listdir(f"/proc/{pid}/task")]
    except OSError:
        return []


def pin(pid: int | None, cores: Iterable[int]) -> bool:
    """Every thread of `pid` on `cores`; False when the process is gone (a thread that ends meanwhile is skipped)."""
    tasks = _tasks(pid) if pid else []
    for tid in tasks:
        try:
            os.sched_setaffinity(tid, cores)
        except ProcessLookupError:
            continue
    return bool(tasks)


def unpin(pid: int | None) -> bool:
    return pin(pid, available())


def command(argv: Sequence[str], cores: Iterable[int] | None) -> list[str]:
    return ["taskset", "-c", ",".join(map(str, sorted(cores))), *argv] if cores else list(argv)


def env_cores() -> frozenset[int] | None:
    """The load generator's cores from PERFLAB_K6_CPUS (`0` or `0-1`), or None."""
    value = os.environ.get(ENV, "").strip()
    return parse(f"load={value}")["load"] if value else None


def text(pins: dict[str, frozenset[int]]) -> str:
    return ", ".join(f"{role} on core{'s' if len(c) > 1 else ''} {','.join(map(str, sorted(c)))}"
                     for role, c in pins.items()) or "not pinned"

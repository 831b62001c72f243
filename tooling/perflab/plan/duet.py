"""Duet mode (`duet = true` in an experiment file, or `--duet`; docs/experiments.md): variants that need apps of their
own run each round at the same time, every variant's k6 against its own app (Bulej et al., ICPE 2020), so that the
contention of the moment falls on all of them alike and each round is a pair measured at once. Instance lifetimes
still differ: the A/A resamples them as before.

What two apps under load at once share cannot be told apart per app: the CPU of MariaDB, Redis, k6 and the machine,
and MariaDB's global status counters. Those mechanisms are left out of a duet run, and said so.

- check(e)   -> SystemExit naming what a duet cannot run
- prepare(e) -> e without the shared mechanisms (and the checks on them); returns their names
"""
from typing import Any

SHARED_PROCESSES = ("mariadb", "redis", "k6", "machine")


def shared(mechanism: dict[str, Any]) -> bool:
    """Whether a mechanism measures something both apps of a duet load at once."""
    kind = mechanism.get("kind", "delta")
    return kind == "mariadb_status" or (kind == "cpu" and mechanism.get("process", "app") in SHARED_PROCESSES)


def check(e: dict[str, Any]) -> None:
    name = e["name"]
    if e.get("interleave"):
        raise SystemExit(f"{name}: duet runs an app per variant at once; interleaved variants already share one app")
    if e["load"]["shape"] not in ("open", "closed"):
        raise SystemExit(f"{name}: a duet needs an open or closed load, not {e['load']['shape']!r}")
    if e.get("fault"):
        raise SystemExit(f"{name}: a duet cannot run a [fault]: the toxic would hit both variants' runs at once")
    primary = e["primary"]["metric"]
    if any(m["name"] == primary and shared(m) for m in e["mechanism"]):
        raise SystemExit(f"{name}: the primary metric {primary!r} is shared by the apps of a duet; run it without --duet")


def prepare(e: dict[str, Any]) -> list[str]:
    """Leaves out the mechanisms of shared processes, and the `[[check]]`s, `also` and `mechanisms` that name them."""
    check(e)
    left_out = [m["name"] for m in e["mechanism"] if shared(m)]
    e["mechanism"] = [m for m in e["mechanism"] if m["name"] not in left_out]
    for key in ("mechanisms", "also"):
        if key in e["primary"]:
            e["primary"][key] = [n for n in e["primary"][key] if n not in left_out]
    e["check"] = [c for c in e.get("check", []) if c.get("mechanism") not in left_out]
    return left_out

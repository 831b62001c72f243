"""The interleaved mode (`interleave = true` in an experiment file, docs/experiments.md): every variant in ONE app,
each request choosing its variant (its arm) at random, so that the JVM lifetime, the JIT's luck and the machine's
contention of the moment fall on both variants alike. What it cannot compare: variants that need an app of their
own (JVM flags, a profile, pool sizes, a schema or an index, a database, a commit). Those keep one app per variant.

- arm(label)            -> the header-safe name of a variant's arm (X-Perflab-Arm, the k6 tag `arm`)
- check(e)              -> SystemExit naming what the variants differ in, when one app cannot serve them all
- host(e, plant)        -> the one app's variant: the shared settings, the interleaved mode on, the arms listed
- hosts(e, plant, leak) -> the apps of a run: the one app, and with the leakage check one per variant alone
- mechanisms_for(ms, a) -> the file's mechanisms with `{arm}` in their labels replaced by arm a
"""
import copy
import re
from typing import Any

# what an app's start or data set depends on: variants that differ in one of these need apps of their own
PER_APP = ("profile", "args", "database", "seed", "reset", "heap", "jvm_opts", "aot", "ref", "env", "k6_processes")
ARM_PLACEHOLDER = "{arm}"
SIDES = ("before", "after")  # a variant's `side`: which code paths of a feature its requests take in the one app


def arm(label: str) -> str:
    """A variant's arm name: its label in lower case, runs of other characters as one '-', at most 40 characters."""
    name = re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")[:40].strip("-")
    if not name:
        raise SystemExit(f"variant {label!r}: its label gives no arm name (letters or digits needed)")
    return name


def arms(e: dict[str, Any]) -> list[str]:
    names = [arm(v["label"]) for v in e["variants"]]
    if len(set(names)) != len(names):
        raise SystemExit(f"{e['name']}: two variants give the same arm name ({', '.join(names)}): make their labels differ "
                         "in letters or digits")
    return names


def check(e: dict[str, Any]) -> None:
    """What one app cannot do: variants that differ in a per-app setting, a load shape other than an open or closed
    model, and a mechanism that is not per arm (the app's own counters are the mix of both arms)."""
    name = e["name"]
    if e["load"]["shape"] not in ("open", "closed"):
        raise SystemExit(f"{name}: interleave needs an open or closed load, not {e['load']['shape']!r}")
    first = e["variants"][0]
    differ = sorted({key for v in e["variants"][1:] for key in PER_APP if v.get(key) != first.get(key)})
    if differ:
        raise SystemExit(f"{name}: interleave runs every variant in one app, but the variants differ in {', '.join(differ)}: "
                         "a JVM flag, profile, pool size, schema, index, database or commit needs an app per variant "
                         "(leave interleave out)")
    shared = [m["name"] for m in e["mechanism"] if not _per_arm(m)]
    if shared:
        raise SystemExit(f"{name}: interleave splits only per-arm mechanisms (labels with arm = \"{ARM_PLACEHOLDER}\"); "
                         f"these are the whole app's: {', '.join(shared)}")
    arms(e)


def _per_arm(m: dict[str, Any]) -> bool:
    return any(value == ARM_PLACEHOLDER for value in {**m.get("labels", {}), **m.get("per_labels", {})}.values())


def host(e: dict[str, Any], plant: str | None = None) -> dict[str, Any]:
    """The one app: the first variant's settings, the interleaved mode on with every variant's arm and its `side`
    (before or after: which of a feature's per-request code paths the arm's requests take), and with
    `plant` (a duration, e.g. "150us") that much extra CPU per request on the last variant's arm (the power check)."""
    check(e)
    names = arms(e)
    app: dict[str, Any] = copy.deepcopy(e["variants"][0])
    app["label"] = "interleaved"
    app["args"] = [*app["args"], "--perflab.lab.interleave.enabled=true", f"--perflab.lab.interleave.arms={','.join(names)}"]
    sides = {a: v["side"] for a, v in zip(names, e["variants"]) if v.get("side")}
    bad = {a: side for a, side in sides.items() if side not in SIDES}
    if bad:
        raise SystemExit(f"{e['name']}: side {', '.join(map(repr, bad.values()))}: one of {', '.join(SIDES)}")
    app["args"] += [f"--perflab.lab.interleave.sides.{a}={side}" for a, side in sides.items()]
    if plant:
        app["args"] += [f"--perflab.lab.interleave.planted-arm={names[-1]}", f"--perflab.lab.interleave.planted-cpu={plant}"]
    app["env"] = {**app.get("env", {}), "ARMS": ",".join(names)}
    app["arm_labels"] = {a: v["label"] for a, v in zip(names, e["variants"])}  # whose run each arm's requests make
    return app


def hosts(e: dict[str, Any], plant: str | None = None, leakage: bool = False) -> list[dict[str, Any]]:
    """The apps of an interleaved run: the one app; with `leakage` also, per variant, an app like it whose load
    sends every request to that variant's arm (label "<variant> (alone)", its runs labelled so too), run in the
    same schedule at the same rate, so that each variant interleaved can be compared with itself alone: what the
    other arms' requests do to it (the JIT's profile of shared code, caches, the pool, GC, CPU)."""
    apps = [host(e, plant)]
    if leakage:
        for v in e["variants"]:
            app = host(e)
            app["label"] = alone(v["label"])
            app["env"] = {**app["env"], "ARMS": arm(v["label"])}
            app["arm_labels"] = {arm(v["label"]): alone(v["label"])}
            apps.append(app)
    return apps


def alone(label: str) -> str:
    """The label of a variant's runs in an app that serves its arm alone (hosts(leakage=True))."""
    return f"{label} (alone)"


def mechanisms_for(mechanisms: list[dict[str, Any]], arm_name: str) -> list[dict[str, Any]]:
    """The mechanisms with `{arm}` in their labels and per_labels replaced by `arm_name`."""
    out = []
    for m in mechanisms:
        m = copy.deepcopy(m)
        for key in ("labels", "per_labels"):
            if key in m:
                m[key] = {k: arm_name if v == ARM_PLACEHOLDER else v for k, v in m[key].items()}
        out.append(m)
    return out

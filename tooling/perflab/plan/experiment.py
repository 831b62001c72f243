"""An experiment file (experiments/<name>.toml) read into one shape the runner works with.

Variants are `[[variant]]` tables (the first is the baseline), or the older `[baseline]` and `[candidate]`.
The load shape (`[load] shape`) is one of: open (a fixed arrival rate), closed (VUs or a fixed number of
requests), capacity (the highest rate that holds the file's SLO), first-request (seed 003) and cold-start
(seed 000); `kind = "command"` runs a command such as a JMH benchmark instead. docs/experiments.md describes
every key.
"""
import copy
import pathlib
import tomllib
from typing import Any

from perflab.analyse import ramp
from perflab.analyse import stats
from perflab.results import schema

from perflab.paths import ROOT
DIR = ROOT / "experiments"
SHAPES = ("open", "closed", "capacity", "first-request", "cold-start")
SKIP = {"network.toml", "machine.toml"}
EXPECTATIONS = ("better", "worse", "tie", "any")  # what a primary verdict must be; "any": a control, no claim


def names() -> list[str]:
    return sorted(p.stem for p in DIR.glob("*.toml") if p.name not in SKIP)


def describe_all() -> list[str]:
    """One line per experiment: name, shape, variants, the first line of its description."""
    lines = []
    for name in names():
        e = load(name)
        labels = [v["label"] for v in e["variants"]]
        variants = (" vs ".join(labels) if len(labels) <= 3 else f"{len(labels)} variants ({labels[0]} ...)") or "one command"
        shape = e["kind"] if e["kind"] != "ab" else e["load"]["shape"]
        extra = f", sweep {e['sweep']['parameter']}" if e.get("sweep") else ""
        extra += f", profiles {'+'.join(e['profiles'])}" if e.get("profiles", ["localhost"]) != ["localhost"] else ""
        extra += f", machine {e['machine']}" if e.get("machine", "unlimited") != "unlimited" else ""
        lines.append(f"{name:<20} {shape:<13} {variants}{extra}: {e.get('summary') or e.get('description', '').split('.')[0]}")
    return lines


def read(path: pathlib.Path, seen: tuple[str, ...] = ()) -> dict[str, Any]:
    """The file's tables; `extends = "<experiment>"` starts from another file's (tables merged key by key, arrays
    and values replaced), so that a capacity search or a sweep of the wallet shares its variants and mechanisms.
    `lineage` lists the files it extends, nearest first (the runner looks there for an A/A noise floor)."""
    try:
        raw = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as error:
        raise SystemExit(f"{path.relative_to(ROOT)}: {error}")
    base_name = raw.pop("extends", None)
    if not base_name:
        return raw
    if base_name in seen:
        raise SystemExit(f"{path.name}: `extends` loops through {base_name}")
    base = read(DIR / f"{base_name}.toml", seen + (base_name,))
    return dict(merge(base, raw), lineage=[base_name, *base.get("lineage", [])])


def merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def load(name: str) -> dict[str, Any]:
    path = DIR / f"{name}.toml"
    if not path.exists() or path.name in SKIP:
        known = ", ".join(names())
        raise SystemExit(f"no experiment {name!r}; available: {known} (./perflab ab --list)")
    e = read(path)
    e.setdefault("name", name)
    e.setdefault("kind", "ab")
    if "variant" in e:
        e["variants"] = e.pop("variant")
    else:
        e["variants"] = [e[k] for k in ("baseline", "candidate") if k in e]
    if not e["variants"] and e["kind"] != "command":
        raise SystemExit(f"{path.name}: no variants ([[variant]] tables, or [baseline] and [candidate])")
    labels = [v.get("label") for v in e["variants"]]
    if None in labels or len(set(labels)) != len(labels):
        raise SystemExit(f"{path.name}: every variant needs a label of its own; got {labels}")
    dataset = e.get("dataset", {})
    for i, v in enumerate(e["variants"]):
        v.setdefault("args", [])
        v.setdefault("env", {})
        if "ref" in v and not (isinstance(v["ref"], str) and v["ref"].strip()):
            raise SystemExit(f"{path.name}: variant '{v['label']}' ref = {v['ref']!r}; a git ref, e.g. \"HEAD~1\" or \"main\"")
        for key in ("seed", "reset"):
            if key not in v and key in dataset:
                v[key] = dataset[key]
    if e["kind"] == "command":
        return e
    if e.get("estimator", stats.DEFAULT_ESTIMATOR) not in stats.ESTIMATORS:
        raise SystemExit(f"{path.name}: estimator {e['estimator']!r}; one of {', '.join(map(repr, stats.ESTIMATORS))}")
    load_ = e.setdefault("load", {})
    load_.setdefault("shape", "open")
    if load_["shape"] not in SHAPES:
        raise SystemExit(f"{path.name}: load shape {load_['shape']!r}; one of {', '.join(SHAPES)}")
    e["profiles"] = e.get("network", {}).get("profiles", ["localhost"])
    e.setdefault("machine", "unlimited")  # experiments/machine.toml
    if not isinstance(e["machine"], str):
        raise SystemExit(f"{path.name}: machine = {e['machine']!r}: the name of a profile in experiments/machine.toml")
    e.setdefault("mechanism", [])
    e.setdefault("invariant", [])
    e.setdefault("check", [])
    e.setdefault("primary", {"metric": "p95", "expect": "better"})
    for where, expect in [("[primary]", e["primary"].get("expect"))] + [(f"variant '{v['label']}'", v.get("expect")) for v in e["variants"]]:
        if expect is not None and expect not in EXPECTATIONS:
            raise SystemExit(f"{path.name}: {where} expect = {expect!r}; one of {', '.join(EXPECTATIONS)}")
    floors = e["primary"].get("floors", [])
    if not (isinstance(floors, str) or (isinstance(floors, list) and all(isinstance(f, str) for f in floors))):
        raise SystemExit(f"{path.name}: [primary] floors = {floors!r}; the A/A results that set δ, e.g. \"{e['name']}-aa\" "
                         "or a list of them")
    check_comparisons(e, path.name)
    return e


WHY_MAX = 240  # a [[writeup]]'s why: one line of a table's notes


def check_comparisons(e: dict[str, Any], where: str) -> None:
    """The keys that say what is compared with what, checked with a readable message: each variant's `against`,
    `[load] ramp` and the `[slo]` a ramp is judged by (check_ramp), the `[setting]` that chose it, `[primary]
    also`, and every `[[writeup]]`."""
    labels = [v["label"] for v in e["variants"]]
    for v in e["variants"]:
        for key in ("against", "also_against"):
            against = v.get(key)
            if against is not None and (against not in labels or against == v["label"]):
                raise SystemExit(f"{where}: variant '{v['label']}' {key} = {against!r}; name another variant: {', '.join(labels)}")
    check_ramp(e, where)
    check_setting(e, where)
    metrics = schema.run_metrics(e)
    mechanisms = [m["name"] for m in e.get("mechanism", [])]
    for metric in e["primary"].get("also", []):
        if metric not in metrics + mechanisms:
            raise SystemExit(f"{where}: [primary] also names {metric!r}; a run metric of this load ({', '.join(metrics)}) or a mechanism")
    for i, w in enumerate(e.get("writeup", [])):
        table = f"[[writeup]] {i + 1} ({w.get('stage', w.get('variant', '?'))})"
        if w.get("variant") not in labels:
            raise SystemExit(f"{where}: {table} variant = {w.get('variant')!r}; one of {', '.join(labels)}")
        if not w.get("source"):
            raise SystemExit(f"{where}: {table} needs source = \"<seed file>, <section heading>\": where the figures are")
        figures = w.get("figures")
        if not isinstance(figures, dict) or not figures:
            raise SystemExit(f"{where}: {table} needs figures = {{ p95 = ..., ... }}")
        unknown = [k for k in figures if k not in metrics + list(schema.FIGURE_ALIASES) + mechanisms]
        if unknown:
            raise SystemExit(f"{where}: {table} figures {', '.join(map(repr, unknown))}: use run metrics "
                             f"({', '.join(metrics + list(schema.FIGURE_ALIASES))}) or mechanism names")
        bad = [k for k, v in figures.items() if not isinstance(v, (int, float)) or isinstance(v, bool)]
        if bad:
            raise SystemExit(f"{where}: {table} figures {', '.join(map(repr, bad))}: a number each")
        why = w.get("why")
        if why is not None and (not isinstance(why, str) or not why.strip() or "\n" in why or len(why) > WHY_MAX):
            raise SystemExit(f"{where}: {table} why = {why!r}: one line (at most {WHY_MAX} characters), the reason "
                             "perflab's figures differ from the write-up's where they do")


def check_ramp(e: dict[str, Any], where: str) -> None:
    """`[load] ramp` (rising rates of an open load, judged by `[slo]`), its `ramp_kind` and a linear ramp's
    `segments` (one positive climb per stage) and `fall`."""
    load_ = e["load"]
    if "ramp" not in load_:
        if "ramp_kind" in load_:
            raise SystemExit(f"{where}: [load] ramp_kind needs [load] ramp = [rates of the stages]")
        return
    rates = load_["ramp"]
    if load_["shape"] != "open" or not isinstance(rates, list) or not rates or not all(
            isinstance(r, (int, float)) and r > 0 for r in rates) or rates != sorted(rates):
        raise SystemExit(f"{where}: [load] ramp = {rates!r}; an open load's arrival rates per stage, rising, e.g. [200, 400, 600]")
    if "p95_ms" not in e.get("slo", {}):
        raise SystemExit(f"{where}: [load] ramp needs [slo] p95_ms (and error_rate, default 0.01): the limits a stage must hold")
    kind = load_.get("ramp_kind", "plateaus")
    if kind not in ramp.KINDS:
        raise SystemExit(f"{where}: [load] ramp_kind = {kind!r}; one of {', '.join(map(repr, ramp.KINDS))}")
    if kind != "linear":
        return
    segments = load_.get("segments")
    if not isinstance(segments, list) or len(segments) != len(rates):
        raise SystemExit(f"{where}: [load] ramp_kind = \"linear\" needs segments = [\"60s\", ...]: one climb per stage of "
                         f"ramp ({len(rates)}); got {segments!r}")
    for key, value in [("segments", s) for s in segments] + [("fall", load_.get("fall", ramp.FALL_S))]:
        if not positive_duration(value):
            raise SystemExit(f"{where}: [load] {key} {value!r}: a positive duration each, e.g. \"60s\"")


def positive_duration(value: object) -> bool:
    try:
        return ramp.seconds(value) > 0
    except ValueError:
        return False


SETTING_KEYS: dict[str, type | tuple[type, ...]] = {"rule": str, "pilot": str, "pilot_metric": str, "connections": (int, float), "fractions": list,
                                                    "inputs": dict}


def check_setting(e: dict[str, Any], where: str) -> None:
    """The optional `[setting]`: the rule, written before the run, that chose the ramp from a pilot's measurement
    (`rule` in words, the `pilot` experiment, its mechanism `pilot_metric`, `connections`, `fractions` of the
    peak per stage; ramp.targets_from_rule), or a rule's `inputs` by name (numbers) when it chose another setting."""
    setting = e.get("setting")
    if setting is None:
        return
    if not isinstance(setting, dict):
        raise SystemExit(f"{where}: [setting] must be a table: rule, pilot, pilot_metric, connections, fractions")
    for key, value in setting.items():
        kind = SETTING_KEYS.get(key)
        if kind is None:
            raise SystemExit(f"{where}: [setting] {key!r}; its keys are {', '.join(SETTING_KEYS)}")
        if not isinstance(value, kind) or isinstance(value, bool):
            raise SystemExit(f"{where}: [setting] {key} = {value!r}; {SETTING_HELP[key]}")
    if "pilot" in setting and setting["pilot"] not in names():
        raise SystemExit(f"{where}: [setting] pilot = {setting['pilot']!r}; the experiment the rule reads, one of experiments/*.toml")
    if "pilot_metric" in setting and setting["pilot_metric"] not in [m["name"] for m in e.get("mechanism", [])]:
        raise SystemExit(f"{where}: [setting] pilot_metric = {setting['pilot_metric']!r}; {SETTING_HELP['pilot_metric']}")
    if "connections" in setting and setting["connections"] <= 0:
        raise SystemExit(f"{where}: [setting] connections = {setting['connections']!r}; {SETTING_HELP['connections']}")
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in setting.get("inputs", {}).values()):
        raise SystemExit(f"{where}: [setting] inputs = {setting['inputs']!r}; {SETTING_HELP['inputs']}")
    fractions = setting.get("fractions", [])
    if not all(isinstance(f, (int, float)) and 0 < f <= 1 for f in fractions) or (
            "ramp" in e["load"] and len(fractions) != len(e["load"]["ramp"])):
        raise SystemExit(f"{where}: [setting] fractions = {fractions!r}; {SETTING_HELP['fractions']}")


SETTING_HELP = {"rule": "the rule in words", "pilot": "the name of the pilot experiment",
                "pilot_metric": "the name of a [[mechanism]] of this file, measured in the pilot",
                "connections": "a positive number", "inputs": "a table of the rule's numbers by name", "fractions": "one fraction of the peak in (0, 1] per stage of [load] ramp"}


def assign_redis_dbs(e: dict[str, Any]) -> dict[str, Any]:
    """Each variant its own Redis logical database (10-15), so that the caches of variants side by side never mix;
    with more than six variants (the cold-start matrix, one app at a time) they share them in turn."""
    for i, v in enumerate(e["variants"]):
        v.setdefault("redis_db", 10 + i % 6)
    return e


def apply_smoke(e: dict[str, Any]) -> dict[str, Any]:
    """--smoke: the experiment's [smoke] table overrides rounds, load and sweep for a short deterministic run; its
    `env` adds to [load] env, every other key of it replaces [load]'s. A smoke judges no time, so what only evens
    out the variants' timing is off unless its table sets it: the apps warm up all at once (warmup_together) and
    do not wait to settle afterwards (settle "0s")."""
    smoke = e.get("smoke", {})
    e["rounds"] = smoke.get("rounds", 1)
    e["max_rounds"] = e["rounds"]
    if e["kind"] == "command":
        e["command"] = smoke.get("command", e["command"])
        return e
    if "only" in smoke and not e.get("variants_chosen"):  # --variant overrides the smoke's choice
        e["variants"] = [v for v in e["variants"] if v["label"] in smoke["only"]]
    e["load"].update(settle="0s", warmup_together=True)
    for key, value in smoke.items():
        if key in ("rounds", "profiles", "values", "command", "only"):
            continue
        if key == "machine":  # e.g. a smoke on an unlimited machine: apps start in seconds, not minutes
            e["machine"] = value
            continue
        if isinstance(value, dict) and isinstance(e.get(key), dict):  # e.g. a smaller [capacity] search
            e[key] = merge(e[key], value)
        elif key == "env":  # adds to [load] env, the smoke's names winning (e.g. fewer senders to log in)
            e["load"]["env"] = {**e["load"].get("env", {}), **value}
        else:
            e["load"][key] = value
    if "profiles" in smoke:
        e["profiles"] = smoke["profiles"]
    if e.get("sweep") and "values" in smoke:
        e["sweep"]["values"] = smoke["values"]
    return e


def only_variants(e: dict[str, Any], labels: list[str]) -> dict[str, Any]:
    """--variant LABEL (repeatable): run only these variants, in the file's order (the first kept is the baseline);
    checks of the variants left out go with them."""
    known = [v["label"] for v in e["variants"]]
    unknown = [label for label in labels if label not in known]
    if unknown:
        raise SystemExit(f"{e['name']}: no variant {', '.join(map(repr, unknown))}; its variants: {', '.join(known)}")
    if len(set(labels)) < 2:
        raise SystemExit(f"{e['name']}: --variant needs at least two variants to compare")
    e["variants"] = [v for v in e["variants"] if v["label"] in labels]
    e["check"] = [c for c in e.get("check", []) if c.get("variant") in (None, *labels)]
    e["variants_chosen"] = True
    return e


def with_point(e: dict[str, Any], parameter: str, value: Any) -> dict[str, Any]:
    """The experiment at one point of its sweep: `load.rate`, `load.vus`, `load.env.NAME`, `app.<spring.property>`
    (an argument for every variant) or `network.<attribute>` (handled by the runner, returned unchanged)."""
    e = copy.deepcopy(e)
    head, _, rest = parameter.partition(".")
    if head == "load":
        if rest.startswith("env."):
            e["load"].setdefault("env", {})[rest[4:]] = value
        else:
            e["load"][rest] = value
    elif head == "app":
        for v in e["variants"]:
            v["args"] = list(v["args"]) + [f"--{rest}={value}"]
    elif head != "network":
        raise SystemExit(f"sweep parameter {parameter!r}: use load.*, app.<property> or network.<attribute>")
    return e

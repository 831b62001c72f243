"""The plan of a run: the flags (parse_args) over experiments/<name>.toml, checked before anything starts (plan),
the A/A twin, --plan/--planned's lifetimes, two commits as the variants, the cells of a sweep, and δ with where it
comes from."""
import argparse
import copy
import math
import re
from typing import Any

from perflab.plan import duet
from perflab.plan import experiment as experiments
from perflab.plan import interleave
from perflab.plan import lifetimes
from perflab.lab import machine as machines
from perflab.lab import pinning
from perflab.lab import refs
from perflab.results import store
from perflab.analyse import stats
from perflab.results.units import delta_text


def log(message: str) -> None:
    print(message, flush=True)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="./perflab ab", description="perflab's experiment runner (docs/experiments.md)")
    p.add_argument("experiment", nargs="?", help="experiments/<name>.toml, by name")
    p.add_argument("--list", action="store_true", help="list the experiments, one line each")
    p.add_argument("--tables", action="store_true", help="regenerate from docs/results/*/result.json: each published REPORT.md "
                   "and its charts (*.svg), and the result tables in README.md and docs/")
    p.add_argument("--smoke", action="store_true", help="short, deterministic: the file's [smoke] settings; checks mechanisms and invariants, never a time")
    p.add_argument("--aa", action="store_true", help="A/A calibration: the candidate against itself; states the noise floor and the false-positive rate")
    p.add_argument("--setting", default="auto", choices=("auto", "here", "published"),
                   help="a [setting] rule's input (its pilot's figure): auto runs the pilot first on this machine when "
                   "the published one ran elsewhere or is missing; here always; published keeps the file's ramp")
    p.add_argument("--variant", action="append", metavar="LABEL",
                   help="run only these variants (repeat it; at least two, the first kept is the baseline)")
    p.add_argument("--rounds", type=int, help="runs per variant (default: the file's, else 10)")
    p.add_argument("--max-rounds", type=int, help="cap on rounds while the verdict is inconclusive (default: 2 x rounds)")
    p.add_argument("--rate", type=float, help="arrivals per second (open model)")
    p.add_argument("--duration", help="measured duration per run, e.g. 15s")
    p.add_argument("--profile", action="append", help="network profile(s) to run (default: the file's)")
    p.add_argument("--machine", help="machine profile of experiments/machine.toml (default: the file's `machine`, else unlimited)")
    p.add_argument("--sweep", help="sweep values, comma-separated (default: the file's)")
    p.add_argument("--floors", metavar="A/A[,A/A]", type=lambda text: text.split(","),
                   help="the A/A results whose noise floors set δ, --plant's level and --plan's pilot: published names "
                        "(docs/results/<name>) or run folders; default: the file's [primary] floors")
    p.add_argument("--delta", type=float, help=f"practical margin δ as a fraction (default: the file's, else max({margin()}, A/A "
                   "noise floor))".replace("%", "%%"))
    p.add_argument("--warm-start", action="store_true", help="start every app from the JDK 25 AOT cache when there is one "
                   "for this jar (./perflab aot build); --smoke does by default; never a cold-start experiment")
    p.add_argument("--no-jfr", action="store_true", help="do not record JFR profiles of the measured runs (a cold start's [load] jfr recording stays)")
    p.add_argument("--base-url", action="append", help="a remote lab: the URL of each variant's app, in the file's order "
                   "(repeat per variant); the runner loads and scrapes it but does not start it, and skips network profiles")
    p.add_argument("--prometheus", help="the Prometheus k6 remote-writes to (default: the local stack's, when it answers)")
    p.add_argument("--k6-processes", type=int, help="split each run's load over N k6 processes (--execution-segment)")
    p.add_argument("--baseline", metavar="REF", help="compare two commits (with --candidate): each side runs the jar "
                   "built from its ref (once, cached in .perflab/refs/) with the experiment's first variant's settings "
                   "(profile, args, database, seed) and checks, on that variant's database suffixed with the short sha, "
                   "migrated by the commit's own db/migrations; the file's other variants and write-up tables are left "
                   "out; the runner, the file and the k6 scripts stay the working tree's; exit 1 unless the candidate is "
                   "better or no different")
    p.add_argument("--candidate", metavar="REF", help="the commit compared with --baseline's, e.g. HEAD")
    p.add_argument("--plant", metavar="CPU", help="the power check (interleaved experiments): the candidate against its twin, "
                   "whose requests each burn this much extra CPU in the app, e.g. 150us; states how often the verdict "
                   "calls the twin worse over resampled analyses of the file's rounds (run with more --rounds to subsample)")
    p.add_argument("--plan", metavar="FLOOR", help="print how many JVM lifetimes, and rounds in each, bring the noise "
                   "floor to FLOOR (e.g. 5%%), from the newest A/A's variance at each level, and how long that takes")
    p.add_argument("--planned", metavar="FLOOR", help="run with --plan FLOOR's lifetimes and rounds, per profile "
                   "(with --aa: check the planned floor)")
    p.add_argument("--confidence", metavar="LEVEL", help="with --plan/--planned: size the plan for the upper LEVEL "
                   "(e.g. 80%%) confidence bound of the pilot's variance instead of its estimate (default: the estimate)")
    p.add_argument("--repeat", type=int, metavar="N", help="N separate runs of the whole experiment (apps started afresh "
                   "each time), and how many gave each verdict: with --plant, the power check's 8 of 10")
    p.add_argument("--duet", action="store_true", help="duet: every variant's run of a round at once, each against its "
                   "own app (also `duet = true` in the file; docs/experiments.md)")
    p.add_argument("--leakage", action="store_true", help="the leakage check (interleaved experiments): each variant "
                   "interleaved against itself served alone by an app of its own, in the same schedule")
    p.add_argument("--pin", metavar="ROLE=CORES", help="CPU pinning: the app, k6 (load), MariaDB and Redis on cores of "
                   "their own, e.g. app=1,load=0 (default: not pinned; docs/experiments.md)")
    p.add_argument("--out", help="output folder (default results/<timestamp>-<experiment>)")
    p.add_argument("--publish", metavar="NAME", help="also copy the result to docs/results/NAME/ (what README.md and docs/ cite)")
    p.add_argument("--reanalyse", metavar="NAME", help="recompute the published docs/results/NAME/'s statistics from its "
                   "runs with this checkout's (comparisons, A/A calibration, power check, verdict) and rewrite it")
    p.add_argument("--recalibrate", metavar="NAME", help="re-analyse the runs of the published A/A docs/results/NAME/ with "
                   "the current statistics and print its noise floors (changes nothing)")
    return p.parse_args(argv)


def plan(e: dict[str, Any], args: argparse.Namespace) -> dict[str, frozenset[int]] | None:
    """The experiment as this run makes it (the flags over the file), checked before anything starts; the --pin
    cores, or None when --plan answered instead of a run."""
    if args.variant:
        experiments.only_variants(e, args.variant)
    e["analysis_rounds"] = e.get("rounds", 10)  # the rounds an A/B of the file has: what the power check resamples
    if args.smoke:
        experiments.apply_smoke(e)
    else:
        e["rounds"] = args.rounds or e.get("rounds", 10)
        e["max_rounds"] = max(e["rounds"], args.max_rounds or e.get("max_rounds", 2 * e["rounds"]))
    if args.rate:
        e["load"]["rate"] = args.rate
    if args.duration:
        e["load"]["duration"] = args.duration
    if args.k6_processes:
        e["load"]["processes"] = args.k6_processes
    if args.profile:
        e["profiles"] = args.profile
    if args.machine:
        e["machine"] = args.machine
    machines.profile(e["machine"])  # an unknown profile stops the run before anything starts
    if args.sweep and e.get("sweep"):
        e["sweep"]["values"] = [float(v) if v.replace(".", "", 1).isdigit() else v for v in args.sweep.split(",")]
    pins = pinning.parse(args.pin)  # before the run's name: a pinned A/A is <name>-pinned-aa
    if pins:
        e["pinned"] = pinning.text(pins)
    if args.duet:
        e["duet"] = True
    if e.get("duet"):
        left_out = duet.prepare(e)
        if left_out:
            log(f"duet: left out, shared by the apps at once: {', '.join(left_out)}")
    if args.plan or args.planned:
        if plan_lifetimes(e, args):
            return None
    if args.repeat is not None and (args.repeat < 2 or args.aa or args.smoke):
        raise SystemExit("--repeat N: at least 2 separate runs, of an A/B or the power check (not --aa or --smoke)")
    if args.aa and args.plant:
        raise SystemExit("--plant runs the power check, an A/A with a known slowdown planted in the twin: leave --aa out")
    if args.aa or args.plant:
        e["variants"] = aa_variants(e)
        mode = separate_jvm_mode(e)
        e["name_suffix"] = "-power" if args.plant else f"-{mode}-aa" if mode else "-aa"
        e["check"] = []
    if args.plant:
        e["primary"]["expect"] = "worse"  # the twin's requests each burn the planted CPU
    if e.get("interleave"):
        interleave.check(e)  # before any data set is loaded: what one app cannot serve
    elif args.plant or args.leakage:
        flag = "--plant" if args.plant else "--leakage"
        raise SystemExit(f"{flag}: {e['name']} is not interleaved (interleave = true); it checks the interleaved mode")
    if args.leakage:
        if args.aa or args.plant:
            raise SystemExit("--leakage runs the variants interleaved and each alone: leave --aa and --plant out")
        e["max_rounds"] = e["rounds"]  # a check of its own: its rounds do not grow with the comparison's verdict
        e["name_suffix"] = "-leakage"
    experiments.assign_redis_dbs(e)
    return pins


COLD_SHAPES = ("cold-start", "first-request")  # what these measure is the start itself: never from the AOT cache


def warm_start(e: dict[str, Any], args: argparse.Namespace) -> bool:
    """Whether the apps start from the AOT cache (launcher.App: `app start --warm`, a plain start when the jar has
    none): the file's `warm_start` when it sets one, else for a smoke, which checks mechanisms and never a time, and
    with --warm-start; never for a shape that measures the start. The published runs started cold: an A/B started
    warm is compared with another started warm, never with them."""
    if e["load"].get("shape") in COLD_SHAPES:
        return False
    if "warm_start" in e:
        return bool(e["warm_start"])
    return bool(args.smoke or args.warm_start)


def margin() -> str:
    """The default δ, stats.MIN_DELTA, as the runner states it: "3 %"."""
    return delta_text(stats.MIN_DELTA)


def separate_jvm_mode(e: dict[str, Any]) -> str | None:
    """The mode of separate JVMs a run is in, as its A/A's name says it (<name>-<mode>-aa), whose floor its δ takes:
    "duet", "planned", "pinned", or several ("duet-planned"), or None."""
    return "-".join(m for m, on in (("duet", e.get("duet")), ("planned", e.get("planned")), ("pinned", e.get("pinned")))
                    if on) or None


def delta_for(e: dict[str, Any], args: argparse.Namespace) -> tuple[float, str, dict[str, float]]:
    """δ: --delta, else the file's min_effect, else per network profile the larger of stats.MIN_DELTA (3 %) and that
    profile's noise floor from the A/A results the run names (--floors, else the file's `[primary] floors`).
    Returns (the default δ, where it comes from, {profile: δ})."""
    if args.delta is not None:
        return args.delta, "--delta", {}
    if "min_effect" in e["primary"]:
        return e["primary"]["min_effect"], f"experiments/{e['name']}.toml", {}
    floors, source = store.noise_floor(e, getattr(args, "floors", None))
    per_profile = {profile: max(stats.MIN_DELTA, floor) for profile, floor in floors.items()}
    if not floors:
        return stats.MIN_DELTA, f"default ({margin()})", {}
    listed = ", ".join(f"{profile} {100 * per_profile[profile]:.1f} %" for profile in floors)
    return stats.MIN_DELTA, (f"for a profile without an A/A; per profile the larger of {margin()} and its A/A noise floor: "
                             f"{listed}, from {source}"), per_profile


def also_deltas_for(e: dict[str, Any], args: argparse.Namespace) -> dict[str, dict[str, float]]:
    """Per network profile, δ of each metric `[primary] also` claims: the larger of stats.MIN_DELTA and that metric's
    own A/A noise floor (a ramp's breaking rate is not as noisy as its p95, nor as quiet). {} under --delta or the
    file's min_effect, which set every metric's δ; a metric no A/A calibrated takes its profile's δ (delta_for)."""
    if args.delta is not None or "min_effect" in e["primary"]:
        return {}
    floors = store.also_floors(e, getattr(args, "floors", None))
    return {profile: {metric: max(stats.MIN_DELTA, floor) for metric, floor in by_metric.items()}
            for profile, by_metric in floors.items()}


def aa_variants(e: dict[str, Any]) -> list[dict[str, Any]]:
    """--aa: the candidate against itself, as two instances of the same configuration. In a duet the twin gets a copy
    of the candidate's database (`<database>_twin`, seeded and reset alike), as an A/B's variants have databases of
    their own: two loads at once on one data set would contend for its rows, as no A/B's do."""
    candidate = e["variants"][-1]
    twin = copy.deepcopy(candidate)
    twin["label"] = f"{candidate['label']} (A/A)"
    if e.get("duet") and twin.get("database"):
        own = f"{twin['database']}_twin"
        for key in ("seed", "reset"):
            if twin.get(key):
                twin[key] = re.sub(rf"(?<![\w-]){re.escape(twin['database'])}(?![\w-])", own, twin[key])
        twin["database"] = own
    return [copy.deepcopy(candidate), twin]


def plan_lifetimes(e: dict[str, Any], args: argparse.Namespace) -> bool:
    """--plan/--planned TARGET: lifetimes and rounds in each, for the noise floor to reach TARGET, planned from the
    newest A/A of separate JVMs (tooling/perflab/plan/lifetimes.py); printed, and with --planned applied to this run. True when the
    run ends here (--plan)."""
    if args.plan and args.planned:
        raise SystemExit("--plan prints the plan, --planned runs it: give one")
    target = share(args.plan or args.planned, "--plan/--planned", "a noise floor to reach, such as 5%")
    if e.get("interleave"):
        raise SystemExit(f"--plan: {e['name']} is interleaved: its rounds share one lifetime, whose variance cancels "
                         "in each round's ratio; plan a file of separate JVMs")
    pilot, source = store.first_aa(e, args.floors)
    if pilot is None or source is None:  # None together (store.first_aa)
        raise SystemExit(f"--plan: no A/A of {e['name']} named to plan from: run ./perflab ab {e['name']} --aa first "
                         "(the pilot) and name it (--floors, or [primary] floors in the file)")
    confidence = share(args.confidence, "--confidence", "a confidence level, such as 80%") if args.confidence else None
    plans = [p for p in lifetimes.plan(pilot, target, confidence) if p["profile"] in e["profiles"]]
    log(lifetimes.describe(plans, source))
    if args.plan:
        return True
    lifetimes.apply(e, plans)
    return False


def share(text: str, flag: str, what: str) -> float:
    """A share as a flag gives it, "5%" or 0.05, strictly between 0 and 1; SystemExit naming the flag otherwise."""
    try:
        value = float(text.rstrip("%")) / 100 if text.endswith("%") else float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < 1:
        raise SystemExit(f"{flag}: {what}, not {text}")
    return value


def commits_mode(e: dict[str, Any], args: argparse.Namespace) -> None:
    """--baseline REF --candidate REF: two commits as the variants (refs.two_commits); a usage error otherwise."""
    clash = [flag for flag, given in (("--aa", args.aa), ("--variant", args.variant), ("--base-url", args.base_url)) if given]
    if not (args.baseline and args.candidate) or clash or e["kind"] == "command":
        why = ("give both --baseline and --candidate" if not (args.baseline and args.candidate) else
               f"not with {', '.join(clash)}" if clash else f"{e['name']} runs one command, not an app")
        log(f"--baseline/--candidate: {why}")
        raise SystemExit(2)
    refs.two_commits(e, refs.resolve(args.baseline), refs.resolve(args.candidate))


def rounds_text(e: dict[str, Any]) -> str:
    """How many rounds the run plans: the file's (or --rounds) with their cap, or per profile --planned's."""
    if e.get("planned"):
        return ", ".join(f"{d['rounds']} rounds per variant in {d['lifetimes']} lifetimes on {p}"
                         for p, d in e["planned"].items()) + " (--planned)"
    return f"{e['rounds']} round(s) per variant (cap {e['max_rounds']})"


def points(e: dict[str, Any]) -> list[tuple[str | None, Any]]:
    sweep = e.get("sweep")
    return [(None, None)] if not sweep else [(sweep["parameter"], v) for v in sweep["values"]]

"""What a result holds (the bottom layer of tooling/: it imports no other module of tooling/).

A result.json is plain data; `load(data)` reads any version of it into a typed, immutable `Result` whose top level
is declared here (cells, the verdict and the experiment stay plain data inside), after migrating an older format
to the current one. `migrate(data)` does the same as plain data, for a reader that needs only part of a result.

Schema versions (`schema_version`; a file written before the field existed has its version told by its shape):

  1  the first published results: the verdict's cells do not say what the file expected of them, a reproduction
     does not name its controls
  2  each verdict cell carries `expect`, what the file expected of that candidate ("any": a control, no claim)
  3  a reproduction is judged on the claimed cells only: each of its cells says whether it is a `control`, and
     `controls_same` whether the controls repeated their verdicts too. Written with `schema_version` from here on

Also here, because a migration needs them and every layer above reads them the same way: the metrics each load
shape measures and which way is better, what a file expects of a candidate and whether a verdict meets it, and
how a reproduction is judged.
"""
import copy
import dataclasses
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Self

from perflab.results.records import Cell, Machine, Record, Verdict

SCHEMA_VERSION = 3

# ---------------------------------------------------------------------- the metrics of a run, per load shape

LATENCY = ["avg", "p50", "p90", "p95", "p99", "max"]
# a cold start's JIT and GC over its first requests, from a recording made from launch ([load] jfr = true)
COLD_JIT_GC = ["jit_compile_ms", "jit_compilations", "c2_compile_ms", "c2_compilations", "deoptimizations",
               "young_gcs", "old_gcs", "gc_pause_ms", "focus_compile_ms", "focus_cpu_pct"]
# metric -> lower is better, for the shapes' own observations
DIRECTIONS = {**{m: True for m in LATENCY}, "tps": False, "error_rate": True, "capacity": False, "served": False,
              "first_ms": True, "second_ms": True, "first_over_second": True, "idle_first_ms": True,
              "idle_second_ms": True, "idle_first_over_second": True, "ready_ms": True, "success_pct": False,
              "first100_p99": True, "first1000_p99": True, "steady_p99": True, "first100_p99_over_steady": True,
              "breaking_rate": False, **{m: True for m in COLD_JIT_GC}}
METRICS = {"open": LATENCY + ["tps", "error_rate"], "closed": LATENCY + ["tps", "error_rate"], "capacity": ["capacity", "served"],
           "first-request": ["first_ms", "second_ms", "first_over_second", "idle_first_ms", "idle_second_ms",
                             "idle_first_over_second"],
           "cold-start": ["ready_ms", "success_pct", "first100_p99", "first1000_p99", "steady_p99", "first100_p99_over_steady",
                          *COLD_JIT_GC]}


FIGURE_ALIASES = {"mean": "avg"}  # a write-up's word for a run metric ([[writeup]] figures)
RAMP_METRICS = ["breaking_rate"]  # an open load with `[load] ramp` measures these too


def run_metrics(e: Mapping[str, Any]) -> list[str]:
    """The metrics each run of the experiment's load measures: its shape's, and a ramp's."""
    load = e["load"]
    return METRICS[load["shape"]] + (RAMP_METRICS if load["shape"] == "open" and load.get("ramp") else [])


def is_command(data: Mapping[str, Any]) -> bool:
    """A result of kind "command" (JMH, a benchmark's rows) rather than an A/B: rows and no cells."""
    return data.get("rows") is not None and not data.get("cells")


# ---------------------------------------------------------------------- judgments a result stores

def expected(e: Mapping[str, Any], candidate: str) -> str:
    """What the file expects of one candidate's primary verdict: its variant's own `expect`, else [primary]'s."""
    variant: Mapping[str, Any] = next((v for v in e["variants"] if v["label"] == candidate), {})
    expect: str = variant.get("expect", e["primary"].get("expect", "better"))
    return expect


def expected_of(e: Mapping[str, Any], c: Mapping[str, Any]) -> str:
    """What the file expects of one comparison: a control (a variant's `also_against`) is "any", else the
    candidate's expectation."""
    return "any" if c.get("control") else expected(e, c["candidate"])


def who(c: Mapping[str, Any]) -> str:
    """A comparison's candidate as a reader needs it: 'wallet-after', or 'wallet-after against wallet-indexed' for
    the control a variant's `also_against` adds."""
    return f"{c['candidate']} against {c['baseline']}" if c.get("control") else c["candidate"]


def meets(verdict: str, expect: str) -> bool:
    """"any" is a cell the file makes no claim about (a control): reported, never failing the run; "tie" is met by
    "no difference"; "not worse" (a commit against another: tooling/perflab/lab/refs.py) by "better" or "no difference"."""
    return (expect == "any" or verdict == expect or (expect in ("tie", "no difference") and verdict == "no difference")
            or (expect == "not worse" and verdict in ("better", "no difference")))


def cell_key(c: Mapping[str, Any]) -> tuple[str, ...]:
    """One verdict cell's identity across runs: its network profile, sweep value and candidate (and, for the control
    a variant's `also_against` adds, the variant it is compared with)."""
    return (c["profile"], str(c.get("value")), c["candidate"]) + ((c["baseline"],) if c.get("control") else ())


def judge_reproduction(r: Mapping[str, Any], verdict_cells: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Names the controls among r's cells (a verdict cell with `expect = "any"`) and judges the reproduction:
    `same`, every claimed cell repeats its verdict; `controls_same`, every control does (None without controls)."""
    controls = {cell_key(c) for c in verdict_cells if c.get("expect") == "any"}
    cells = [dict(c, control=cell_key(c) in controls) for c in r["cells"]]
    claimed = [c for c in cells if not c["control"]]
    controlled = [c for c in cells if c["control"]]
    return dict(r, cells=cells, same=bool(claimed) and all(c["verdict"] == c["previous"] for c in claimed),
                controls_same=all(c["verdict"] == c["previous"] for c in controlled) if controlled else None)


# ---------------------------------------------------------------------- versions and migrations

def detected_version(data: Mapping[str, Any]) -> int:
    """The version of a result written before `schema_version` existed, told by its shape."""
    if any("expect" not in c for c in (data.get("verdict") or {}).get("cells", [])):
        return 1
    if data.get("reproduction") and "controls_same" not in data["reproduction"]:
        return 2
    return 3


def version_of(data: Mapping[str, Any]) -> int:
    version = data.get("schema_version", detected_version(data))
    if not isinstance(version, int) or not 1 <= version <= SCHEMA_VERSION:
        raise ValueError(f"result.json: schema_version {version!r} is not one this checkout reads (1–{SCHEMA_VERSION})")
    return version


def stamp(data: Mapping[str, Any]) -> dict[str, Any]:
    """The result with its schema_version (first) and nothing else changed: an unversioned result gets the
    version its shape tells."""
    return {"schema_version": version_of(data), **{k: v for k, v in data.items() if k != "schema_version"}}


def _to_2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 → 2: each verdict cell says what the file expected of it (an A/A: "no difference"); its `ok`
    stays as the run judged it. Comparison rows stored before they held their δ take the cell's (else the
    result's); before they held their direction and their per-round ratios: lower is better, no rounds (the
    primary rows, which the headline and the charts read)."""
    aa = "calibration" in data
    for cell in (data.get("verdict") or {}).get("cells", []):
        if "expect" not in cell:
            expect = "no difference" if aa else expected(data["experiment"], cell["candidate"])
            ok = cell.pop("ok", meets(cell["verdict"], expect))
            cell.update(expect=expect, ok=ok)
    for cell in data.get("cells", []):
        for c in cell.get("comparisons", []):
            row = c["primary"]
            row.setdefault("delta", cell.get("delta", data.get("delta")))
            row.setdefault("lower_is_better", True)
            row["round_ratios"] = row.get("round_ratios") or []
    return data


def _to_3(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 → 3: the reproduction judged on the claimed cells, its controls named (judge_reproduction)."""
    if data.get("reproduction"):
        data["reproduction"] = judge_reproduction(data["reproduction"], (data.get("verdict") or {}).get("cells", []))
    return data


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _to_2, 2: _to_3}  # version -> the step to the next one


def migrate(data: Mapping[str, Any]) -> dict[str, Any]:
    """A result of any version as plain data in the current one (a new dict; `data` is left as it was)."""
    version = version_of(data)
    out = copy.deepcopy(dict(data))
    for v in range(version, SCHEMA_VERSION):
        out = MIGRATIONS[v](out)
    out.pop("schema_version", None)
    return {"schema_version": SCHEMA_VERSION, **out}


# ---------------------------------------------------------------------- the typed top level

@dataclasses.dataclass(frozen=True, kw_only=True)
class Result(Record):
    """A result's top level, in the order result.json holds it. The A/B runner writes every field but `exit` and
    `rows`; a command experiment (kind "command": JMH, a benchmark's rows) writes name, command, started, exit,
    rows, cells (empty), machine and checks. `experiment` is the experiment as run (experiment.load, then the
    command line's overrides); cells, calibration, power (the power check's, --plant), repeats (--repeat's count of verdicts), reanalysed (--reanalyse: which checkout recomputed the
    statistics from the runs), checks and reproduction are plain data; cells and the verdict are typed records
(records.py) down to each run, comparison and statistic. `timings` (an A/B's, from issue 50 on:
older results lack it, so no new schema version) is where the run's time went, in seconds: set-up (data sets, app
starts), warm-up, resets, measurement, analysis and the total (phases.Timings)."""
    schema_version: int
    experiment: Mapping[str, Any]
    name: str
    args: Mapping[str, Any] | None = None
    command: str
    machine: Machine
    started: str | None = None
    took_seconds: float | int | None = None
    timings: Mapping[str, float] | None = None
    exit: int | None = None
    delta: float | int | None = None
    delta_source: str | None = None
    rows: tuple[Mapping[str, Any], ...] | None = None
    cells: tuple[Cell, ...] = ()
    calibration: tuple[Mapping[str, Any], ...] | None = None
    power: tuple[Mapping[str, Any], ...] | None = None
    repeats: tuple[Mapping[str, Any], ...] | None = None
    reanalysed: Mapping[str, str] | None = None
    checks: Mapping[str, Any] | None = None
    verdict: Verdict | None = None
    reproduction: Mapping[str, Any] | None = None

    @property
    def kind(self) -> str:
        kind: str = self.experiment.get("kind", "ab")
        return kind

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The typed result of data in the current version (migrate() an older one first); ValueError names what
        is wrong."""
        if data.get("schema_version") != SCHEMA_VERSION:
            raise ValueError(f"result.json: schema_version {data.get('schema_version')!r}; migrate() it to {SCHEMA_VERSION} first")
        return super().from_dict(data)


def load(data: Mapping[str, Any]) -> Result:
    """Any version of a result.json's data as the typed Result of the current version."""
    return Result.from_dict(migrate(data))


def new(data: Mapping[str, Any]) -> dict[str, Any]:
    """A result the runner has just built (the current format, without its version yet), with it: plain data,
    schema_version first."""
    return {"schema_version": SCHEMA_VERSION, **{k: v for k, v in data.items() if k != "schema_version"}}

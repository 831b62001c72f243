"""The typed records a result is made of, all the way down: a cell of a run (one network profile × sweep value), each
run of a variant in it, each comparison of a candidate with its baseline and each statistic of one, and the verdict
with its cells. Each is read from the plain data of result.json by `from_dict`, which fails naming the record and the
field that is unknown, missing or of another type, and written back by `to_dict` unchanged (its keys in their order,
an explicit null kept). Frozen: what a record holds is read-only all the way down (tuples, read-only mappings)."""
import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any, ClassVar, Self

Number = float | int


def _frozen(value: object) -> object:
    """Lists as tuples and mappings read-only, all the way down (what a record holds cannot be changed)."""
    if isinstance(value, Mapping):
        return types.MappingProxyType({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    return value


def _plain(value: object) -> object:
    """The inverse of _frozen: the JSON-shaped data (dicts and lists), records as their to_dict."""
    if isinstance(value, Record):
        return value.to_dict()
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _kinds(declared: Any) -> tuple[type, ...]:
    """The classes a field's declared type allows, as isinstance takes them: each member of a union but None,
    without its type parameters (`tuple[float, ...] | None` -> (tuple,)); () for Any (no check)."""
    members = typing.get_args(declared) if isinstance(declared, types.UnionType) else (declared,)
    if Any in members:
        return ()
    return tuple(typing.get_origin(k) or k for k in members if k is not type(None))


def _record_of(declared: Any) -> "type[Record] | None":
    """The record class a field holds one of (`Cell | None`), else None."""
    members = typing.get_args(declared) if isinstance(declared, types.UnionType) else (declared,)
    return next((k for k in members if isinstance(k, type) and issubclass(k, Record)), None)


def _records_of(declared: Any) -> "type[Record] | None":
    """The record class a field holds a tuple of (`tuple[Run, ...]`), else None."""
    members = typing.get_args(declared) if isinstance(declared, types.UnionType) else (declared,)
    for k in members:
        if typing.get_origin(k) is tuple and (args := typing.get_args(k)) and isinstance(args[0], type) \
                and issubclass(args[0], Record):
            return args[0]
    return None


def _read(cls: type, name: str, declared: Any, value: Any) -> object:
    """One field's value as the record holds it: a record, a tuple of records, or frozen plain data, checked against
    its declared type."""
    one, many = _record_of(declared), _records_of(declared)
    if one is not None and isinstance(value, Mapping):
        return one.from_dict(value)
    if many is not None and isinstance(value, (list, tuple)):
        return tuple(many.from_dict(v) for v in value)
    value = _frozen(value)
    kinds = _kinds(declared)
    if kinds and value is not None and not isinstance(value, kinds):
        raise ValueError(f"{getattr(cls, 'WHERE', cls.__name__)}: {name} should be "
                         f"{' or '.join(k.__name__ for k in kinds)}, not {type(value).__name__} ({str(value)[:60]})")
    return value


@dataclasses.dataclass(frozen=True, kw_only=True)
class Record:
    """A typed, immutable record read from plain data: every field declared with its type, none unknown, none
    required missing. `keys`: the keys it was read from, in their order (not compared)."""
    WHERE: ClassVar[str] = "result.json"
    keys: tuple[str, ...] = dataclasses.field(default=(), compare=False, repr=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        fields = [f for f in dataclasses.fields(cls) if f.name != "keys"]
        hints = typing.get_type_hints(cls)
        unknown = sorted(set(data) - {f.name for f in fields})
        if unknown:
            raise ValueError(f"{cls.WHERE}: unknown field(s) {', '.join(unknown)}")
        missing = [f.name for f in fields if f.default is dataclasses.MISSING and f.name not in data]
        if missing:
            raise ValueError(f"{cls.WHERE}: missing {', '.join(missing)}")
        values = {name: _read(cls, name, hints[name], value) for name, value in data.items()}
        return cls(keys=tuple(data), **values)

    def to_dict(self) -> dict[str, Any]:
        """The plain data it was read from: its keys in their order (a record built in code: its fields' order,
        those that are None left out)."""
        names = self.keys or tuple(f.name for f in dataclasses.fields(self)
                                   if f.name != "keys" and getattr(self, f.name) is not None)
        return {name: _plain(getattr(self, name)) for name in names}


@dataclasses.dataclass(frozen=True, kw_only=True)
class Machine(Record):
    """Where the result was measured (preparation.machine); a command experiment records only cores and load."""
    WHERE = "result.json machine"
    cores: int | None = None
    memory_kb: int | str | None = None
    os: str | None = None
    commit: str | None = None
    python: str | None = None
    load_before: tuple[float, ...] | None = None
    versions: Mapping[str, str] | None = None
    load_after: tuple[float, ...] | None = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class Run(Record):
    """One run (an observation) of one variant: its place in the cell (variant, round, arm, lifetime), the metrics of
    its load shape (schema.METRICS; None when the run did not measure one), what k6 and the app said of it, and its
    mechanisms' readings. A ramp's `stages`, a cold start's JIT and GC, a capacity search's `steps`."""
    WHERE = "result.json run"
    variant: str
    round: int | None = None
    arm: str | None = None
    lifetime: int | None = None
    testid: str | None = None
    seconds: Number | None = None
    requests: int | None = None
    failed: int | None = None
    dropped: int | None = None
    k6_exit: int | None = None
    k6_processes: int | None = None
    avg: Number | None = None
    p50: Number | None = None
    p90: Number | None = None
    p95: Number | None = None
    p99: Number | None = None
    max: Number | None = None
    tps: Number | None = None
    error_rate: Number | None = None
    capacity: Number | None = None
    served: Number | None = None
    broke_at: Number | None = None
    steps: tuple[Any, ...] | None = None
    breaking_rate: Number | None = None
    held_peak: bool | None = None
    stages: tuple[Any, ...] | None = None
    first_ms: Number | None = None
    second_ms: Number | None = None
    first_over_second: Number | None = None
    idle_s: Number | None = None
    idle_first_ms: Number | None = None
    idle_second_ms: Number | None = None
    idle_first_over_second: Number | None = None
    ready_ms: Number | None = None
    success_pct: Number | None = None
    first100_p50: Number | None = None
    first100_p95: Number | None = None
    first100_p99: Number | None = None
    first1000_p50: Number | None = None
    first1000_p95: Number | None = None
    first1000_p99: Number | None = None
    steady_p99: Number | None = None
    first100_p99_over_steady: Number | None = None
    jit_compile_ms: Number | None = None
    jit_compilations: Number | None = None
    c2_compile_ms: Number | None = None
    c2_compilations: Number | None = None
    deoptimizations: Number | None = None
    young_gcs: Number | None = None
    old_gcs: Number | None = None
    gc_pause_ms: Number | None = None
    focus_compile_ms: Number | None = None
    focus_cpu_pct: Number | None = None
    gc: str | None = None
    steady: Mapping[str, Any] | None = None
    series: tuple[Any, ...] | None = None
    mechanism: Mapping[str, Any] | None = None
    invariants: tuple[Any, ...] | None = None
    knobs: tuple[Any, ...] | None = None
    limits: tuple[Any, ...] | None = None
    jfr: str | None = None
    launch_jfr: str | None = None
    record_window_ms: Number | None = None
    dashboard: str | None = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class Statistic(Record):
    """One metric of a comparison, candidate (b) against baseline (a): the medians, the ratio b/a and its interval,
    the test's p-value (and Holm's, for a secondary metric), δ and the verdict (comparison.compare_metric)."""
    WHERE = "result.json statistic"
    metric: str
    verdict: str | None = None
    lower_is_better: bool | None = None
    delta: Number | None = None
    n: int | None = None
    n_a: int | None = None
    n_b: int | None = None
    median_a: Number | None = None
    median_b: Number | None = None
    ratio: Number | None = None
    hl_ratio: Number | None = None
    hl_shift: Number | None = None
    interval: tuple[Any, ...] | None = None
    interval_method: str | None = None
    confidence: Number | None = None
    estimator: str | None = None
    p_value: Number | None = None
    p_holm: Number | None = None
    round_ratios: tuple[Any, ...] | None = None
    warnings: tuple[Any, ...] | None = None
    censored: Mapping[str, Any] | None = None  # a lower bound compared (comparison.bounded): runs censored per variant


@dataclasses.dataclass(frozen=True, kw_only=True)
class Comparison(Record):
    """A candidate against its baseline in one cell: the primary metric's statistic, the others' rows, the sentence
    that says why (`because`), and whether it is a control (a variant's `also_against`: reported, never claimed)."""
    WHERE = "result.json comparison"
    candidate: str
    baseline: str
    primary: Statistic
    rows: tuple[Statistic, ...] = ()
    because: str | None = None
    control: bool | None = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class Cell(Record):
    """One network profile × sweep value of a run: its runs, its comparisons, its δ, and what it was planned and
    measured with (lifetimes, leakage of the interleaved mode, the write-up's figures beside perflab's)."""
    WHERE = "result.json cell"
    profile: str
    network: str | None = None
    machine: str | None = None
    parameter: str | None = None
    value: str | Number | None = None
    tag: str | None = None
    repeat: int | None = None
    delta: Number | None = None
    also_delta: Mapping[str, Number] | None = None  # δ of each `[primary] also` metric, from its own A/A floor
    planned: Mapping[str, Any] | None = None
    lifetimes: tuple[Any, ...] | None = None
    leakage: tuple[Any, ...] | None = None
    runs: tuple[Run, ...] = ()
    comparisons: tuple[Comparison, ...] = ()
    writeup: Mapping[str, Any] | None = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class VerdictCell(Record):
    """One claimed (or control) cell of the verdict: the candidate's primary verdict in a profile and sweep value,
    what the file expected of it, whether that was met, and the verdicts of its `[primary] also` metrics."""
    WHERE = "result.json verdict cell"
    profile: str
    candidate: str
    verdict: str
    value: str | Number | None = None
    baseline: str | None = None
    control: bool | None = None
    expect: str | None = None
    ok: bool | None = None
    also: tuple[Any, ...] | None = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class Verdict(Record):
    """The run's verdict: every claimed cell met what the file expected (`ok`), and each cell's."""
    WHERE = "result.json verdict"
    ok: bool
    cells: tuple[VerdictCell, ...] = ()

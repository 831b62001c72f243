"""Grafana shows each run: while a round measures, the runner publishes its window to Prometheus as the series
perflab_run_window{experiment, variant, round, profile} = 1, and every case-study dashboard draws those windows as
annotation regions (ANNOTATION); REPORT.md and report.html link to the experiment's dashboard at the run's time range
(link).

The samples go in by Prometheus' remote-write receiver (on in both stacks: stack/native.sh and docker-compose.yml),
not by a scrape: a window is stored with its own start and end, even one shorter than the 5 s scrape interval, and
nothing has to register a target. A sample at the start, one every HEARTBEAT seconds, one at the end and a 0 just
after it: the dashboards' query, max_over_time over Grafana's step, draws the window from its start to its end (a
short one as wide as a step), and a runner killed mid-window leaves no window open past its last heartbeat. The
remote-write message (a protobuf WriteRequest in a snappy block) is small enough to write here, with no library:
Prometheus itself decodes it in the tests.

The link's Grafana: PERFLAB_GRAFANA_URL, else http://127.0.0.1:$PERFLAB_GRAFANA_PORT (compose's, 3000).

    ./perflab python -m perflab.measure.runwindow check [--prometheus URL] [--lookback 1h]   the dashboards' window query has data
    ./perflab python -m perflab.measure.runwindow publish --since EPOCH --experiment X --variant V [--round N] [--profile P]
"""
import argparse
import datetime
import json
import os
import pathlib
import socket
import struct
import sys
import threading
import time
import types
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from perflab.lab import labenv
from perflab.paths import ROOT
DASHBOARDS = ROOT / "grafana" / "dashboards"
METRIC = "perflab_run_window"
LABELS = ("experiment", "variant", "round", "profile")
HEARTBEAT = 2.0  # seconds between samples while a window is open: under the annotation's step (STEP)
STEP = "5s"  # the annotation's smallest step, Prometheus' scrape interval
# the annotation every case-study dashboard carries (grafana/dashboards/perflab-case-*.json); $__interval is
# Grafana's step, so that a window shorter than a step still falls in one
ANNOTATION: dict[str, Any] = {
    "name": "perflab runs",
    "datasource": {"type": "prometheus", "uid": "prometheus"},
    "enable": True,
    "iconColor": "rgba(255, 152, 48, 0.4)",
    "expr": f"max_over_time({METRIC}[$__interval])",
    "step": STEP,
    "titleFormat": "{{experiment}}: {{variant}}, round {{round}}",
    "textFormat": "network profile {{profile}} (./perflab ab {{experiment}})",
    "tagKeys": ",".join(LABELS),
    "useValueForTime": False,
}
# the case study's dashboard of an experiment, by the start of its name; any other: the A/B dashboard
DASHBOARD_OF = (("wallet", "perflab-case-wallet"), ("route", "perflab-case-routes"), ("login", "perflab-case-login"),
                ("first-request", "perflab-case-login"), ("circuit-open", "perflab-case-login"),
                ("slow-dependency", "perflab-case-slow-dependency"), ("cold-start", "perflab-case-cold-start"),
                ("parsing", "perflab-case-cold-start"))
DEFAULT_DASHBOARD = "perflab-ab"
Say = Callable[[str], None]


def _stderr(text: str) -> None:
    print(text, file=sys.stderr)


# ---- the remote-write message: prompb.WriteRequest, snappy-framed ----

def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    """A length-delimited protobuf field (wire type 2)."""
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _series(labels: Mapping[str, str], samples: Sequence[tuple[float, int]]) -> bytes:
    """prompb.TimeSeries: labels (1: Label{1 name, 2 value}) sorted by name, samples (2: Sample{1 double value,
    2 int64 timestamp in ms})."""
    out = b"".join(_field(1, _field(1, k.encode()) + _field(2, v.encode())) for k, v in sorted(labels.items()))
    for value, ms in samples:
        out += _field(2, b"\x09" + struct.pack("<d", value) + b"\x10" + _varint(ms))
    return out


def snappy_block(data: bytes) -> bytes:
    """data as one snappy block of literals: valid snappy (what Prometheus decodes), only not compressed."""
    out = bytearray(_varint(len(data)))
    for start in range(0, len(data), 65536):
        chunk = data[start:start + 65536]
        n = len(chunk) - 1
        out += bytes([n << 2]) if n < 60 else bytes([61 << 2]) + n.to_bytes(2, "little")
        out += chunk
    return bytes(out)


def write_request(series: Sequence[tuple[Mapping[str, str], Sequence[tuple[float, int]]]]) -> bytes:
    """The body of a remote-write POST: prompb.WriteRequest{1: repeated TimeSeries}, snappy-framed."""
    return snappy_block(b"".join(_field(1, _series(labels, samples)) for labels, samples in series))


def push(url: str, series: Sequence[tuple[Mapping[str, str], Sequence[tuple[float, int]]]], timeout: float = 2.0) -> None:
    """POSTs the samples to a remote-write receiver (…/api/v1/write); raises OSError when it refuses them."""
    request = urllib.request.Request(url, data=write_request(series), method="POST", headers={
        "Content-Encoding": "snappy", "Content-Type": "application/x-protobuf",
        "X-Prometheus-Remote-Write-Version": "0.1.0"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        response.read()


# ---- a window ----

def endpoint(env: Mapping[str, str]) -> str | None:
    """The remote-write receiver of the lab's Prometheus; None when nothing listens on its port."""
    host, port = labenv.service_address("prometheus", env)
    try:
        socket.create_connection((host, int(port)), timeout=1).close()
    except OSError:
        return None
    return f"http://{host}:{port}/api/v1/write"


def labels_of(experiment: str, variant: str, round_no: int, profile: str) -> dict[str, str]:
    return {"__name__": METRIC, "experiment": experiment, "variant": variant, "round": str(round_no), "profile": profile}


class Window:
    """`with Window(url, experiment, variants, round_no, profile):` the round's window, one series per variant (a
    duet's variants share it). Publishing never fails the run: the first refusal is said once, and the window goes
    on unpublished."""

    def __init__(self, url: str | None, experiment: str, variants: Sequence[str], round_no: int, profile: str,
                 say: Say = _stderr, heartbeat: float = HEARTBEAT) -> None:
        self.url = url
        self.labels = [labels_of(experiment, v, round_no, profile) for v in variants]
        self.say = say
        self.heartbeat = heartbeat
        self.last_ms = 0
        self.lock = threading.Lock()
        self.closed = threading.Event()
        self.thread: threading.Thread | None = None

    def _publish(self, value: float, ms: int | None = None) -> None:
        with self.lock:
            if self.url is None:
                return
            ms = max(ms if ms is not None else int(time.time() * 1000), self.last_ms + 1)  # Prometheus wants time to move on
            try:
                push(self.url, [(labels, [(value, ms)]) for labels in self.labels])
                self.last_ms = ms
            except (OSError, ValueError) as e:
                self.say(f"  run window not published to {self.url} ({e}); Grafana will not show this window")
                self.url = None

    def _beat(self) -> None:
        while not self.closed.wait(self.heartbeat):
            self._publish(1)

    def __enter__(self) -> "Window":
        self._publish(1)
        self.thread = threading.Thread(target=self._beat, name="run-window", daemon=True)
        self.thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: types.TracebackType | None) -> None:
        self.closed.set()
        if self.thread:
            self.thread.join()
        self._publish(1)
        self._publish(0, self.last_ms + 1)


def publish_past(url: str, experiment: str, variant: str, round_no: int, profile: str, since: float,
                 until: float) -> None:
    """A window that is over, published afterwards as a Window would have (load the runner did not drive, e.g.
    compose's check of k6 scripts): 1 every HEARTBEAT seconds from `since`, 1 at `until`, then 0."""
    ends = int(until * 1000)
    beats = sorted({int((since + i * HEARTBEAT) * 1000) for i in range(int((until - since) / HEARTBEAT) + 1)} - {ends})
    samples = [(1.0, ms) for ms in beats if ms < ends] + [(1.0, ends), (0.0, ends + 1)]
    push(url, [(labels_of(experiment, variant, round_no, profile), samples)])


def variants_of(pairs: Sequence[tuple[Any, Mapping[str, Any]]]) -> list[str]:
    """The variant labels of a round's (app, variant) pairs: each app's label, which its meters carry as `variant`."""
    return [str(app.label) for app, _ in pairs]


# ---- the link to the dashboard at a run's time range ----

def dashboard_uid(experiment: str) -> str:
    return next((uid for prefix, uid in DASHBOARD_OF if experiment.startswith(prefix)), DEFAULT_DASHBOARD)


def grafana_url(env: Mapping[str, str] | None = None) -> str:
    env = os.environ if env is None else env
    return (env.get("PERFLAB_GRAFANA_URL") or f"http://127.0.0.1:{env.get('PERFLAB_GRAFANA_PORT') or '3000'}").rstrip("/")


def time_range(result: Mapping[str, Any]) -> tuple[int, int] | None:
    """(from, to) in ms of a run: its recorded start and its duration, a second either side; None without them."""
    if not result.get("started") or result.get("took_seconds") is None:
        return None
    began = datetime.datetime.fromisoformat(str(result["started"])).timestamp()
    return int((began - 1) * 1000), int((began + float(result["took_seconds"]) + 1) * 1000)


def link(result: Mapping[str, Any], env: Mapping[str, str] | None = None) -> tuple[str, str] | None:
    """(the dashboard's uid, its URL at the run's time range), or None for a result without its times."""
    span = time_range(result)
    experiment = result.get("experiment", {})
    if span is None or not isinstance(experiment, Mapping):
        return None
    uid = dashboard_uid(str(experiment.get("name", "")))
    return uid, f"{grafana_url(env)}/d/{uid}?" + urllib.parse.urlencode({"from": span[0], "to": span[1]})


def markdown_lines(result: Mapping[str, Any]) -> list[str]:
    """REPORT.md's line: the dashboard at this run's time range, its windows drawn."""
    found = link(result)
    return [f"- Grafana: [{found[0]}]({found[1]}), this run's time range, on the lab that ran it"] if found else []


def html_link(result: Mapping[str, Any]) -> str:
    found = link(result)
    if not found:
        return ""
    return (f'<p id="grafana">Grafana: <a href="{found[1].replace("&", "&amp;")}">{found[0]}</a>, this run\'s time range, '
            f"on the lab that ran it</p>")


# ---- the dashboards' annotation query, checked against Prometheus (promql_check) ----

def annotations(folder: pathlib.Path = DASHBOARDS) -> Iterator[tuple[str, dict[str, Any]]]:
    """(the dashboard file, the annotation) for every Prometheus annotation query of the dashboards."""
    for path in sorted(pathlib.Path(folder).glob("*.json")):
        for annotation in json.loads(path.read_text()).get("annotations", {}).get("list", []):
            if annotation.get("expr"):
                yield path.name, annotation


def check_expr(expr: str, lookback: str = "1h") -> str:
    """The annotation's query as one instant query: the range query Grafana makes over the last `lookback` at its
    smallest step, any of its points."""
    return f"max_over_time(({expr.replace('$__interval', STEP)})[{lookback}:{STEP}])"


def expressions(folder: pathlib.Path = DASHBOARDS, lookback: str = "1h") -> Iterator[tuple[str, str]]:
    """(where, the expression to check) for promql_check: each dashboard's run-window annotation."""
    for name, annotation in annotations(folder):
        yield f"{name}: annotation {annotation['name']}", check_expr(str(annotation["expr"]), lookback)


def query(prometheus: str, expr: str) -> list[dict[str, Any]]:
    url = f"{prometheus}/api/v1/query?" + urllib.parse.urlencode({"query": expr})
    with urllib.request.urlopen(url, timeout=10) as response:
        body = json.load(response)
    result: list[dict[str, Any]] = body["data"]["result"]
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="check: the dashboards' run-window annotation has data in "
                                     "Prometheus; publish: a window that is over, from --since to now")
    parser.add_argument("command", choices=["check", "publish"])
    parser.add_argument("--prometheus", default=f"http://127.0.0.1:{os.environ.get('PERFLAB_PROMETHEUS_PORT') or '9090'}")
    parser.add_argument("--lookback", default="1h", help="check: how far back a window counts (a Prometheus duration)")
    parser.add_argument("--since", type=float, help="publish: the window's start, in seconds since the epoch")
    for name in ("experiment", "variant", "profile"):
        parser.add_argument(f"--{name}", default="", help=f"publish: the window's {name}")
    parser.add_argument("--round", type=int, default=1)
    args = parser.parse_args(argv)
    if args.command == "publish":
        if args.since is None or not args.experiment or not args.variant:
            parser.error("publish needs --since, --experiment and --variant")
        publish_past(f"{args.prometheus}/api/v1/write", args.experiment, args.variant, args.round,
                     args.profile or "localhost", args.since, time.time())
        print(f"published the window of {args.experiment} {args.variant} since {args.since:.0f}")
        return 0
    failed = 0
    for where, expr in expressions(lookback=args.lookback):
        windows = query(args.prometheus, expr)
        failed += not windows
        experiments = sorted({str(w["metric"].get("experiment")) for w in windows})
        print(f"{'ok  ' if windows else 'FAIL'} {where}: {expr} -> {len(windows)} window series"
              + (f" of {', '.join(experiments)}" if windows else f" (no run of the A/B runner in the last {args.lookback})"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Keeps the provisioned Grafana dashboards honest without a Grafana: every PromQL expression in
grafana/dashboards/*.json must parse and return data from the real Prometheus, after a smoke run of the
app with k6 remote-writing into it. Dashboard variables are filled in ($left/$right/$variant -> --variant).

Some expressions have data only under a variant or a load the smoke does not run (NEEDS: the wallet's cache needs
wallet-after and transfers, the bulkhead login-after, ...). Without data those must still parse, and every metric
they name must exist: seen by this Prometheus, declared in src/main/java (perflab_*), or one of LIBRARY_METERS;
they are reported as `skip` with what they need. --require-all makes them fail like the rest: for a Prometheus
that has scraped each case study's variants under their k6 scripts.

./perflab python -m perflab.checks.promql_check --variant default [--variant after ...] [--require-all] [--prometheus http://127.0.0.1:9090]
    [--wait 60]
"""
import argparse
import json
import pathlib
import re
import sys
import time
import urllib.parse
import urllib.request
from typing import Any, Iterator

from perflab.measure import runwindow

from perflab.paths import ROOT
DASHBOARDS = ROOT / "grafana" / "dashboards"

# (pattern in the expression, what it needs to have data): the variant's knob, the load, or both
NEEDS = (
    (r"\bcache_(gets|puts)_total\{", "perflab.wallet.cache=redis (wallet-after) and k6/transfer.js"),
    (r"\bperflab_wallet_", "transfers (k6/transfer.js)"),
    (r"\bperflab_route_(codec|cache)_", "perflab.route.cache=redis (route-after) and k6/routes.js"),
    (r"\bperflab_route_phase_|uri=\"/api/universities/\{univId\}/routes\"", "route reads (k6/routes.js)"),
    (r"\bresilience4j_|\bperflab_login_guard_", "perflab.login.guard=bulkhead (login-after)"),
    (r"\bperflab_login_warmup_", "perflab.login.warmup=on (login-after)"),
    (r"\bperflab_server_warmup_", "perflab.server.warmup=on (after)"),
    (r"\bperflab_login_keepalive_", "perflab.login.keep-alive-refresh=on"),
    (r"uri=~\"/api/lab/dependency", "k6/lab-dependency.js"),
    (r"\bperflab_run_window\b", "a run of the A/B runner in the last hour (./perflab ab <experiment> --smoke)"),
)
# meters of libraries that only some variants register (so a fresh Prometheus may not have seen them yet), each
# checked against a running app's /actuator/prometheus: Resilience4j's tagged metrics (login.guard=bulkhead) and
# Micrometer's cache meters (the wallet's RedisCacheMeters, wallet.cache=redis)
LIBRARY_METERS = {
    "resilience4j_bulkhead_available_concurrent_calls", "resilience4j_bulkhead_max_allowed_concurrent_calls",
    "resilience4j_circuitbreaker_state", "cache_gets_total", "cache_puts_total",
}
METER = re.compile(r'(?:Counter|Timer|Gauge|DistributionSummary|LongTaskTimer|FunctionCounter)\.builder\(\s*"([a-z0-9.]+)"')
SUFFIXES = ("total", "seconds", "seconds_count", "seconds_sum", "seconds_max", "seconds_bucket", "count", "sum", "max",
            "bucket")
SELECTOR = re.compile(r"\b([a-zA-Z_:][a-zA-Z0-9_:]*)\{")


def expressions(folder: pathlib.Path | str = DASHBOARDS) -> Iterator[tuple[str, str]]:
    for path in sorted(pathlib.Path(folder).glob("*.json")):
        for panel in json.loads(path.read_text()).get("panels", []):
            for target in panel.get("targets", []):
                yield f"{path.name}: {panel['title']}", target["expr"]
    yield from runwindow.expressions(pathlib.Path(folder))  # the run windows' annotation, over the last hour


def fill(expr: str, variant: str) -> str:
    for name in ("$left", "$right", "$variant"):
        expr = expr.replace(name, variant)
    return expr.replace("$__rate_interval", "1m")


def needs(expr: str) -> str | None:
    """What the expression needs beyond the smoke to have data, or None."""
    return next((reason for pattern, reason in NEEDS if re.search(pattern, expr)), None)


def metric_names(expr: str) -> list[str]:
    """The metric names the expression selects with a label matcher (name{...})."""
    return sorted(set(SELECTOR.findall(expr)))


def declared_meters(src: pathlib.Path | str = ROOT / "src" / "main" / "java") -> set[str]:
    """The app's own meter names, as Prometheus writes their base name (perflab.route.phase -> perflab_route_phase)."""
    return {name.replace(".", "_") for path in pathlib.Path(src).rglob("*.java") for name in METER.findall(path.read_text())}


def declared(name: str, meters: set[str]) -> bool:
    """Whether a Prometheus metric name belongs to one of the app's declared meters (its base name plus a suffix)."""
    return any(name == base or (name.startswith(base + "_") and name[len(base) + 1:] in SUFFIXES) for base in meters)


def get(prometheus: str, path: str, params: dict[str, str]) -> Any:
    """Prometheus' JSON answer to an API call (an error's too)."""
    url = f"{prometheus}{path}?" + urllib.parse.urlencode(params)
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return json.load(response)
    except urllib.error.HTTPError as e:
        return json.load(e)


def query(prometheus: str, expr: str) -> tuple[str, Any]:
    """("data", how many series), ("empty", 0) or ("error", Prometheus' error) for an instant query."""
    body = get(prometheus, "/api/v1/query", {"query": expr})
    if body.get("status") != "success":
        return "error", body.get("error", "unknown")
    return ("data", len(body["data"]["result"])) if body["data"]["result"] else ("empty", 0)


def seen_names(prometheus: str) -> set[str]:
    """Every metric name Prometheus holds (none when it cannot say)."""
    body = get(prometheus, "/api/v1/label/__name__/values", {})
    return set(body.get("data", [])) if body.get("status") == "success" else set()


def verdict(state: str, detail: object, need: str | None, unknown: list[str],
            require_all: bool) -> tuple[bool, str, str]:
    """(ok, word, note) for one expression: data passes; an error fails; no data fails unless the expression needs
    what the smoke does not run (then: skip, as long as every metric it names exists)."""
    if state == "data":
        return True, "ok  ", ""
    if state == "error" or need is None or require_all:
        return False, "FAIL", f"  -> {state}: {detail}" + (f" (needs {need})" if need else "")
    if unknown:
        return False, "FAIL", f"  -> no such metric: {', '.join(unknown)}"
    return True, "skip", f"  -> parses; no data without {need}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--variant", action="append", required=True,
                        help="a variant label the smoke run carried (repeat for several: each expression is run for each)")
    parser.add_argument("--prometheus", default="http://127.0.0.1:9090")
    parser.add_argument("--wait", type=float, default=60, help="seconds to keep retrying expressions without data yet")
    parser.add_argument("--require-all", action="store_true",
                        help="every expression must return data, also those that need another variant or load")
    args = parser.parse_args(argv)
    variants = "|".join(args.variant)
    pending = {name + " :: " + expr: (fill(expr, variants), needs(expr)) for name, expr in expressions()}
    outcome: dict[str, tuple[str, Any, str | None, str]] = {}
    deadline = time.time() + args.wait
    while pending:
        for key, (expr, need) in list(pending.items()):
            state, detail = query(args.prometheus, expr)
            outcome[key] = (state, detail, need, expr)
            if state != "empty":
                del pending[key]
        required = [key for key, (_, need) in pending.items() if need is None or args.require_all]
        if not required or time.time() > deadline:
            break
        time.sleep(2)
    known = seen_names(args.prometheus) | LIBRARY_METERS
    meters = declared_meters()
    counts = {"ok  ": 0, "skip": 0, "FAIL": 0}
    for key, (state, detail, need, expr) in outcome.items():
        unknown = [n for n in metric_names(expr) if n not in known and not declared(n, meters)]
        ok, word, note = verdict(state, detail, need, unknown, args.require_all)
        counts[word] += 1
        print(f"{word} {key}{note}")
    print(f"promql: {counts['ok  ']} returned data, {counts['skip']} parsed but need another variant or load "
          f"(--require-all fails them), {counts['FAIL']} failed")
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())

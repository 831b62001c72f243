#!/usr/bin/env python3
"""Keeps the provisioned Grafana dashboards honest without a Grafana: every PromQL expression in
grafana/dashboards/*.json must parse and return data from the real Prometheus, after a smoke run of the
app with k6 remote-writing into it. Dashboard variables are filled in ($left/$right/$variant -> --variant).

python3 ab/promql_check.py --variant default [--prometheus http://127.0.0.1:9090] [--wait 60]
"""
import argparse
import json
import pathlib
import sys
import time
import urllib.parse
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent


def expressions():
    for path in sorted((ROOT / "grafana" / "dashboards").glob("*.json")):
        for panel in json.loads(path.read_text()).get("panels", []):
            for target in panel.get("targets", []):
                yield f"{path.name}: {panel['title']}", target["expr"]


def fill(expr, variant):
    for name in ("$left", "$right", "$variant"):
        expr = expr.replace(name, variant)
    return expr.replace("$__rate_interval", "1m")


def query(prometheus, expr):
    url = f"{prometheus}/api/v1/query?" + urllib.parse.urlencode({"query": expr})
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            body = json.load(response)
    except urllib.error.HTTPError as e:
        return "error", json.load(e).get("error", str(e))
    if body.get("status") != "success":
        return "error", body.get("error", "unknown")
    return ("data", len(body["data"]["result"])) if body["data"]["result"] else ("empty", 0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--variant", required=True, help="the variant label the smoke run carried")
    parser.add_argument("--prometheus", default="http://127.0.0.1:9090")
    parser.add_argument("--wait", type=float, default=60, help="seconds to keep retrying expressions without data yet")
    args = parser.parse_args()
    pending = {name + " :: " + expr: fill(expr, args.variant) for name, expr in expressions()}
    outcome = {}
    deadline = time.time() + args.wait
    while pending:
        for key, expr in list(pending.items()):
            state, detail = query(args.prometheus, expr)
            outcome[key] = (state, detail)
            if state != "empty":
                del pending[key]
        if not pending or time.time() > deadline:
            break
        time.sleep(2)
    passed = failed = 0
    for key, (state, detail) in outcome.items():
        ok = state == "data"
        passed += ok
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {key}" + ("" if ok else f"  -> {state}: {detail}"))
    print(f"promql: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

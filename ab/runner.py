#!/usr/bin/env python3
"""perflab's A/B runner: ./perflab ab <experiment> [--rounds N] [--rate R] [--duration D] [--smoke]

Runs the experiment's baseline (A) and candidate (B) alternately, A B A B ..., each on a fresh app with
the same discarded warm-up and the same open-model k6 load, scrapes the app's metrics around each run,
checks the invariants, and writes result.json, REPORT.md and report.html under results/. The declared
primary metric decides the exit code: 0 when the candidate wins (or ties, if the experiment expects a
tie), 1 otherwise. --smoke runs one short round and checks only what is deterministic.
"""
import argparse
import csv
import datetime
import functools
import json
import os
import pathlib
import platform
import re
import shlex
import subprocess
import sys
import threading
import time
import tomllib
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402
import stats  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
PERFLAB = str(ROOT / "perflab")
LATENCY_METRICS = ["avg", "p50", "p90", "p95", "p99", "max"]


def log(message):
    print(message, flush=True)


def env_file():
    values = {}
    for line in (ROOT / ".env").read_text().splitlines():
        if "=" in line and not line.lstrip().startswith("#"):
            key, value = line.split("=", 1)
            values[key.strip()] = value.strip()
    return values


ENV = env_file()
APP_URL = f"http://127.0.0.1:{os.environ.get('PERFLAB_APP_PORT', ENV['PERFLAB_APP_PORT'])}"
PROMETHEUS_URL = f"http://127.0.0.1:{ENV['PERFLAB_PROMETHEUS_PORT']}"
GRAFANA_URL = os.environ.get("GRAFANA_URL", f"http://127.0.0.1:{ENV['PERFLAB_GRAFANA_PORT']}")


def http_get(url, timeout=5):
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.read().decode()


def answers(url):
    try:
        http_get(url, timeout=2)
        return True
    except Exception:
        return False


def sh(command, **kwargs):
    return subprocess.run(command, shell=isinstance(command, str), check=True, cwd=ROOT, **kwargs)


# ---------------------------------------------------------------------------- metrics scraped from the app

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([^}]*)\})?\s+(\S+)')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def scrape():
    """The app's /actuator/prometheus as a list of (name, labels, value)."""
    samples = []
    for line in http_get(f"{APP_URL}/actuator/prometheus").splitlines():
        if line.startswith("#"):
            continue
        m = SAMPLE.match(line)
        if m:
            try:
                samples.append((m.group(1), dict(LABEL.findall(m.group(3) or "")), float(m.group(4))))
            except ValueError:
                pass
    return samples


def total(samples, name, labels=None):
    """The sum of every series of `name` whose labels include `labels`."""
    labels = labels or {}
    return sum(v for n, ls, v in samples if n == name and all(ls.get(k) == val for k, val in labels.items()))


class GaugeSampler(threading.Thread):
    """Samples the experiment's gauges once a second while the load runs."""

    def __init__(self, gauges):
        super().__init__(daemon=True)
        self.gauges = gauges
        self.values = {g["name"]: [] for g in gauges}
        self.stopping = threading.Event()

    def run(self):
        while not self.stopping.is_set():
            try:
                samples = scrape()
                for g in self.gauges:
                    self.values[g["name"]].append(total(samples, g["metric"], g.get("labels")))
            except Exception:
                pass
            self.stopping.wait(1.0)

    def stop(self):
        self.stopping.set()
        self.join(timeout=5)


def mechanism_values(mechanisms, before, after, sampler, requests):
    out = {}
    for m in mechanisms:
        kind = m.get("kind", "delta")
        if kind in ("gauge_max", "gauge_mean"):
            values = sampler.values.get(m["name"]) or [float("nan")]
            out[m["name"]] = max(values) if kind == "gauge_max" else sum(values) / len(values)
            continue
        delta = total(after, m["metric"], m.get("labels")) - total(before, m["metric"], m.get("labels"))
        if kind == "ratio":
            per = m["per"]
            denominator = requests if per == "requests" else (
                total(after, per, m.get("per_labels")) - total(before, per, m.get("per_labels")))
            out[m["name"]] = delta / denominator if denominator else float("nan")
        else:
            out[m["name"]] = delta
    return out


def knob_values(samples):
    return sorted(f"{ls['feature']}.{ls['knob']}={ls['value']}" for n, ls, v in samples if n == "perflab_variant_info")


# ---------------------------------------------------------------------------- one run of one side

@functools.cache
def k6_binary():
    return subprocess.run([str(ROOT / "stack" / "native.sh"), "bin"], capture_output=True, text=True, check=True).stdout.strip() + "/k6"


def k6_run(experiment, side, rate, duration, testid, out_dir=None, quiet=True):
    load = experiment["load"]
    env = dict(os.environ, BASE_URL=APP_URL, RATE=str(rate), DURATION=duration, VARIANT=side["label"], TESTID=testid,
               **{k: str(v) for k, v in load.get("env", {}).items()})
    command = [k6_binary(), "run", "--quiet", "--no-color", "--tag", f"testid={testid}", "--tag", f"variant={side['label']}"]
    if out_dir is not None:
        env["SUMMARY"] = str(out_dir / f"k6-{testid}.json")
        command += ["--out", f"csv={out_dir / f'k6-{testid}.csv'}"]
        if answers(f"{PROMETHEUS_URL}/-/ready"):
            env["K6_PROMETHEUS_RW_SERVER_URL"] = f"{PROMETHEUS_URL}/api/v1/write"
            env["K6_PROMETHEUS_RW_TREND_STATS"] = "p(50),p(90),p(95),p(99),max"
            command += ["-o", "experimental-prometheus-rw"]
    command.append(str(ROOT / load["script"]))
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=quiet, text=True)
    return result.returncode


def read_k6_csv(path, scenario):
    """Latencies (ms) and failures of the scenario's requests, with their timestamps (s)."""
    latencies, times, failed = [], [], 0
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["scenario"] != scenario:
                continue
            if row["metric_name"] == "http_req_duration":
                latencies.append(float(row["metric_value"]))
                times.append(int(row["timestamp"]))
            elif row["metric_name"] == "http_req_failed" and float(row["metric_value"]) > 0:
                failed += 1
    return latencies, times, failed


def per_second(latencies, times):
    buckets = {}
    for t, v in zip(times, latencies):
        buckets.setdefault(t, []).append(v)
    if not buckets:
        return []
    start = min(buckets)
    return [{"t": t - start, "rps": len(vs), "p50": stats.percentile(vs, 50), "p95": stats.percentile(vs, 95),
             "p99": stats.percentile(vs, 99)} for t, vs in sorted(buckets.items())]


def side_env(side):
    """The environment for a side's shell commands: its database as PERFLAB_DB_NAME."""
    return dict(os.environ, PERFLAB_DB_NAME=side.get("database", os.environ.get("PERFLAB_DB_NAME", ENV["PERFLAB_DB_NAME"])))


def run_invariants(invariants, side):
    results = []
    env = side_env(side)
    for inv in invariants:
        if "command" in inv:
            ran = subprocess.run(inv["command"], shell=True, cwd=ROOT, capture_output=True, text=True, env=env)
            results.append({"name": inv["name"], "ok": ran.returncode == 0, "value": (ran.stdout + ran.stderr).strip()[-300:]})
        elif "sql" in inv:
            db = env["PERFLAB_DB_NAME"]
            value = subprocess.run(["mariadb", "-h127.0.0.1", f"-P{ENV['PERFLAB_DB_PORT']}", f"-u{ENV['PERFLAB_DB_USER']}",
                                    f"-p{ENV['PERFLAB_DB_PASSWORD']}", "-N", "-B", db, "-e", inv["sql"]],
                                   capture_output=True, text=True).stdout.strip()
            results.append({"name": inv["name"], "ok": value == str(inv["expect"]), "value": value})
    return results


def annotate(text, tags):
    """A Grafana annotation at each variant switch, when a Grafana answers (compose)."""
    try:
        body = json.dumps({"text": text, "tags": ["perflab-ab"] + tags}).encode()
        request = urllib.request.Request(f"{GRAFANA_URL}/api/annotations", data=body,
                                         headers={"Content-Type": "application/json"}, method="POST")
        urllib.request.urlopen(request, timeout=2).read()
    except Exception:
        pass


def run_side(experiment, side, round_no, args, out_dir):
    load = experiment["load"]
    reset = side.get("reset", experiment.get("dataset", {}).get("reset"))
    if reset:
        subprocess.run(reset, shell=True, check=True, cwd=ROOT, env=side_env(side), stdout=subprocess.DEVNULL)
    app_args = list(side.get("args", [])) + [f"--perflab.variant={side['label']}"]
    if side.get("database"):
        app_args.append(f"--spring.datasource.url=jdbc:mariadb://127.0.0.1:{ENV['PERFLAB_DB_PORT']}/{side['database']}")
    profile = ["--profile", side["profile"]] if side.get("profile") else []
    subprocess.run([PERFLAB, "app", "stop"], cwd=ROOT, capture_output=True)
    start = subprocess.run([PERFLAB, "app", "start", *profile, "--", *app_args], cwd=ROOT, capture_output=True, text=True)
    if start.returncode != 0:
        raise SystemExit(f"the app did not start for {side['label']}:\n{start.stdout}{start.stderr}")
    testid = f"{experiment['name']}-{side['label']}-r{round_no}"
    annotate(f"A/B {experiment['name']}: {side['label']} round {round_no}", [side["label"], testid])
    k6_run(experiment, side, args.rate, load.get("warmup", "10s"), testid + "-warmup")
    before = scrape()
    gauges = [m for m in experiment.get("mechanism", []) if m.get("kind", "delta").startswith("gauge")]
    sampler = GaugeSampler(gauges)
    sampler.start()
    k6_exit = k6_run(experiment, side, args.rate, args.duration, testid, out_dir)
    sampler.stop()
    after = scrape()
    latencies, times, failed = read_k6_csv(out_dir / f"k6-{testid}.csv", load["scenario"])
    seconds = parse_seconds(args.duration)
    run = {"side": side["label"], "round": round_no, "testid": testid, "k6_exit": k6_exit, **stats.summarize(latencies),
           "tps": len(latencies) / seconds, "error_rate": failed / len(latencies) if latencies else float("nan"),
           "requests": len(latencies), "series": per_second(latencies, times), "knobs": knob_values(after)}
    run["mechanism"] = mechanism_values(experiment.get("mechanism", []), before, after, sampler, len(latencies))
    run["invariants"] = run_invariants(experiment.get("invariant", []), side)
    log(f"  {side['label']:<14} round {round_no}: p50 {run['p50']:.1f} ms, p95 {run['p95']:.1f} ms, "
        f"{run['tps']:.1f} req/s, errors {100 * run['error_rate']:.2f}%, "
        + ", ".join(f"{k} {v:.3g}" for k, v in run["mechanism"].items())
        + "".join(f", invariant '{i['name']}' {'ok' if i['ok'] else 'BROKEN'}" for i in run["invariants"]))
    return run


def parse_seconds(duration):
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s|m)", duration)
    if not m:
        raise SystemExit(f"duration {duration!r}: use e.g. 30s or 2m")
    value, unit = float(m.group(1)), m.group(2)
    return value / 1000 if unit == "ms" else value * 60 if unit == "m" else value


# ---------------------------------------------------------------------------- the whole experiment

def compare_all(experiment, runs):
    a = [r for r in runs if r["side"] == experiment["baseline"]["label"]]
    b = [r for r in runs if r["side"] == experiment["candidate"]["label"]]
    effect = experiment.get("primary", {}).get("min_effect", 0.03)
    rows = [stats.compare(a, b, m, lower_is_better=True, min_effect=effect) for m in LATENCY_METRICS]
    rows.append(stats.compare(a, b, "tps", lower_is_better=False, min_effect=effect))
    rows.append(stats.compare(a, b, "error_rate", lower_is_better=True, min_effect=effect))
    flat = lambda rs: [dict(r, **r["mechanism"]) for r in rs]  # noqa: E731
    for m in experiment.get("mechanism", []):
        rows.append(stats.compare(flat(a), flat(b), m["name"], lower_is_better=m.get("better", "lower") == "lower",
                                  min_effect=effect))
    return rows


def smoke_checks(experiment, runs):
    """Deterministic checks for CI: mechanism values per side, and the invariants. Returns (passed, failures)."""
    passed, failures = 0, []
    for check in experiment.get("check", []):
        for run in (r for r in runs if r["side"] == experiment[check["side"]]["label"]):
            value = run["mechanism"].get(check["mechanism"])
            ok = value is not None and {
                "==": lambda v, t: abs(v - t) < 1e-9, "<=": lambda v, t: v <= t, ">=": lambda v, t: v >= t,
            }[check["op"]](value, check["value"])
            line = f"{check['side']} {check['mechanism']} = {value} (expected {check['op']} {check['value']})"
            log(("  ok    " if ok else "  FAIL  ") + line)
            if ok:
                passed += 1
            else:
                failures.append(line)
    for run in runs:
        for inv in run["invariants"]:
            if inv["ok"]:
                passed += 1
            else:
                failures.append(f"{run['testid']}: invariant '{inv['name']}' broken ({inv.get('value', '')})")
    return passed, failures


def machine():
    mem = next((l.split()[1] for l in open("/proc/meminfo") if l.startswith("MemTotal")), "?")
    versions = {}
    for name, command in {"java": [os.path.join(os.environ.get("JAVA_HOME", "/usr"), "bin", "java"), "-version"],
                          "k6": [k6_binary(), "version"], "mariadb": ["mariadb", "--version"],
                          "redis": ["redis-server", "--version"]}.items():
        try:
            r = subprocess.run(command, capture_output=True, text=True, timeout=20)
            versions[name] = (r.stdout + r.stderr).strip().splitlines()[0]
        except Exception as e:  # a missing tool is recorded, not fatal
            versions[name] = f"unavailable: {e}"
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    return {"cores": os.cpu_count(), "memory_kb": int(mem) if mem.isdigit() else mem, "os": platform.platform(),
            "python": platform.python_version(), "commit": commit or "unknown", "versions": versions}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="./perflab ab", description=__doc__.splitlines()[0])
    parser.add_argument("experiment", help="a file experiments/<name>.toml, by name")
    parser.add_argument("--rounds", type=int, help="A B pairs (default: the experiment's, else 3)")
    parser.add_argument("--rate", type=float, help="arrivals per second (default: the experiment's)")
    parser.add_argument("--duration", help="measured duration per run, e.g. 30s (default: the experiment's)")
    parser.add_argument("--smoke", action="store_true", help="1 round, short and slow; check only what is deterministic")
    parser.add_argument("--out", help="output folder (default results/<timestamp>-<experiment>)")
    args = parser.parse_args(argv)

    path = ROOT / "experiments" / f"{args.experiment}.toml"
    if not path.exists():
        names = sorted(p.stem for p in (ROOT / "experiments").glob("*.toml"))
        raise SystemExit(f"no experiment {args.experiment!r}; available: {', '.join(names)}")
    experiment = tomllib.loads(path.read_text())
    load = experiment["load"]
    smoke = experiment.get("smoke", {})
    args.rounds = args.rounds or (1 if args.smoke else experiment.get("rounds", 3))
    args.rate = args.rate or (smoke.get("rate", 5) if args.smoke else load["rate"])
    args.duration = args.duration or (smoke.get("duration", "5s") if args.smoke else load["duration"])
    if args.smoke:
        load["warmup"] = smoke.get("warmup", "3s")

    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out_dir = pathlib.Path(args.out) if args.out else ROOT / "results" / f"{stamp}-{experiment['name']}"
    out_dir.mkdir(parents=True, exist_ok=True)
    log(f"A/B {experiment['name']}: {experiment['baseline']['label']} (A) vs {experiment['candidate']['label']} (B), "
        f"{args.rounds} round(s), {args.rate:g}/s for {args.duration} after {load.get('warmup', '10s')} of warm-up -> {out_dir}")

    status = subprocess.run([str(ROOT / "stack" / "native.sh"), "status"], capture_output=True, text=True).stdout
    if " down " in status:
        log("bringing the stack up (./perflab stack up)")
        sh([PERFLAB, "stack", "up"], stdout=subprocess.DEVNULL)
    for side in (experiment["baseline"], experiment["candidate"]):
        seed = side.get("seed", experiment.get("dataset", {}).get("seed"))
        if seed:
            log(f"dataset for {side['label']}: {seed}")
            subprocess.run(seed, shell=True, check=True, cwd=ROOT, env=side_env(side))

    started = time.time()
    runs = []
    try:
        for round_no in range(1, args.rounds + 1):
            for side in (experiment["baseline"], experiment["candidate"]):
                runs.append(run_side(experiment, side, round_no, args, out_dir))
    finally:
        subprocess.run([PERFLAB, "app", "stop"], cwd=ROOT, capture_output=True)

    comparisons = compare_all(experiment, runs)
    primary = experiment.get("primary", {"metric": "p50", "expect": "better"})
    primary_row = next(c for c in comparisons if c["metric"] == primary["metric"])
    won = primary_row["verdict"] == primary.get("expect", "better") or (
        primary.get("expect") == "tie" and primary_row["verdict"] in ("no difference", "better"))
    result = {"experiment": experiment, "args": vars(args), "command": " ".join(shlex.quote(a) for a in sys.argv),
              "machine": machine(), "started": datetime.datetime.fromtimestamp(started).isoformat(timespec="seconds"),
              "took_seconds": round(time.time() - started, 1), "runs": runs, "comparisons": comparisons,
              "primary": {"metric": primary["metric"], "verdict": primary_row["verdict"], "candidate_wins": won}}
    passed, failures = smoke_checks(experiment, runs)
    result["checks_failed"] = failures
    (out_dir / "result.json").write_text(json.dumps(result, indent=1, default=str))
    (out_dir / "REPORT.md").write_text(report.markdown(result))
    (out_dir / "report.html").write_text(report.html(result))
    log("")
    log(report.table(result))
    log(f"\nprimary metric {primary['metric']}: {primary_row['verdict']} "
        f"(B/A median {primary_row['median_ratio']:.3f}, 95% interval {primary_row['interval'][0]:.3f}–{primary_row['interval'][1]:.3f})")
    log(f"report: {out_dir / 'REPORT.md'} and {out_dir / 'report.html'}")
    if args.smoke:
        log(f"smoke {experiment['name']}: {passed} passed, {len(failures)} failed")
        return 1 if failures else 0
    if failures:
        log("invariants broken: " + "; ".join(failures))
        return 1
    return 0 if won else 1


if __name__ == "__main__":
    sys.exit(main())

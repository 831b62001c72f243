"""The CPU sources of the `cpu` mechanism kind: the machine's non-idle time and the load generator's own CPU."""
import json
import math
import subprocess
import sys

from perflab.measure import k6io
from perflab.measure import app_metrics

SPIN = "import time\nwhile time.process_time() < {0}: pass"


def test_machine_cpu_counts_every_busy_state_but_idle_and_iowait(tmp_path):
    stat = tmp_path / "stat"
    # user nice system idle iowait irq softirq steal guest guest_nice
    stat.write_text("cpu  100 20 30 5000 700 4 6 40 0 0\ncpu0 50 10 15 2500 350 2 3 20 0 0\nintr 1 2 3\n")
    assert app_metrics.machine_cpu_seconds(stat) == (100 + 20 + 30 + 4 + 6 + 40) / app_metrics.CLOCK_TICKS


def test_machine_cpu_is_nan_without_a_readable_stat(tmp_path):
    assert math.isnan(app_metrics.machine_cpu_seconds(tmp_path / "missing"))


def test_children_cpu_counts_the_child_reaped_inside_the_block_and_not_one_reaped_before():
    earlier = subprocess.Popen([sys.executable, "-c", SPIN.format(0.6)])
    earlier.wait()
    spinner = subprocess.Popen([sys.executable, "-c", SPIN.format(0.4)])
    with k6io.ChildrenCpu() as cpu:
        spinner.wait()
    assert 0.4 <= cpu.seconds < 0.6 + 0.3  # its own 0.4 s and the interpreter's start, not the earlier 0.6 s


def test_a_probe_command_gets_the_windows_seconds_and_the_apps_port_database_and_url():
    class App:
        port, database, url = 8131, "perflab_wallet_before", "http://perflab-ab-8131:8080"
    probe = {"name": "p", "kind": "probe",
             "command": "sh -c 'echo seconds={seconds} port={port} db={database} url=$PERFLAB_PROBE_APP_URL'"}
    window = app_metrics.Window(App(), [probe], {}, 12)
    out, _ = window._start_probe(probe).communicate(timeout=10)
    assert out.strip() == "seconds=8 port=8131 db=perflab_wallet_before url=http://perflab-ab-8131:8080"


def test_two_probes_of_one_command_run_it_once_and_both_read_its_output(tmp_path):
    class App:
        port, database, url = 8131, "d", "http://127.0.0.1:8131"
    runs = tmp_path / "runs"
    command = f"sh -c 'echo run >> {runs}; echo gap_only=1 statement_ms=0.03'"
    probes = [{"name": "gaps", "kind": "probe", "command": command, "key": "gap_only"},
              {"name": "time", "kind": "probe", "command": command, "key": "statement_ms"}]
    window = app_metrics.Window(App(), probes, {}, 12)
    window._start_probes()
    window._read_probes()
    assert runs.read_text() == "run\n"
    assert window.probe_output["gaps"] == window.probe_output["time"] == "gap_only=1 statement_ms=0.03\n"


def test_a_ratio_is_scaled_like_a_cpu_share():
    class App:
        port, database = 1, "d"
    prom = __import__("perflab.measure.prom", fromlist=["prom"])
    before = [prom.Sample("used_seconds_sum", {}, 1.0), prom.Sample("transfers_count", {}, 10.0)]
    after = [prom.Sample("used_seconds_sum", {}, 1.5), prom.Sample("transfers_count", {}, 110.0)]
    little = {"name": "pool needed", "kind": "ratio", "metric": "used_seconds_sum", "per": "transfers_count", "scale": 300}
    window = app_metrics.Window(App(), [little], {}, 10)
    window.before, window.after = before, after
    assert window.values(100) == {"pool needed": 0.5 / 100 * 300}


def test_a_k6_mechanism_is_a_statistic_of_the_scripts_own_metric_from_its_summary(tmp_path):
    def summary(name, count, p90):
        path = tmp_path / name
        path.write_text(json.dumps({"metrics": {"lab_accepted_ms": {"type": "trend", "values": {
            "count": count, "p(90)": p90, "max": 2 * p90}}}}))
        return path
    mechanisms = [{"name": "admitted", "kind": "k6", "metric": "lab_accepted_ms", "stat": "count"},
                  {"name": "p90", "kind": "k6", "metric": "lab_accepted_ms", "stat": "p(90)"},
                  {"name": "gone", "kind": "k6", "metric": "lab_rejected_ms", "stat": "count"},
                  {"name": "rejected at once", "kind": "delta", "metric": "x"}]
    one = k6io.summary_values(summary("a.json", 12, 1003.5), mechanisms)
    assert one["admitted"] == 12 and one["p90"] == 1003.5 and math.isnan(one["gone"]) and "rejected at once" not in one
    # two k6 processes: their counts add up; a percentile of the whole cannot be told from theirs
    two = k6io.summary_values([summary("a.json", 12, 1003.5), summary("b.json", 8, 990.0)], mechanisms)
    assert two["admitted"] == 20 and math.isnan(two["p90"])
    assert math.isnan(k6io.summary_values(tmp_path / "missing.json", mechanisms)["admitted"])
    assert k6io.summary_values(tmp_path / "missing.json", mechanisms[3:]) == {}

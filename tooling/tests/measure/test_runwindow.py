"""The run windows (tooling/perflab/measure/runwindow.py): the remote-write message as the lab's real Prometheus decodes it, a window's
samples and the dashboards' annotation query over them (also a window shorter than a scrape interval), a refusing
Prometheus never failing a run, every case-study dashboard drawing the windows, and the reports' link."""
import datetime
import json
import os
import pathlib
import time
import urllib.parse
import urllib.request
import uuid

import pytest

from perflab.measure import runwindow

from perflab.paths import ROOT
PROMETHEUS = f"http://127.0.0.1:{os.environ.get('PERFLAB_PROMETHEUS_PORT') or '9090'}"


def prometheus_up():
    try:
        with urllib.request.urlopen(f"{PROMETHEUS}/-/ready", timeout=2):
            return True
    except OSError:
        return False


needs_prometheus = pytest.mark.skipif(not prometheus_up(), reason=f"no Prometheus at {PROMETHEUS} (./perflab up)")


def unique():
    return f"test-runwindow-{uuid.uuid4().hex[:12]}"


def range_query(expr, start, end, step="5s"):
    url = f"{PROMETHEUS}/api/v1/query_range?" + urllib.parse.urlencode(
        {"query": expr, "start": start, "end": end, "step": step})
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.load(response)["data"]["result"]


# ---- the message ----

def test_varints_are_protobufs():
    assert runwindow._varint(1) == b"\x01" and runwindow._varint(300) == b"\xac\x02"
    assert runwindow._varint(2 ** 35) == bytes.fromhex("808080808001")  # a timestamp in ms needs six bytes


def test_a_snappy_block_is_its_length_then_literals():
    assert runwindow.snappy_block(b"abc") == b"\x03" + bytes([2 << 2]) + b"abc"
    big = bytes(range(256)) * 300  # 76,800 bytes: two literals, each with a two-byte length
    block = runwindow.snappy_block(big)
    assert block[:3] == runwindow._varint(len(big)) and block[3] == 61 << 2 and block[4:6] == (65535).to_bytes(2, "little")
    assert len(block) == 3 + 3 + 65536 + 3 + len(big) - 65536


@needs_prometheus
def test_prometheus_stores_what_a_push_sends():
    name, now = unique(), int(time.time() * 1000)
    labels = runwindow.labels_of(name, "with a long variant label " + "x" * 80, 3, "localhost")
    runwindow.push(f"{PROMETHEUS}/api/v1/write", [(labels, [(1.0, now - 1000), (0.5, now)])])
    got = runwindow.query(PROMETHEUS, f'{runwindow.METRIC}{{experiment="{name}"}}[1m]')
    assert [s["metric"] for s in got] == [labels]
    assert [(round(float(t) * 1000), v) for t, v in got[0]["values"]] == [(now - 1000, "1"), (now, "0.5")]


# ---- a window ----

@needs_prometheus
def test_a_window_is_a_sample_at_its_start_heartbeats_its_end_and_a_zero():
    name = unique()
    began = time.time()
    with runwindow.Window(runwindow.endpoint(os.environ), name, ["a", "b"], 2, "lan", heartbeat=0.3):
        time.sleep(1)
    ended = time.time()
    got = runwindow.query(PROMETHEUS, f'{runwindow.METRIC}{{experiment="{name}"}}[1m]')
    assert sorted(s["metric"]["variant"] for s in got) == ["a", "b"]
    for series in got:
        assert series["metric"]["round"] == "2" and series["metric"]["profile"] == "lan"
        times, values = [float(t) for t, _ in series["values"]], [v for _, v in series["values"]]
        assert values[-1] == "0" and set(values[:-1]) == {"1"} and len(values) >= 4  # start, heartbeats, end
        assert began - 0.01 <= times[0] and times[-2] <= ended + 0.01 and times == sorted(times)


@needs_prometheus
@pytest.mark.parametrize("seconds", [0.2, 12])
def test_the_annotation_draws_a_window_from_its_start_to_its_end_even_under_a_scrape_interval(seconds):
    """Grafana's range query at its smallest step: every step inside the window is drawn (value > 0), a window
    shorter than a step in the step after its start, and at most a step after its end."""
    name = unique()
    began = time.time()
    with runwindow.Window(runwindow.endpoint(os.environ), name, ["v"], 1, "localhost"):
        time.sleep(seconds)
    ended = time.time()
    expr = runwindow.ANNOTATION["expr"].replace("$__interval", runwindow.STEP).replace(
        runwindow.METRIC, f'{runwindow.METRIC}{{experiment="{name}"}}')
    points = range_query(expr, int(began) - 20, int(ended) + 20)[0]["values"]
    drawn = [float(t) for t, v in points if float(v) > 0]
    assert drawn and all(began <= t <= ended + 5.01 for t in drawn)
    assert drawn[-1] >= ended and (seconds < 5 or drawn[0] <= began + 5)


def test_a_refusing_prometheus_is_said_once_and_never_fails_the_run():
    said = []
    with runwindow.Window("http://127.0.0.1:9/api/v1/write", "x", ["a"], 1, "localhost", say=said.append, heartbeat=0.05):
        time.sleep(0.2)
    assert len(said) == 1 and "not published" in said[0]


def test_no_receiver_publishes_nothing():
    with runwindow.Window(None, "x", ["a"], 1, "localhost") as window:
        pass
    assert window.last_ms == 0


def test_a_rounds_variants_are_its_apps_labels():
    class App:
        def __init__(self, label):
            self.label = label
    assert runwindow.variants_of([(App("wallet-before"), {}), (App("wallet-after"), {"arm_labels": {}})]) == [
        "wallet-before", "wallet-after"]


# ---- the dashboards ----

def case_dashboards():
    return sorted((ROOT / "grafana" / "dashboards").glob("perflab-case-*.json"))


@pytest.mark.parametrize("path", case_dashboards(), ids=lambda p: p.name)
def test_every_case_study_dashboard_draws_the_run_windows(path):
    annotations = json.loads(path.read_text())["annotations"]["list"]
    assert runwindow.ANNOTATION in annotations
    assert runwindow.METRIC in runwindow.ANNOTATION["expr"]
    assert set(runwindow.ANNOTATION["tagKeys"].split(",")) == set(runwindow.LABELS)


def test_promql_check_runs_each_dashboards_window_query_over_a_past_range():
    found = dict(runwindow.expressions())
    assert {name.split(":")[0] for name in found} >= {p.name for p in case_dashboards()}
    assert set(found.values()) == {f"max_over_time((max_over_time({runwindow.METRIC}[5s]))[1h:5s])"}


# ---- the link ----

def test_every_experiment_links_a_dashboard_that_exists():
    uids = {json.loads(p.read_text())["uid"] for p in (ROOT / "grafana" / "dashboards").glob("*.json")}
    for name in [p.stem for p in (ROOT / "experiments").glob("*.toml")]:
        assert runwindow.dashboard_uid(name) in uids, name
    assert runwindow.dashboard_uid("wallet-fixed") == "perflab-case-wallet"
    assert runwindow.dashboard_uid("first-request") == "perflab-case-login"
    assert runwindow.dashboard_uid("machine") == "perflab-ab"


def test_the_link_is_the_dashboard_at_the_runs_time_range(monkeypatch):
    monkeypatch.delenv("PERFLAB_GRAFANA_URL", raising=False)
    monkeypatch.setenv("PERFLAB_GRAFANA_PORT", "3000")
    result = {"experiment": {"name": "wallet"}, "started": "2026-11-28T16:00:00", "took_seconds": 60.0}
    began = int(datetime.datetime.fromisoformat("2026-11-28T16:00:00").timestamp())
    url = f"http://127.0.0.1:3000/d/perflab-case-wallet?from={(began - 1) * 1000}&to={(began + 61) * 1000}"
    assert runwindow.markdown_lines(result) == [
        f"- Grafana: [perflab-case-wallet]({url}), this run's time range, on the lab that ran it"]
    assert f'href="{url.replace("&", "&amp;")}"' in runwindow.html_link(result)
    monkeypatch.setenv("PERFLAB_GRAFANA_URL", "https://grafana.example/")
    assert runwindow.link(result)[1].startswith("https://grafana.example/d/perflab-case-wallet?from=")


def test_a_result_without_its_times_has_no_link():
    assert runwindow.markdown_lines({"experiment": {"name": "wallet"}}) == [] and runwindow.html_link({}) == ""


def test_a_lab_without_prometheus_has_no_receiver():
    assert runwindow.endpoint({"PERFLAB_PROMETHEUS_PORT": "9"}) is None


@needs_prometheus
def test_a_window_that_is_over_is_published_as_a_window_would_have_been():
    name, now = unique(), time.time()
    assert runwindow.main(["publish", "--prometheus", PROMETHEUS, "--since", str(now - 7), "--experiment", name,
                           "--variant", "after", "--profile", "compose"]) == 0
    got = runwindow.query(PROMETHEUS, f'{runwindow.METRIC}{{experiment="{name}"}}[1m]')
    values = [v for _, v in got[0]["values"]]
    assert got[0]["metric"]["variant"] == "after" and values[-1] == "0" and set(values[:-1]) == {"1"} and len(values) >= 5

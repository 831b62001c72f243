"""procedures.settle against real processes: one idle, one spinning, one absent; the first-request shape's two triggers
against a local HTTP server."""
import subprocess
import sys
import tomllib
import types
from pathlib import Path

import pytest

from perflab.measure import procedures
from perflab.paths import ROOT


def test_settle_waits_for_every_process_in_one_window_and_reports_the_busy_one():
    idle = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    spinning = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        settled = procedures.settle({"idle": idle.pid, "spinning": spinning.pid, "gone": None}, {"settle": "3s"})
    finally:
        idle.kill(), spinning.kill()
    assert list(settled) == ["idle", "spinning", "gone"]
    assert settled["idle"]["quiet"] and settled["idle"]["seconds"] <= 3
    assert not settled["spinning"]["quiet"] and settled["spinning"]["seconds"] >= 3
    assert settled["gone"] == {"seconds": 0.0, "quiet": True}


def _recording_warm_ups(monkeypatch, timeout):
    """procedures.warm_up replaced by one that records its app and whether the other warm-up ran at the same time
    (both met at a barrier of two within `timeout` seconds; once broken, every later one is alone at once)."""
    import threading
    at_once = threading.Barrier(2, timeout=timeout)
    warmed = []

    def warm_up(ctx, app, variant, load):
        try:
            at_once.wait()
            warmed.append((app, "together"))
        except threading.BrokenBarrierError:
            warmed.append((app, "alone"))
    monkeypatch.setattr(procedures, "warm_up", warm_up)
    return warmed


def test_a_smokes_warm_ups_run_at_once(monkeypatch):
    warmed = _recording_warm_ups(monkeypatch, timeout=30)
    procedures.warm_up_all(None, [("a", {}), ("b", {})], {"warmup": "4s", "warmup_together": True})
    assert sorted(warmed) == [("a", "together"), ("b", "together")]


def test_warm_ups_run_one_by_one_in_order_unless_together_and_never_together_bare(monkeypatch):
    for load in ({"warmup": "4s"}, {"warmup": "4s", "warmup_together": True, "warmup_network": "bare"}):
        warmed = _recording_warm_ups(monkeypatch, timeout=0.5)
        procedures.warm_up_all(None, [("b", {}), ("a", {})], load)
        assert warmed == [("b", "alone"), ("a", "alone")]


class FakeApp:
    """An app on a local HTTP server: POST /login answers 200 and counts one opened connection per login whose
    body names a user of the 3000s (the first request after the idle period); /actuator/prometheus shows the count."""

    def __init__(self):
        import http.server
        import threading
        import time

        app = self
        self.arrivals = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"])).decode()
                app.arrivals.append((time.monotonic(), body))
                self.send_response(200)
                self.end_headers()

            def do_GET(self):
                opened = sum(1 for _, body in app.arrivals if '"user3' in body)
                text = f"# TYPE opened_total counter\nopened_total {opened}\n".encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/plain; version=0.0.4")
                self.end_headers()
                self.wfile.write(text)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.label, self.instance = "fake", "fake-1"
        self.lab_database = False  # the fake has no database: no MariaDB counters to read
        self.engine_cpu_seconds = dict  # no engine counts its CPU: NaN

    def start(self):
        pass

    def pid(self):
        return None


def test_first_request_run_times_the_deploy_and_the_idle_trigger_and_reads_the_mechanism_around_the_idle_one():
    app = FakeApp()
    ctx = types.SimpleNamespace(env={}, e={
        "load": {"shape": "first-request", "idle": "300ms"},
        "request": {"method": "POST", "path": "/login", "body": '{"loginId":"user{n}"}', "expect": 200},
        "mechanism": [{"name": "new connections on the first request after idle", "kind": "delta", "metric": "opened_total"}]})
    try:
        run = procedures.first_request_run(ctx, app, {}, 1, {"tag": "localhost"})
    finally:
        app.server.shutdown()
    assert [body for _, body in app.arrivals] == [f'{{"loginId":"user{n}"}}' for n in (1001, 2001, 3001, 4001)]
    second_arrived, idle_first_arrived = app.arrivals[1][0], app.arrivals[2][0]
    assert idle_first_arrived - second_arrived >= 0.3
    assert run["idle_s"] == 0.3
    assert all(run[k] > 0 for k in ("first_ms", "second_ms", "idle_first_ms", "idle_second_ms"))
    assert run["idle_first_over_second"] == run["idle_first_ms"] / run["idle_second_ms"]
    assert run["mechanism"] == {"new connections on the first request after idle": 1.0}


def test_an_idle_period_is_bounded():
    assert procedures.idle_seconds({}) == 0
    assert procedures.idle_seconds({"idle": "21s"}) == 21
    with pytest.raises(SystemExit, match="at most 120 s"):
        procedures.idle_seconds({"idle": "5m"})


def test_a_request_body_takes_the_number_and_the_installs_member_password(monkeypatch):
    monkeypatch.setattr(procedures.labsecrets, "member_password", lambda: "Gen3rated")
    spec = {"body": '{"loginId":"user{n}","password":"{member_password}"}'}
    assert procedures.request_body(spec, 7) == b'{"loginId":"user7","password":"Gen3rated"}'
    assert procedures.request_body({}, 7) is None
    assert b"perflab-pass" not in b"".join(
        procedures.request_body({"body": tomllib.loads(p.read_text())["request"]["body"]}, 1)
        for p in sorted((ROOT / "experiments").glob("*.toml"))
        if "body" in tomllib.loads(p.read_text()).get("request", {}))

"""tooling/perflab/lab/pinning.py: --pin's roles and cores, and pinning a real process's threads (this test's own child)."""
import os
import subprocess
import sys

import pytest

from perflab.lab import pinning


def test_roles_take_cores_as_taskset_writes_them(monkeypatch):
    monkeypatch.setattr(pinning, "available", lambda: frozenset({0, 1, 2, 3}))
    assert pinning.parse("app=1,load=0") == {"app": {1}, "load": {0}}
    assert pinning.parse("app=0,2,load=1-3") == {"app": {0, 2}, "load": {1, 2, 3}}
    assert pinning.parse(None) == {} and pinning.parse("") == {}
    assert pinning.text(pinning.parse("app=2-3,load=0")) == "app on cores 2,3, load on core 0"


@pytest.mark.parametrize("spec, says", [("gpu=1", "roles app, load"), ("1,app=0", "give role=cores"),
                                        ("app=1,app=0", "once per role"), ("app=x", "not a list of cores"),
                                        ("app=3-1", "not a list of cores"), ("app=9", "not all among")])
def test_a_wrong_pin_says_what_is_wrong(monkeypatch, spec, says):
    monkeypatch.setattr(pinning, "available", lambda: frozenset({0, 1}))
    with pytest.raises(SystemExit, match=says):
        pinning.parse(spec)


def test_a_running_process_is_pinned_thread_by_thread_and_unpinned():
    child = subprocess.Popen([sys.executable, "-c", "import threading, time\n"
                              "[threading.Thread(target=time.sleep, args=(30,), daemon=True).start() for _ in range(3)]\n"
                              "time.sleep(30)"])
    try:
        core = min(pinning.available())
        tasks = pinning._tasks(child.pid)
        assert pinning.pin(child.pid, {core})
        assert all(os.sched_getaffinity(t) == {core} for t in pinning._tasks(child.pid) if t in tasks)
        assert pinning.unpin(child.pid) and os.sched_getaffinity(child.pid) == pinning.available()
    finally:
        child.kill()
        child.wait()
    assert not pinning.pin(child.pid, {core})  # gone


def test_k6_starts_on_the_load_generators_cores(monkeypatch):
    monkeypatch.setenv(pinning.ENV, "0")
    assert pinning.command(["k6", "run"], pinning.env_cores()) == ["taskset", "-c", "0", "k6", "run"]
    monkeypatch.delenv(pinning.ENV)
    assert pinning.env_cores() is None and pinning.command(["k6"], None) == ["k6"]

"""The lab seam (tooling/perflab/lab/seam.py): both labs answer every method the runner calls, a remote lab's apps are the URLs given
(never started, limited or seeded here), and the runner's services check names what is down."""

import pytest

from perflab.lab import seam
from perflab.lab import launcher

EXPERIMENT = {"name": "x", "variants": []}
VARIANTS = [{"label": "before", "args": [], "redis_db": 1}, {"label": "after", "args": [], "redis_db": 2}]


def test_both_labs_are_labs_and_the_run_picks_the_remote_one_only_for_base_urls():
    assert isinstance(seam.NativeLab(), seam.Lab) and isinstance(seam.RemoteLab(["http://a"]), seam.Lab)
    assert type(seam.for_run(None)) is seam.NativeLab and type(seam.for_run(["http://a"])) is seam.RemoteLab


def test_a_remote_labs_apps_are_its_urls_and_it_holds_nothing():
    remote = seam.RemoteLab(["http://10.0.0.1:8080/", "http://10.0.0.2:8080"])
    apps = remote.apps(EXPERIMENT, VARIANTS, {}, ["--x"], ["--y"])
    assert [type(a) for a in apps] == [launcher.RemoteApp, launcher.RemoteApp]
    assert [(a.label, a.url, a.pid()) for a in apps] == [("before", "http://10.0.0.1:8080", None),
                                                         ("after", "http://10.0.0.2:8080", None)]
    assert remote.hold_database(0.5, "seed-004") is None and remote.remote


def test_a_native_labs_apps_get_a_port_database_and_redis_db_each():
    apps = seam.NativeLab().apps(EXPERIMENT, VARIANTS, {"PERFLAB_DB_NAME": "perflab"}, ["--db-port", "23306"], ["--z"])
    assert [(a.label, a.port, a.redis_db) for a in apps] == [("before", launcher.BASE_PORT, 1),
                                                             ("after", launcher.BASE_PORT + 1, 2)]
    assert "--db-port" in apps[0].options and apps[0].args[-2:] == ["--z", "--perflab.variant=before"]


def test_a_service_that_is_down_is_named_and_the_stack_started(monkeypatch):
    said, started = [], []
    monkeypatch.setattr(seam.labenv, "port_open", lambda port, timeout=2.0: int(port) != 6379)
    monkeypatch.setattr(seam.labenv, "native", lambda *args, **options: started.append(args))
    monkeypatch.setattr(seam.labenv, "compose_lab_running", lambda: False)
    env = {"PERFLAB_DB_PORT": "3306", "PERFLAB_REDIS_PORT": "6379", "PERFLAB_WIREMOCK_PORT": "8089",
           "PERFLAB_TOXIPROXY_PORT": "8474"}
    seam.NativeLab(said.append).ensure_services(env)
    assert said == ["Redis is not running on 127.0.0.1:6379: starting the stack (./perflab stack up)"]
    assert started == [("up",)]


SERVICES_ENV = {"PERFLAB_DB_PORT": "3306", "PERFLAB_REDIS_PORT": "6379", "PERFLAB_WIREMOCK_PORT": "8089",
                "PERFLAB_TOXIPROXY_PORT": "8474"}


def test_the_runner_refuses_the_native_stack_while_the_compose_lab_holds_its_ports(tmp_path, monkeypatch, fake_docker):
    """Issue 48's collision: with the compose lab up, MariaDB, Redis and Prometheus answer on the native ports, so
    every port looks open and the runner would seed and measure compose's services with the native credentials.
    It stops instead, naming the compose lab and the command that stops it, and starts nothing."""
    log = fake_docker("3f2a9c1d\\n")
    started = []
    monkeypatch.setattr(seam.labenv, "port_open", lambda port, timeout=2.0: True)
    monkeypatch.setattr(seam.labenv, "native", lambda *args, **options: started.append(args))
    with pytest.raises(SystemExit) as stopped:
        seam.NativeLab().ensure_services(SERVICES_ENV)
    assert "compose lab" in str(stopped.value) and "./perflab down" in str(stopped.value)
    assert started == []
    assert "compose --project-directory" in log.read_text() and "ps -q --status running" in log.read_text()


def test_a_docker_without_the_compose_lab_running_leaves_the_native_stack_alone(tmp_path, monkeypatch, fake_docker):
    fake_docker("")
    monkeypatch.setattr(seam.labenv, "port_open", lambda port, timeout=2.0: True)
    said = []
    seam.NativeLab(said.append).ensure_services(SERVICES_ENV)
    assert said == []

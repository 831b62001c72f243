"""./perflab's command line (tooling/perflab/cli.py, tooling/perflab/commands/) and the lab around it (tooling/perflab/lab/labenv.py, tooling/perflab/lab/appctl.py): the one
registry, the help it builds, the dispatch and the suggestion for a mistyped command; .env; the JDK 25 lookup of the
entry script; the options of app, up, migrate and lb; the supervision of the lab's processes; the test count."""
import os
import pathlib
import signal
import socket
import subprocess
import sys
import textwrap
import time

import pytest

from perflab.lab import appctl
from perflab import cli
from perflab.lab import labenv
from perflab.commands import help as help_command
from perflab.commands import k6 as k6_command
from perflab.commands import lb as lb_command
from perflab.commands import migrate, up
from perflab.commands import test as test_command

ROOT = labenv.ROOT
PERFLAB = str(ROOT / "perflab")


# ---- the registry, help, dispatch, suggestions ----

def test_the_registry_is_the_one_list_of_the_command_modules():
    modules = {p.stem for p in (ROOT / "tooling" / "perflab" / "commands").glob("*.py")} - {"__init__"}
    assert set(cli.COMMANDS) == modules, "every module of tooling/perflab/commands/ is a command of cli.COMMANDS, and back"
    assert len(set(cli.COMMANDS)) == len(cli.COMMANDS)
    for name in cli.COMMANDS:
        command = cli.module(name)
        assert command.SYNOPSIS.split()[0] == name, f"commands/{name}.py's SYNOPSIS starts with its name"
        assert command.SUMMARY and callable(command.main)


def test_the_help_lists_every_command_in_the_registrys_order_in_two_columns():
    text = help_command.text(cli.COMMANDS)
    assert text.startswith("usage: ./perflab <command> [options]\n\n  up [--profile P] [--instances N] [-- app args]\n")
    positions = [text.index(f"\n  {cli.module(name).SYNOPSIS.splitlines()[0]}") for name in cli.COMMANDS]
    assert positions == sorted(positions)
    assert "\n  stack up|down|status [svc...]    only the native services: mariadb redis wiremock toxiproxy prometheus\n" \
        in text
    assert "\n  help                             this text\n" in text
    assert text.endswith("refuses the development values committed in the repository.")


def test_a_summary_sits_beside_a_short_synopsis_and_under_a_long_one():
    assert help_command.entry("aot build|status", "train it\nthen more") == [
        "  aot build|status                 train it", " " * 35 + "then more"]
    long = "newcomer [--keep] [--keep-data] [--only PAGE]"
    assert help_command.entry(long, "a clone\nfollows") == [f"  {long}", " " * 35 + "a clone", " " * 35 + "follows"]


@pytest.mark.parametrize("typo, nearest", [
    ("newcomr", "newcomer"), ("stauts", "status"), ("sattus", "status"), ("upp", "up"), ("hlep", "help"),
    ("migrat", "migrate"), ("k7", "k6"), ("chaoss", "chaos"), ("xyzzy", None), ("deployment", None)])
def test_a_mistyped_command_gets_the_nearest_one_within_two_edits(typo, nearest):
    assert cli.suggest(typo) == nearest


def test_the_edit_distance_counts_a_swap_of_neighbours_as_one():
    assert cli.distance("status", "sattus") == 1
    assert cli.distance("", "abc") == 3 and cli.distance("kitten", "sitting") == 3 and cli.distance("up", "up") == 0


def test_an_unknown_command_is_one_line_naming_the_nearest(monkeypatch):
    with pytest.raises(SystemExit) as stopped:
        cli.main(["newcomr"])
    assert stopped.value.code == "perflab: unknown command 'newcomr'; did you mean 'newcomer'? (./perflab help lists them)"
    with pytest.raises(SystemExit) as stopped:
        cli.main(["xyzzy"])
    assert stopped.value.code == "perflab: unknown command 'xyzzy' (./perflab help lists them)"


@pytest.mark.parametrize("argv", [[], ["help"], ["-h"], ["--help"]])
def test_no_command_and_the_help_aliases_print_the_help(argv, capsys, monkeypatch):
    monkeypatch.setattr(labenv, "load_env", lambda *a, **k: None)
    assert cli.main(argv) == 0
    assert capsys.readouterr().out == help_command.text(cli.COMMANDS) + "\n"


def test_a_command_gets_its_arguments_and_dot_env_loaded_first(monkeypatch):
    calls = []
    monkeypatch.setattr(labenv, "load_env", lambda *a, **k: calls.append("env"))
    monkeypatch.setattr(cli.module("logs"), "main", lambda argv: calls.append(argv) or 7)
    assert cli.main(["logs", "-x", "--", "y"]) == 7
    assert calls == ["env", ["-x", "--", "y"]]


def test_the_entry_script_is_thin_and_sources_nothing():
    script = (ROOT / "perflab").read_text()
    assert len(script.splitlines()) <= 150
    assert not [line for line in script.splitlines() if line.lstrip().startswith((". ", "source "))]
    assert 'exec "$python" -m perflab "$@"' in script


def test_the_command_line_end_to_end():
    typo = subprocess.run([PERFLAB, "stauts"], capture_output=True, text=True)
    assert (typo.returncode, typo.stdout) == (1, "")
    assert typo.stderr == "perflab: unknown command 'stauts'; did you mean 'status'? (./perflab help lists them)\n"
    shown = subprocess.run([PERFLAB], capture_output=True, text=True)
    assert shown.returncode == 0 and shown.stdout == help_command.text(cli.COMMANDS) + "\n"


# ---- .env ----

def test_dot_env_gives_defaults_and_the_environment_wins(tmp_path):
    (tmp_path / ".env").write_text(textwrap.dedent("""\
        # a comment=ignored
        PERFLAB_APP_PORT=8080
        PERFLAB_DB_NAME=perflab
        PERFLAB_EMPTY=
        PERFLAB_URL=jdbc:x?a=b
        lower_case=skipped
         PERFLAB_INDENTED=skipped
        PERFLAB_SET_EMPTY=from-file
        """))
    environ = {"PERFLAB_APP_PORT": "8082", "PERFLAB_SET_EMPTY": ""}
    labenv.load_env(tmp_path, environ)
    assert environ == {"PERFLAB_APP_PORT": "8082", "PERFLAB_DB_NAME": "perflab", "PERFLAB_EMPTY": "",
                       "PERFLAB_URL": "jdbc:x?a=b", "PERFLAB_SET_EMPTY": ""}


def test_the_repositorys_dot_env_names_every_service_port():
    values = labenv.read_env(ROOT / ".env")
    for _, _, port_key, default in labenv.SERVICES.values():
        assert values[port_key] == default


# ---- services ----

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_service_addresses_follow_the_environment(monkeypatch):
    for key in ("PERFLAB_DB_HOST", "PERFLAB_DB_PORT", "PERFLAB_REDIS_PORT", "PERFLAB_APP_PORT"):
        monkeypatch.delenv(key, raising=False)
    assert labenv.service_address("mariadb") == ("127.0.0.1", "3306")
    monkeypatch.setenv("PERFLAB_DB_HOST", "db.example")
    monkeypatch.setenv("PERFLAB_DB_PORT", "3406")
    monkeypatch.setenv("PERFLAB_APP_PORT", "")
    assert labenv.service_address("mariadb") == ("db.example", "3406")
    assert labenv.service_address("app") == ("127.0.0.1", "8080")
    assert labenv.service_label("wiremock") == "WireMock (the auth API stub)"


def test_a_service_that_is_down_is_named_with_how_to_start_it(monkeypatch):
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        monkeypatch.setenv("PERFLAB_REDIS_PORT", str(listening.getsockname()[1]))
        monkeypatch.setenv("PERFLAB_DB_PORT", str(free_port()))
        monkeypatch.setenv("PERFLAB_APP_PORT", str(free_port()))
        labenv.require_services("redis")
        with pytest.raises(SystemExit) as stopped:
            labenv.require_services("redis", "mariadb", "app")
    port = os.environ["PERFLAB_DB_PORT"]
    assert stopped.value.code == (f"perflab: MariaDB is not running on 127.0.0.1:{port}: start it with "
                                  "./perflab stack up mariadb")
    with pytest.raises(SystemExit, match=r"the app is not running on .*: start it with \./perflab app start \(or "
                                         r"\./perflab up\)"):
        labenv.require_services("app")


# ---- the JDK 25 ----

def fake_jdk(tmp_path, version):
    home = tmp_path / f"jdk-{version}"
    (home / "bin").mkdir(parents=True)
    java = home / "bin" / "java"
    java.write_text(f'#!/bin/sh\necho \'openjdk version "{version}" 2025-09-16\' >&2\n')
    java.chmod(0o755)
    return home


def found_jdk(java_home, checked=None):
    env = {k: v for k, v in os.environ.items() if k not in ("JAVA_HOME", "PERFLAB_JDK", "PERFLAB_JDK_CHECKED")}
    if java_home:
        env["JAVA_HOME"] = str(java_home)
    if checked:
        env["PERFLAB_JDK_CHECKED"] = str(checked)
    out = subprocess.run([PERFLAB, "python", "-c", "import os; print(os.environ['PERFLAB_JDK'], "
                                                   "os.environ.get('JAVA_HOME', ''))"],
                         env=env, capture_output=True, text=True, check=True).stdout.split()
    return out


def test_the_entry_takes_java_home_when_it_is_a_jdk_25_or_later(tmp_path):
    for version in ("25.0.1", "26-ea"):
        home = fake_jdk(tmp_path, version)
        assert found_jdk(home) == [str(home), str(home)]


def test_a_nested_entry_trusts_only_the_jdk_its_parent_checked(tmp_path):
    """The runner's ./perflab calls (app start, seed, reset) skip `java -version` for the JDK their parent checked
    (PERFLAB_JDK_CHECKED); a JAVA_HOME that differs from it is checked as ever."""
    old = fake_jdk(tmp_path / "old", "17.0.2")
    assert found_jdk(old, checked=old) == [str(old), str(old)]
    default = pathlib.Path("/usr/lib/jvm/temurin-25-jdk-amd64")
    if (default / "bin" / "java").exists():
        assert found_jdk(old, checked=tmp_path / "another") == [str(default), str(default)]


def test_the_entry_looks_past_a_java_home_that_is_not_25():
    default = pathlib.Path("/usr/lib/jvm/temurin-25-jdk-amd64")
    if not (default / "bin" / "java").exists():
        pytest.skip("no /usr/lib/jvm/temurin-25-jdk-amd64 here")
    for java_home in ("/usr/lib/jvm/java-17-openjdk-amd64", "/nonexistent", None):
        assert found_jdk(java_home) == [str(default), str(default)]


def test_a_command_that_needs_the_jdk_says_so_when_there_is_none(monkeypatch):
    monkeypatch.setenv("PERFLAB_JDK", "")
    with pytest.raises(SystemExit, match=r"^perflab: JDK 25 not found: set JAVA_HOME to a JDK 25 \(perflab targets "
                                         r"Java 25\)$"):
        labenv.jdk()
    monkeypatch.setenv("PERFLAB_JDK", "/opt/jdk-25")
    assert labenv.jdk() == "/opt/jdk-25"


# ---- options ----

@pytest.fixture
def app_environment(monkeypatch):
    for key in ("SPRING_PROFILES_ACTIVE", "PERFLAB_HEAP", "PERFLAB_JVM_OPTS"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("PERFLAB_APP_PORT", "8080")


def test_app_options_as_the_experiment_runner_gives_them(app_environment):
    options = appctl.parse(["--instance", "ab-8091", "--port", "8091", "--db", "perflab_wallet_after", "--redis-db",
                            "3", "--profile", "wallet-after", "--heap", "-Xmx2g -Xms2g", "--jvm-opts", "-XX:+UseZGC",
                            "--aot", "--db-port", "13306", "--redis-port", "16379", "--", "--perflab.variant=after",
                            "--not-an-option"])
    assert options.instance == "ab-8091" and options.profile == "wallet-after" and options.aot == "use"
    assert (options.heap, options.jvm_opts) == ("-Xmx2g -Xms2g", "-XX:+UseZGC")
    assert options.env == {"PERFLAB_APP_PORT": "8091", "PERFLAB_DB_NAME": "perflab_wallet_after",
                           "PERFLAB_DB_PORT": "13306", "PERFLAB_REDIS_PORT": "16379"}
    assert options.app_args == ["--spring.data.redis.database=3", "--perflab.variant=after", "--not-an-option"]
    assert (options.port, options.url) == ("8091", "http://127.0.0.1:8091")
    assert os.environ["PERFLAB_APP_PORT"] == "8080", "parsing sets nothing in this process's environment"


def test_app_options_default_from_the_environment(app_environment, monkeypatch):
    monkeypatch.setenv("SPRING_PROFILES_ACTIVE", "after")
    monkeypatch.setenv("PERFLAB_HEAP", "-Xmx512m")
    options = appctl.parse(["--profile=route-after", "--instance=app-2"])
    assert (options.profile, options.instance, options.heap, options.aot, options.app_args) == (
        "route-after", "app-2", "-Xmx512m", "", [])
    assert appctl.parse([]).profile == "after" and appctl.parse([], instance="aot-train").instance == "aot-train"
    assert appctl.parse([]).url == "http://127.0.0.1:8080"


@pytest.mark.parametrize("argv, message", [
    (["--bogus"], "unknown option --bogus (see ./perflab help)"),
    (["--port"], "--port needs a value"),
    (["--instance", "App"], "instance name 'App': use lower-case letters, digits, '.', '_' and '-'"),
    (["--instance=-x"], "instance name '-x': use lower-case letters, digits, '.', '_' and '-'"),
    (["--port=8082"], "unknown option --port=8082 (see ./perflab help)")])
def test_a_wrong_app_option_is_one_line(app_environment, argv, message):
    with pytest.raises(SystemExit) as stopped:
        appctl.parse(argv)
    assert stopped.value.code == f"perflab: {message}"


def test_up_takes_its_own_option_and_leaves_the_rest_to_app_start(monkeypatch):
    monkeypatch.setenv("PERFLAB_APP_PORT", "8080")
    assert up.split(["--profile", "after", "--instances", "3", "--", "--instances", "x"]) == (
        "3", ["--profile", "after", "--", "--instances", "x"])
    assert up.split(["--instances=2"]) == ("2", [])
    assert up.split(["--profile", "after"]) == (None, ["--profile", "after"])
    assert up.split(["--instances", "2", "--", "--port", "1"]) == ("2", ["--", "--port", "1"])
    for argv, message in ((["--instances", "0"], "--instances needs a number from 1 to 99, not '0'"),
                          (["--instances=100"], "--instances needs a number from 1 to 99, not '100'"),
                          (["--instances"], "--instances needs a number"),
                          (["--instances", "2", "--port", "9"], "--instances names the instances app-1..app-N and "
                                                                "gives them ports 8081...: drop --port"),
                          (["--instance=x", "--instances", "2"], "--instances names the instances app-1..app-N and "
                                                                 "gives them ports 8081...: drop --instance=x")):
        with pytest.raises(SystemExit) as stopped:
            up.split(argv)
        assert stopped.value.code == f"perflab: {message}"


def test_migrate_options(monkeypatch):
    monkeypatch.setenv("PERFLAB_DB_NAME", "perflab")
    assert migrate.parse([]) == ("perflab", "")
    assert migrate.parse(["--db", "perflab_x", "--index=unique"]) == ("perflab_x", "unique")
    assert migrate.parse(["--db=perflab_y", "--index", "non-unique"]) == ("perflab_y", "non-unique")
    for argv, message in ((["--db"], "--db needs a name"), (["--index"], "--index needs unique or non-unique"),
                          (["--index", "maybe"], "--index must be unique or non-unique, not 'maybe'"),
                          (["--port", "1"], "usage: ./perflab migrate [--db NAME] [--index unique|non-unique]")):
        with pytest.raises(SystemExit) as stopped:
            migrate.parse(argv)
        assert stopped.value.code == f"perflab: {message}"


def test_lb_options_are_checked_before_anything_runs():
    usage = "usage: ./perflab lb start|stop|status [--name NAME] [--port P] [--bind ADDRESS] [--backend NAME=PORT ...]"
    for argv, message in ((["start", "--bogus"], f"unknown option --bogus ({usage})"),
                          (["start", "--backend"], "--backend needs NAME=PORT"),
                          (["status", "--name", "LB"], "load balancer name 'LB': use lower-case letters, digits, "
                                                       "'.', '_' and '-'"),
                          (["restart"], usage)):
        with pytest.raises(SystemExit) as stopped:
            lb_command.main(argv)
        assert stopped.value.code == f"perflab: {message}"


# ---- the lab's processes ----

def test_a_process_outlives_its_start_and_its_stop_waits_until_it_has_exited(tmp_path):
    process = labenv.Process("sleeper", tmp_path)
    assert not process.running() and process.pid() is None
    pid = process.spawn(["sleep", "30"])
    assert process.pid() == pid and process.running()
    assert os.getsid(pid) == pid, "a session of its own: no terminal signal reaches it"
    assert process.stop_within(5) is True
    assert not labenv.alive(pid) and not process.pid_file.exists()
    assert process.stop_within(5) is False


def test_a_process_that_ignores_sigterm_is_killed_after_the_bound_and_waited_for(tmp_path, capsys):
    process = labenv.Process("stubborn", tmp_path)
    pid = process.spawn([sys.executable, "-c", "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
                                               "print('ready', flush=True); time.sleep(60)"])
    deadline = time.monotonic() + 10
    while "ready" not in process.log_file.read_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    began = time.monotonic()
    process.stop_within(1, "the stubborn one")
    assert 1 <= time.monotonic() - began < 5
    assert not labenv.alive(pid)
    assert f"the stubborn one (pid {pid}) did not exit within 1 s: kill -9" in capsys.readouterr().err


def test_an_exited_child_counts_as_gone(tmp_path):
    child = subprocess.Popen(["true"])
    deadline = time.monotonic() + 5
    while pathlib.Path(f"/proc/{child.pid}/stat").read_text().split(")")[1].split()[0] != "Z":
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert not labenv.alive(child.pid), "a zombie is not running"
    child.returncode = 0  # reaped by alive(): Popen must not wait for it again


def test_a_killed_child_is_gone_only_once_every_thread_has_exited_and_its_port_is_free():
    """The chaos suite's kill -9 and restart: the instance is a child of the suite's process, and its port must be
    free as soon as wait_gone says it has gone (the main thread of a killed JVM shows Z while its other threads,
    and its listening socket, are still going away)."""
    server = subprocess.Popen([sys.executable, "-c", textwrap.dedent("""
        import socket, sys, threading, time
        listener = socket.create_server(("127.0.0.1", 0))
        for _ in range(50):
            threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
        print(listener.getsockname()[1], flush=True)
        time.sleep(60)
        """)], stdout=subprocess.PIPE, text=True)
    port = int(server.stdout.readline())
    os.kill(server.pid, signal.SIGKILL)
    assert labenv.wait_gone(server.pid, 10, interval=0.001)
    assert not labenv.port_open(port), "gone, yet its listening socket is still open"
    server.returncode = -9  # reaped by alive()
    with pytest.raises(ChildProcessError):
        os.waitpid(server.pid, os.WNOHANG)


def test_a_pid_file_of_a_process_that_is_gone(tmp_path):
    process = labenv.Process("gone", tmp_path)
    child = subprocess.Popen(["true"])
    child.wait()
    process.pid_file.write_text(f"{child.pid}\n")
    assert not process.running()
    process.pid_file.write_text("garbage\n")
    assert process.pid() is None and not process.running()


def test_an_instance_is_named_as_pid_files_allow():
    assert appctl.Instance("ab-8091").pid_file == ROOT / ".perflab" / "ab-8091.pid"
    with pytest.raises(SystemExit, match="instance name 'a/b'"):
        appctl.Instance("a/b")


def test_a_variant_line_is_read_from_the_apps_log(tmp_path):
    log = tmp_path / "app.log"
    log.write_text("2025 INFO x: starting\n2025 INFO d.p.s.v.Knobs : perflab variant after: login.client=pooled\n"
                   "2025 INFO d.p.s.v.Knobs : perflab variant other\n")
    assert appctl.variant_line(log) == "variant after: login.client=pooled"
    assert appctl.variant_line(tmp_path / "none.log") is None


# ---- the test count ----

def test_the_test_count_reads_this_runs_reports_only(tmp_path):
    unit, integration = tmp_path / "target" / "surefire-reports", tmp_path / "target" / "failsafe-reports"
    unit.mkdir(parents=True)
    integration.mkdir(parents=True)
    old = unit / "TEST-Old.xml"
    old.write_text('<testsuite tests="50" failures="1" errors="0" skipped="0"/>')
    os.utime(old, (time.time() - 100, time.time() - 100))
    since = time.time() - 10
    (unit / "TEST-A.xml").write_text('<testsuite tests="3" failures="1" errors="0" skipped="1"/>')
    (unit / "TEST-B.xml").write_text('<testsuite tests="2" failures="0" errors="1" skipped="0"/>')
    (integration / "TEST-C.xml").write_text('<testsuite tests="4" failures="0" errors="0" skipped="0"/>')
    assert test_command.count(since, tmp_path) == "tests: 5 unit + 4 integration = 9 (failures 1, errors 1, skipped 1)"
    assert test_command.count(time.time() + 10, tmp_path) == (
        "tests: 0 unit + 0 integration = 0 (failures 0, errors 0, skipped 0)")


def test_terminate_leaves_a_process_that_is_already_gone_alone(capsys):
    child = subprocess.Popen(["true"])
    child.wait()
    began = time.monotonic()
    labenv.terminate(child.pid, 5, "gone")
    assert time.monotonic() - began < 1  # no wait for the bound
    assert capsys.readouterr().err == ""  # and no kill -9 said


# ---- ./perflab k6: k6's metrics to Prometheus by default ----

def test_k6_writes_to_the_stacks_prometheus_by_default():
    args, env, note = k6_command.prometheus_output(["-e", "RATE=5"], {"PERFLAB_PROMETHEUS_PORT": "9191"}, lambda port: True)
    assert args == ["-o", "experimental-prometheus-rw"] and note is None
    assert env == {"K6_PROMETHEUS_RW_SERVER_URL": "http://127.0.0.1:9191/api/v1/write",
                   "K6_PROMETHEUS_RW_TREND_STATS": "p(50),p(90),p(95),p(99),max"}


def test_k6_leaves_the_users_remote_write_settings_alone():
    _, env, _ = k6_command.prometheus_output([], {"K6_PROMETHEUS_RW_SERVER_URL": "http://elsewhere/api/v1/write"},
                                             lambda port: True)
    assert env == {"K6_PROMETHEUS_RW_TREND_STATS": "p(50),p(90),p(95),p(99),max"}


@pytest.mark.parametrize("args, environ", [
    (["-o", "csv=x.csv"], {}), (["-ocsv=x.csv"], {}), (["--out", "json=x"], {}), (["--out=json=x"], {}),
    (["--no-prometheus"], {}), ([], {"PERFLAB_K6_PROMETHEUS": "off"}), ([], {"PERFLAB_K6_PROMETHEUS": "0"})])
def test_k6_adds_no_output_when_the_user_names_one_or_opts_out(args, environ):
    assert k6_command.prometheus_output(args, environ, lambda port: True) == ([], {}, None)


def test_k6_without_prometheus_runs_and_says_why_its_metrics_stay_local():
    args, env, note = k6_command.prometheus_output([], {}, lambda port: False)
    assert (args, env) == ([], {}) and "Prometheus (port 9090) is down" in note


def test_k6_tags_the_apps_variant_unless_one_is_given():
    assert not k6_command.sets_variant(["-e", "RATE=5"], {})
    assert k6_command.sets_variant(["-e", "VARIANT=after"], {})
    assert k6_command.sets_variant([], {"VARIANT": "after"})


def test_stopping_a_service_this_stack_did_not_start_says_so_and_fails(tmp_path):
    """stack/native.sh down NAME with no pid file: a port still served is named, exit 1, never a silent 0."""
    import socket
    with socket.create_server(("127.0.0.1", 0)) as other:
        port = str(other.getsockname()[1])
        env = dict(os.environ, PERFLAB_STATE=str(tmp_path), PERFLAB_REDIS_PORT=port)
        served = subprocess.run(["bash", str(ROOT / "stack" / "native.sh"), "down", "redis"], env=env,
                                capture_output=True, text=True)
    assert served.returncode == 1
    assert f"redis: port {port} is served by a process this stack did not start" in served.stderr
    env["PERFLAB_REDIS_PORT"] = port  # now closed: nothing to stop, nothing to say
    gone = subprocess.run(["bash", str(ROOT / "stack" / "native.sh"), "down", "redis"], env=env,
                          capture_output=True, text=True)
    assert gone.returncode == 0 and "did not start" not in gone.stderr


def test_stopping_a_service_with_no_pid_file_stops_the_process_on_its_port(tmp_path):
    """stack/native.sh down NAME with no pid file (a suite restarted it): the process of NAME's program that listens on
    its port is stopped, exit 0, and the status that follows says down, not up."""
    program = tmp_path / "redis-server"  # a throwaway process that ps names as Redis' program
    program.symlink_to(os.path.realpath(sys.executable))
    listen = "import socket, time; s = socket.create_server(('127.0.0.1', 0)); " \
             "print(s.getsockname()[1], flush=True); time.sleep(60)"
    port_file = tmp_path / "port"
    # started in the background of a shell that exits, so that it is not this test's child: a child of ours would
    # stay a zombie, alive to kill -0, until we reap it
    background = '"$0" -c "$1" >"$2" 2>/dev/null </dev/null & echo $!'
    pid = int(subprocess.run(["bash", "-c", background, program, listen, port_file],
                             capture_output=True, text=True, check=True).stdout)
    try:
        for _ in range(100):
            if port_file.read_text().strip():
                break
            time.sleep(0.1)
        port = port_file.read_text().strip()
        env = dict(os.environ, PERFLAB_STATE=str(tmp_path), PERFLAB_REDIS_PORT=port)
        down = subprocess.run(["bash", str(ROOT / "stack" / "native.sh"), "down", "redis"], env=env,
                              capture_output=True, text=True, timeout=30)
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            stopped = False
        except ProcessLookupError:
            stopped = True
    assert down.returncode == 0, down.stderr
    assert f"redis: no {tmp_path}/run/redis.pid; stopping pid {pid} (redis-server), which serves port {port}" \
        in down.stderr
    assert stopped and "kill -9" not in down.stderr
    status = [line.split()[:3] for line in down.stdout.splitlines() if line.startswith("redis ")]
    assert status == [["redis", port, "down"]]

"""The compose lab's app containers as `docker run` gives them (read from the command line, no engine needed), the
experiments it refuses by name, and which lab a run takes."""
import os

import pytest

from perflab.lab import composelab
from perflab.lab import seam
from perflab.paths import ROOT
from perflab.plan import experiment as experiments

ENV = {"PERFLAB_DB_HOST": "mariadb", "PERFLAB_DB_PORT": "3306", "PERFLAB_REDIS_HOST": "redis",
       "PERFLAB_REDIS_PORT": "6379", "PERFLAB_TOXIPROXY_HOST": "toxiproxy", "PERFLAB_TOXIPROXY_PORT": "8474",
       "PERFLAB_DB_USER": "perflab", "PERFLAB_DB_PASSWORD": "not-on-the-command-line",
       "PERFLAB_AUTH_API_URL": "https://toxiproxy:18443"}


def environment(argv):
    """The container's variables a `docker run` command line sets: {name: value}, a name alone mapped to None."""
    pairs = [argv[i + 1] for i, arg in enumerate(argv) if arg == "--env"]
    return {pair.split("=", 1)[0]: (pair.split("=", 1)[1] if "=" in pair else None) for pair in pairs}


def option(argv, name):
    return argv[argv.index(name) + 1] if name in argv else None


def wallet_apps(network_options=(), network_args=()):
    wallet = experiments.assign_redis_dbs(experiments.load("wallet"))
    return [composelab.ComposeApp(wallet, v, i, ENV, network_options, network_args)
            for i, v in enumerate(wallet["variants"])]


def test_each_variant_is_a_container_limited_to_its_machine_profile_with_its_own_database_and_knobs():
    naive = wallet_apps()[0]
    argv = naive.run_argv()
    assert argv[:2] == ["run", "--detach"] and option(argv, "--name") == "perflab-ab-8091"
    assert naive.url == "http://perflab-ab-8091:8080"
    assert option(argv, "--network") == composelab.NETWORK
    assert option(argv, "--cpus") == "0.75" and option(argv, "--memory") == "1024m"  # seed-004-pool
    variables = environment(argv)
    assert variables["PERFLAB_DB_NAME"] == naive.database and variables["PERFLAB_DB_HOST"] == "mariadb"
    assert "-Xmx512m" in variables["PERFLAB_HEAP"].split() and variables["PERFLAB_JVM_OPTS"] == ""
    image = argv.index(composelab.IMAGE)
    assert argv[image + 1:] == [f"--spring.data.redis.database={naive.redis_db}", *naive.variant["args"],
                                f"--perflab.variant={naive.label}"]


def test_the_database_password_reaches_the_container_by_name_never_on_the_command_line():
    argv = wallet_apps()[0].run_argv()
    assert environment(argv)["PERFLAB_DB_PASSWORD"] is None
    assert not any("not-on-the-command-line" in arg for arg in argv)


def test_a_network_profile_routes_the_app_through_the_runners_proxies_on_toxiproxy():
    argv = wallet_apps(["--db-port", "24306", "--redis-port", "27379"])[0].run_argv()
    variables = environment(argv)
    assert (variables["PERFLAB_DB_HOST"], variables["PERFLAB_DB_PORT"]) == ("toxiproxy", "24306")
    assert (variables["PERFLAB_REDIS_HOST"], variables["PERFLAB_REDIS_PORT"]) == ("toxiproxy", "27379")


def test_extra_jvm_flags_of_one_start_come_after_the_variants_own():
    flags = environment(wallet_apps()[0].run_argv(jvm_opts="-XX:+UseSerialGC"))["PERFLAB_HEAP"].split()
    assert flags[-1] == "-XX:+UseSerialGC"


def test_the_compose_lab_refuses_by_name_what_only_the_native_lab_can_run():
    lab = seam.ComposeLab(say=lambda line: None)
    assert lab.cannot_run(experiments.load("wallet"), {}) is None
    refused = lab.cannot_run(experiments.load("wallet"), {"app": frozenset({0})})
    assert refused.startswith("wallet cannot run on the compose lab: --pin")
    cold = experiments.load("cold-start")
    assert "a variant that starts from the AOT cache (aot)" in lab.cannot_run(cold, {})
    assert "a capacity run reads the app process's CPU" in lab.cannot_run(experiments.load("wallet-capacity"), {})
    assert "./mvnw" in lab.cannot_run(experiments.load("wallet-ceiling"), {})
    # its apps start from compose's image: no pointing at the native lab's ./perflab aot build as the way to warm them
    assert lab.start_line().startswith("apps start cold: compose's app image") and not lab.aot_cache_fresh()


def test_a_command_experiment_is_refused_in_the_runner_before_its_command_runs(monkeypatch, tmp_path):
    from perflab import runner
    monkeypatch.setenv("PERFLAB_LAB", "compose")
    ran = []
    monkeypatch.setattr(runner, "run_command_experiment", lambda *a: ran.append(a) or 0)
    with pytest.raises(SystemExit, match="parsing-jmh cannot run on the compose lab"):
        runner.main(["parsing-jmh", "--smoke", "--out", str(tmp_path)])
    assert ran == []
    monkeypatch.setenv("PERFLAB_LAB", "native")
    assert runner.main(["parsing-jmh", "--smoke", "--out", str(tmp_path)]) == 0 and len(ran) == 1


def test_a_run_takes_the_compose_lab_inside_compose_and_the_native_one_elsewhere(monkeypatch):
    monkeypatch.setenv("PERFLAB_LAB", "compose")
    assert type(seam.for_run(None)) is seam.ComposeLab
    assert type(seam.for_run(["http://a", "http://b"])) is seam.RemoteLab
    monkeypatch.delenv("PERFLAB_LAB")
    assert type(seam.for_run(None)) is seam.NativeLab


def test_a_commits_build_is_refused_when_its_container_would_start():
    app = wallet_apps()[0]
    app.options += ["--jar", "/somewhere/perflab.jar"]
    with pytest.raises(SystemExit, match="a commit's build \\(ref\\) or the AOT cache \\(aot\\) needs the native lab"):
        app.run_argv()


def test_with_a_docker_engine_an_experiments_run_goes_to_composes_runner(tmp_path, monkeypatch, fake_docker):
    from perflab.commands import ab
    log = fake_docker()
    monkeypatch.delenv("PERFLAB_LAB", raising=False)
    assert ab.to_compose(["wallet", "--smoke"], os.environ)
    assert not ab.to_compose(["--list"], os.environ)  # no run: it lists the files here
    assert ab.main(["wallet", "--smoke"]) == 0
    asked = log.read_text().splitlines()
    assert asked[-2].endswith("compose --project-directory " + str(ROOT) + " build app")
    assert asked[-1].endswith("--profile runner run --build --rm runner ab wallet --smoke")


def test_perflab_lab_keeps_a_run_where_it_says(tmp_path, monkeypatch, fake_docker):
    from perflab.commands import ab
    fake_docker()
    for where in ("native", "compose"):
        monkeypatch.setenv("PERFLAB_LAB", where)
        assert not ab.to_compose(["wallet", "--smoke"], os.environ)


def test_the_runner_mounts_the_socket_this_hosts_docker_talks_to():
    from perflab.commands import ab
    at = ab.runner_environment({"DOCKER_HOST": "unix:///run/other/docker.sock", "A": "1"})
    assert at["PERFLAB_DOCKER_SOCKET"] == "/run/other/docker.sock" and at["A"] == "1"
    given = {"DOCKER_HOST": "unix:///run/other/docker.sock", "PERFLAB_DOCKER_SOCKET": "/mine.sock"}
    assert ab.runner_environment(given)["PERFLAB_DOCKER_SOCKET"] == "/mine.sock"
    assert "PERFLAB_DOCKER_SOCKET" not in ab.runner_environment({"DOCKER_HOST": "tcp://10.0.0.1:2376"})
    assert "PERFLAB_DOCKER_SOCKET" not in ab.runner_environment({})  # compose's default, /var/run/docker.sock


def test_with_a_docker_engine_down_stops_compose_and_leaves_the_native_stack_alone(tmp_path, monkeypatch, fake_docker):
    from perflab.commands import down
    from perflab.lab import labenv
    log = fake_docker()
    natively = []
    monkeypatch.setattr(labenv, "native", lambda *a, **k: natively.append(a))
    assert down.main([]) == 0
    asked = [line.split() for line in log.read_text().splitlines()]
    assert natively == [], "the native stack is not the lab ./perflab up took"
    assert ["info"] in asked and any(words[-2:] == ["ps", "-q"] for words in asked)


def test_compose_gets_its_own_database_password_not_the_native_stacks(tmp_path, monkeypatch):
    """./perflab loads the native stack's generated password into its environment; a compose command it runs must
    not pass that on, or compose configures MariaDB with it and the next compose command typed by hand (with .env's)
    recreates MariaDB, its data with it. A password the user set is theirs for both."""
    from perflab.lab import labenv, labsecrets
    monkeypatch.setattr(labsecrets, "stored", lambda name: "native-generated")
    generated = labenv.load_env(environ={"PATH": "/bin"})
    assert generated["PERFLAB_DB_PASSWORD"] == "native-generated"
    assert "PERFLAB_DB_PASSWORD" not in labenv.compose_environ(generated)
    assert labenv.NATIVE_PASSWORD_MARK not in labenv.compose_environ(generated)
    given = labenv.load_env(environ={"PATH": "/bin", "PERFLAB_DB_PASSWORD": "mine"})
    assert labenv.compose_environ(given)["PERFLAB_DB_PASSWORD"] == "mine"


def test_a_containers_cpu_is_the_engines_count_read_over_its_socket_and_nan_when_it_does_not_answer(tmp_path,
                                                                                                   monkeypatch):
    import http.server
    import json
    import math
    import socketserver
    import threading
    asked = []

    class Engine(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            asked.append(self.path)
            known = self.path.startswith("/containers/perflab-ab-8091/")
            body = json.dumps({"cpu_stats": {"cpu_usage": {"total_usage": 2_500_000_000}}} if known
                              else {"message": "No such container"}).encode()
            self.send_response(200 if known else 404)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    class UnixEngine(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
        def get_request(self):
            connection, _ = super().get_request()
            return connection, ("engine", 0)  # BaseHTTPRequestHandler wants an address pair

    path = str(tmp_path / "docker.sock")
    server = UnixEngine(path, Engine)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        monkeypatch.setenv("DOCKER_HOST", f"unix://{path}")
        assert composelab.container_cpu_seconds("perflab-ab-8091") == 2.5
        assert asked == ["/containers/perflab-ab-8091/stats?stream=false&one-shot=true"]
        assert math.isnan(composelab.container_cpu_seconds("perflab-mariadb-1"))  # 404: not the engine's
        cpu = wallet_apps()[0].engine_cpu_seconds()
        assert cpu["app"] == 2.5 and set(cpu) == {"app", "mariadb", "redis"}
    finally:
        server.shutdown()
        server.server_close()
    assert math.isnan(composelab.container_cpu_seconds("perflab-ab-8091"))  # no engine on the socket

"""launcher.with_jvm_opts: the JVM flags one start adds (the cold-start shape's recording from launch)."""
from perflab.lab import launcher


def test_flags_for_one_start_go_after_the_variants_own_and_before_the_apps_arguments():
    plain = ["perflab", "app", "start", "--port", "1", "--", "--x=1"]
    assert launcher.with_jvm_opts(plain, "") == plain
    assert launcher.with_jvm_opts(plain, "-XX:A") == ["perflab", "app", "start", "--port", "1", "--jvm-opts", "-XX:A",
                                                      "--", "--x=1"]
    own = ["perflab", "app", "start", "--jvm-opts", "-Xmn128m", "--", "--jvm-opts"]
    assert launcher.with_jvm_opts(own, "-XX:A") == ["perflab", "app", "start", "--jvm-opts", "-Xmn128m -XX:A", "--",
                                                    "--jvm-opts"]
    assert plain == ["perflab", "app", "start", "--port", "1", "--", "--x=1"]  # the command itself is left alone


def test_a_smoke_starts_warm_a_full_run_only_when_asked_and_a_cold_start_never():
    from perflab.plan import planner
    plain = {"load": {"shape": "open"}}
    assert planner.warm_start(plain, planner.parse_args(["wallet", "--smoke"]))
    assert not planner.warm_start(plain, planner.parse_args(["wallet"]))
    assert planner.warm_start(plain, planner.parse_args(["wallet", "--warm-start"]))
    assert not planner.warm_start(dict(plain, warm_start=False), planner.parse_args(["wallet", "--smoke"]))
    for shape in planner.COLD_SHAPES:
        assert not planner.warm_start({"load": {"shape": shape}}, planner.parse_args(["cold-start", "--smoke", "--warm-start"]))


def test_a_warm_variant_asks_the_launcher_for_the_aot_cache_and_an_aot_variant_keeps_its_own_mode():
    variant = {"label": "after", "args": [], "redis_db": 10}
    assert "--warm" in launcher.App({"warm_start": True}, variant, 0, {}).options
    assert "--warm" not in launcher.App({}, variant, 0, {}).options
    own = launcher.App({"warm_start": True}, dict(variant, aot=True), 0, {}).options
    assert "--aot" in own and "--warm" not in own


def test_the_app_takes_warm_as_an_aot_mode():
    from perflab.lab import appctl
    assert appctl.parse(["--warm", "--port", "8095"]).aot == "warm"
    assert appctl.aot_cache_options("auto")[-1] == "-XX:AOTMode=auto"  # a cache the JVM cannot map: a plain start


def test_apps_started_together_build_a_stale_jar_once_before_any_starts(monkeypatch):
    """Three starts at once on a fresh clone ran three ./mvnw package into one target/ and broke each other: the
    jar is built first, once, and only for apps that run the working tree's jar."""
    from perflab.lab import appctl
    events = []

    class Fake(launcher.App):
        def __init__(self, label, options):
            self.label, self.options = label, options

        def start(self, jvm_opts=""):
            events.append(("start", self.label))

    monkeypatch.setattr(appctl, "build_jar", lambda environ=None: events.append(("build",)))
    took = launcher.start_together([Fake("a", ["--port", "1"]), Fake("b", ["--port", "2"])])
    assert events[0] == ("build",) and events.count(("build",)) == 1
    assert sorted(events[1:]) == [("start", "a"), ("start", "b")] and set(took) == {"a", "b"}
    events.clear()
    launcher.start_together([Fake("c", ["--jar", "/x.jar", "--migrations", "/m"])])
    assert events == [("start", "c")]


def test_a_seed_data_command_runs_as_the_loaders_process_and_anything_else_through_the_shell(monkeypatch):
    """Issue 47: no subprocess starts ./perflab. A variant's `./perflab seed …` (its seed, reset, invariant, a
    probe) runs as tooling/perflab/lab/datasets/seeding.py's own process with what ./perflab seed sets; a command with shell syntax, or any
    other command, is the shell's."""
    monkeypatch.setattr(launcher, "seeding_variables", lambda: {"PERFLAB_BIN": "/bin-dir"})
    args, shell, environ = launcher.data_process("./perflab seed wallet --db perflab_x reset", {"A": "1"})
    assert (args, shell) == ([*launcher.SEEDING, "wallet", "--db", "perflab_x", "reset"], False)
    assert launcher.SEEDING[1:] == ["-m", "perflab.lab.datasets.seeding"] and environ == {"A": "1", "PERFLAB_BIN": "/bin-dir"}
    for command in ("./perflab seed wallet reset >/dev/null", "./perflab seed wallet verify; echo $?",
                    "scripts/alloc-count.sh", "./perflab app start"):
        assert launcher.data_process(command, {"A": "1"}) == (command, True, {"A": "1"}), command


def test_in_an_image_with_the_apps_classes_a_data_command_builds_no_jar(monkeypatch):
    """The runner's image (FROM the seed's) holds the app's classes (PERFLAB_APP_CLASSPATH) and no Maven: its data
    commands migrate with those classes. Elsewhere the jar is built when stale and named to the loader."""
    from perflab.lab import appctl, labenv
    built = []
    monkeypatch.setattr(appctl, "build_jar", lambda *a: built.append(1))
    monkeypatch.setattr(labenv, "ensure_secrets", lambda *a, **k: None)
    launcher.seeding_variables.cache_clear()
    monkeypatch.setenv("PERFLAB_APP_CLASSPATH", "/app/perflab.jar")
    assert "PERFLAB_APP_JAR" not in launcher.seeding_variables() and built == []
    launcher.seeding_variables.cache_clear()
    monkeypatch.delenv("PERFLAB_APP_CLASSPATH")
    assert launcher.seeding_variables()["PERFLAB_APP_JAR"] == str(appctl.app_jar()) and built == [1]
    launcher.seeding_variables.cache_clear()

"""App instances for an experiment, started in this process through the one launcher, appctl.start (what
`./perflab app start` runs): one instance per variant
(ab-8091, ab-8092, ...: PERFLAB_AB_PORT sets the first port), database and Redis logical database, so that the variants of a round stand side
by side and each is idle while another is measured."""
import concurrent.futures
import functools
import os
import pathlib
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from perflab.lab import appctl
from perflab.lab import labenv
from perflab.lab import refs
from perflab.lab import scrape

from perflab.paths import ROOT
BASE_PORT = int(os.environ.get("PERFLAB_AB_PORT", "8091"))


class App:
    lab_database = True  # its database is on the lab's MariaDB, whose global counters the runner reads

    def __init__(self, experiment: dict[str, Any], variant: dict[str, Any], index: int, env: Mapping[str, str],
                 network_options: Iterable[str] = (), network_args: Iterable[str] = ()) -> None:
        self.variant = variant
        self.label = variant["label"]
        self.port = BASE_PORT + index
        self.instance = f"ab-{self.port}"  # PERFLAB_AB_PORT moves a whole run's instances, names included
        self.url = f"http://127.0.0.1:{self.port}"
        self.database = variant.get("database", env.get("PERFLAB_DB_NAME", "perflab"))
        self.redis_db = variant["redis_db"]
        self.options = ["--instance", self.instance, "--port", str(self.port), "--db", self.database,
                        "--redis-db", str(self.redis_db), *network_options]
        if experiment.get("machine"):  # the machine profile's CPU share and JVM flags; the variant's own come after
            self.options += ["--machine", experiment["machine"]]
        if variant.get("profile"):
            self.options += ["--profile", variant["profile"]]
        if variant.get("heap"):
            self.options += ["--heap", variant["heap"]]
        if variant.get("jvm_opts"):
            self.options += ["--jvm-opts", variant["jvm_opts"]]
        if variant.get("aot"):
            self.options.append("--aot")
        elif experiment.get("warm_start"):  # from the AOT cache when there is one for this jar (plan.warm_start)
            self.options.append("--warm")
        self.options += refs.app_options(variant)  # a variant built from a commit (`ref`)
        self.args = [*variant["args"], *network_args, f"--perflab.variant={self.label}"]
        self.starting: concurrent.futures.Future[None] | None = None  # a start in the background (start_in_background)

    @property
    def files(self) -> appctl.Instance:
        """Its pid file, log and start stamp in .perflab, as ./perflab app start writes them."""
        return appctl.Instance(self.instance)

    @property
    def pid_file(self) -> pathlib.Path:
        return self.files.pid_file

    @property
    def log_file(self) -> pathlib.Path:
        return self.files.log_file

    def pid(self) -> int | None:
        return self.files.pid()

    def engine_cpu_seconds(self) -> dict[str, float]:
        """CPU seconds a container engine counts for it and the lab's services: none for a process of this machine
        (a window reads its /proc) or a cluster's app."""
        return {}

    def builds_working_tree(self) -> bool:
        """Whether its start runs target/perflab.jar (which appctl builds when stale), not a commit's jar."""
        return "--jar" not in self.options

    def start_args(self, jvm_opts: str = "") -> list[str]:
        """appctl.start's arguments: the options, `--`, the app's arguments; `jvm_opts` after the variant's own."""
        return with_jvm_opts([*self.options, "--", *self.args], jvm_opts)

    def start(self, jvm_opts: str = "") -> None:
        """Starts it in this process (appctl.start, as `./perflab app start` does) and returns when it is ready;
        its progress lines are dropped (the runner says its own), a failure raises with its log."""
        self.stop()
        labenv.require_services("mariadb", "redis")
        try:
            appctl.start(self.start_args(jvm_opts), say=lambda line: None)
        except SystemExit as failed:
            raise SystemExit(f"the app for {self.label} did not start (log {self.log_file}): {failed.code}") from None
        scrape.register(self.instance, f"127.0.0.1:{self.port}")  # Grafana shows its meters while it runs

    def start_in_background(self, jvm_opts: str = "") -> None:
        """Launches without waiting for readiness (the cold-start shape races k6 against the start); `jvm_opts`
        adds flags for this start only (after the variant's own)."""
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
        self.starting = pool.submit(self.start, jvm_opts)
        pool.shutdown(wait=False)  # returns now; the pool's thread ends when the start does

    def wait_started(self) -> None:
        assert self.starting is not None, "start_in_background first"
        self.starting.result()

    def started_epoch_ms(self) -> int:
        return int(self.files.started_file.read_text().strip())

    def stop(self) -> None:
        scrape.unregister(self.instance)
        self.files.stop(quiet=True)


def start_together(apps: Iterable[App]) -> dict[str, float]:
    """Starts every variant's app at once (start_at_once); the jar built first when one of them runs the working
    tree's."""
    return start_at_once({app.label: app.start for app in apps}, any(app.builds_working_tree() for app in apps))


def start_at_once(starts: Mapping[str, Callable[[], object]], build_jar: bool = True) -> dict[str, float]:
    """Runs every start ({label: a function that returns when its app is ready}) at once: {label: seconds each
    took}. With `build_jar` the working tree's jar is built first, once, when it is stale: each start would
    otherwise run its own ./mvnw package into the same target/ (a fresh clone's first smoke did, and two builds broke
    each other). A start that fails raises once every start has ended (the caller stops them)."""
    if build_jar:
        appctl.build_jar()

    def timed(start: Callable[[], object]) -> float:
        began = time.monotonic()
        start()
        return time.monotonic() - began

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, len(starts))) as pool:
        futures = {label: pool.submit(timed, start) for label, start in starts.items()}
        return {label: future.result() for label, future in futures.items()}


class RemoteApp(App):
    """A variant that already runs elsewhere (a cluster: docs/scale-out.md): the runner loads it and reads its
    /actuator/prometheus, but neither starts nor stops it; process CPU, JFR and MariaDB counters are not read."""

    lab_database = False  # the cluster's own database

    def __init__(self, experiment: dict[str, Any], variant: dict[str, Any], index: int, url: str) -> None:
        super().__init__(experiment, variant, index, {})
        self.url = url.rstrip("/")
        self.instance = f"remote-{index}"

    def pid(self) -> int | None:
        return None

    def start(self, jvm_opts: str = "") -> None:
        pass

    def builds_working_tree(self) -> bool:
        return False

    def start_in_background(self, jvm_opts: str = "") -> None:
        raise SystemExit("the cold-start shape starts the app itself: it cannot run against a remote lab")

    def stop(self) -> None:
        pass


def with_jvm_opts(command: list[str], extra: str) -> list[str]:
    """`app start` arguments (or a command) with `extra` JVM flags after those its --jvm-opts already gives (one
    --jvm-opts: ./perflab app start keeps the last)."""
    if not extra:
        return command
    command = list(command)
    if "--jvm-opts" in command:
        at = command.index("--jvm-opts") + 1
        command[at] = f"{command[at]} {extra}"
        return command
    return [*command[:command.index("--")], "--jvm-opts", extra, *command[command.index("--"):]]


def variant_env(variant: dict[str, Any], env: Mapping[str, str]) -> dict[str, str]:
    """The environment for a variant's data commands (seed, reset, invariants): its database as PERFLAB_DB_NAME, its
    Redis logical database as PERFLAB_REDIS_DB and WALLET_REDIS_DB (the wallet reset deletes its keys there), and a
    commit's jar and db/migrations (refs.env) for a variant built from one."""
    redis_db = str(variant.get("redis_db", 0))
    return dict(os.environ, PERFLAB_DB_NAME=variant.get("database", env.get("PERFLAB_DB_NAME", "perflab")),
                PERFLAB_REDIS_DB=redis_db, WALLET_REDIS_DB=redis_db, **refs.env(variant))


SHELL_SYNTAX = set(";|&<>$`\n")  # a command with any of these is the shell's to run
SEEDING = [sys.executable, "-m", "perflab.lab.datasets.seeding"]  # the data sets' loaders as a process (./perflab seed's main)


def seeding_argv(command: str) -> list[str] | None:
    """A data command `./perflab seed ARGS` as the seeding module's own process (python tooling/perflab/lab/datasets/seeding.py ARGS, what
    ./perflab seed runs), without a shell, the entry script and the command line in front of it; None for any
    other command, and for one with shell syntax in it (a shell runs those)."""
    if SHELL_SYNTAX & set(command):
        return None
    words = shlex.split(command)
    if words[:2] != ["./perflab", "seed"]:
        return None
    return [*SEEDING, *words[2:]]


@functools.cache
def seeding_variables() -> dict[str, str]:
    """What ./perflab seed sets before it loads (commands/seed.py): the secrets made once, PERFLAB_ROOT, APP_URL,
    PERFLAB_BIN (the native stack's tools), PERFLAB_APP_JAR (the app's jar, built when stale: a database that misses
    a migration is migrated with it, in the loader's process; not in an image whose PERFLAB_APP_CLASSPATH holds the
    app's classes) and PYTHONPATH (the loader is a module of this package)."""
    labenv.ensure_secrets()
    found = {"PERFLAB_ROOT": str(ROOT), "APP_URL": appctl.url(), "PERFLAB_BIN": labenv.native_bin(),
             "PYTHONPATH": str(ROOT / "tooling")}
    if os.environ.get("PERFLAB_APP_CLASSPATH"):
        return found  # an image that holds the app's classes (the seed's, the runner's): the loader migrates with them
    appctl.build_jar()
    return {**found, "PERFLAB_APP_JAR": str(appctl.app_jar())}


def data_process(command: str, environ: Mapping[str, str]) -> tuple[str | list[str], bool, Mapping[str, str]]:
    """(arguments, shell, environment) to run a data command or probe: `./perflab seed …` as the seeding module's
    process, anything else through the shell."""
    argv = seeding_argv(command)
    if argv is None:
        return command, True, environ
    return argv, False, {**environ, **seeding_variables()}


def run_seeding(args: Iterable[str], environ: Mapping[str, str]) -> subprocess.CompletedProcess[str]:
    """tooling/perflab/lab/datasets/seeding.py ARGS (what ./perflab seed ARGS runs) as a process of its own, with what ./perflab seed sets; its
    output captured, so that a suite prints only its own lines."""
    return subprocess.run([*SEEDING, *args], cwd=ROOT, env={**environ, **seeding_variables()}, capture_output=True,
                          text=True)


def run_data(command: str, variant: dict[str, Any], env: Mapping[str, str]) -> subprocess.CompletedProcess[str]:
    """A variant's data command (seed, reset, invariant) with its environment (variant_env): the finished process."""
    args, shell, environ = data_process(command, variant_env(variant, env))
    return subprocess.run(args, shell=shell, cwd=ROOT, env=environ, capture_output=True, text=True)


def run_data_command(command: str, variant: dict[str, Any], env: Mapping[str, str], what: str) -> str:
    ran = run_data(command, variant, env)
    if ran.returncode != 0:
        raise SystemExit(f"{what} for {variant['label']} failed: {command}\n{(ran.stdout + ran.stderr).strip()[-800:]}")
    return ran.stdout

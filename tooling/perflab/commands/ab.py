"""./perflab ab: the experiment runner, tooling/perflab/runner.py, called in this process; on a host whose Docker
engine answers, an experiment's run goes to compose's runner service instead (docker compose run --rm runner ab ...),
which drives the compose lab, so the native stack is never started beside it. PERFLAB_LAB=native keeps the run here
on the native stack; inside the runner PERFLAB_LAB=compose."""
import os
import subprocess
from collections.abc import Mapping

from perflab.lab import labenv

SYNOPSIS = "ab <experiment> [options]"
SUMMARY = """the experiment runner (experiments/*.toml, docs/experiments.md): variants in
balanced rounds, network profiles, sweeps, a verdict that says why;
ab --list shows every experiment, ab --help every option; with Docker, runs go
to compose's runner (PERFLAB_LAB=native keeps them on the native stack)"""


def to_compose(argv: list[str], environ: Mapping[str, str]) -> bool:
    """Whether this command line is a run that compose's runner makes: it names an experiment, no PERFLAB_LAB says
    where it runs, and a Docker engine answers."""
    return bool(argv) and not argv[0].startswith("-") and not environ.get("PERFLAB_LAB") \
        and labenv.docker_engine(environ)


def runner_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """compose's environment for the runner service: the checkout's commit (PERFLAB_COMMIT) and the engine's socket
    it mounts (PERFLAB_DOCKER_SOCKET): the one this host's docker talks to, DOCKER_HOST's when that names a unix
    socket, else compose's default."""
    from perflab.measure import preparation
    socket = environ.get("DOCKER_HOST", "")
    given = {"PERFLAB_COMMIT": preparation.checkout_commit()}  # the runner has no git: the result's commit is this
    if socket.startswith("unix://") and not environ.get("PERFLAB_DOCKER_SOCKET"):
        given["PERFLAB_DOCKER_SOCKET"] = socket.removeprefix("unix://")
    return {**labenv.compose_environ(environ), **given}


def hand_to_compose(argv: list[str]) -> int:
    """The run in compose's runner: the app's image built as the working tree is (a Maven build inside Docker when
    the code changed, seconds when not), then `docker compose run --build --rm runner ab ARGV` (the runner's image
    as the working tree is, too)."""
    labenv.say("a Docker engine answers: the run goes to compose's runner (docker compose run --rm runner ab "
               f"{' '.join(argv)}); PERFLAB_LAB=native ./perflab ab ... runs it on the native stack instead")
    environ = runner_environment(os.environ)
    built = subprocess.run(labenv.compose("build", "app"), env=environ).returncode
    if built:
        return built
    return subprocess.run(labenv.compose("--profile", "runner", "run", "--build", "--rm", "runner", "ab", *argv),
                          env=environ).returncode


def main(argv: list[str]) -> int:
    if to_compose(argv, os.environ):
        return hand_to_compose(argv)
    from perflab import runner  # the statistics stack (scipy, statsmodels) loads for this command only
    runner.stop_on_signals()
    return runner.main(argv)

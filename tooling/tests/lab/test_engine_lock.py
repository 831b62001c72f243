"""The Docker engine's users (stack/docker/compose-ci.sh, testcontainers-ci.sh) run one at a time: each takes the
engine's lock (lib.sh's engine_exclusive) before it brings the engine up, and a second one waits for the first to end.
Two stand-in users here hold the lock until the test lets them go (a FIFO each); no engine is needed."""
import contextlib
import os
import pathlib
import signal
import subprocess
import time

import pytest

from perflab.paths import ROOT

USER = """#!/usr/bin/env bash
set -euo pipefail
source {lib}
engine_exclusive "${{BASH_SOURCE[0]}}" "$@"
echo "entered $1" >>{log}
read -r _ <"$2"  # holds the engine until the test writes to this FIFO
echo "left $1" >>{log}
exit "${{3:-0}}"  # the user's own exit code
"""


def until(condition, within: float = 20) -> None:
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, "not within the bound"
        time.sleep(0.05)


def lab(tmp_path: pathlib.Path, wait: str = "60") -> tuple[pathlib.Path, pathlib.Path, dict[str, str]]:
    log = tmp_path / "log"
    log.touch()
    script = tmp_path / "user.sh"
    script.write_text(USER.format(lib=ROOT / "stack" / "docker" / "lib.sh", log=log))
    env = {**os.environ, "PERFLAB_DOCKER_LOCK": str(tmp_path / "lock"), "PERFLAB_DOCKER_LOCK_WAIT": wait}
    env.pop("PERFLAB_ENGINE_HELD", None)
    return script, log, env


STARTED: list[subprocess.Popen[str]] = []


@pytest.fixture(autouse=True)
def stop_users():
    """A user a failed assertion left waiting on its FIFO is killed, with flock and the script it runs."""
    yield
    while STARTED:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(STARTED.pop().pid, signal.SIGKILL)


def user(script: pathlib.Path, name: str, fifo: pathlib.Path, env: dict[str, str],
         exit_code: int = 0) -> subprocess.Popen[str]:
    """The user `name` started, its output into the file NAME.out beside its FIFO; it ends with `exit_code`."""
    os.mkfifo(fifo)
    with open(fifo.with_name(f"{name}.out"), "w") as out:
        STARTED.append(subprocess.Popen(["bash", str(script), name, str(fifo), str(exit_code)], env=env, text=True,
                                        stdout=out, stderr=subprocess.STDOUT, start_new_session=True))
    return STARTED[-1]


def release(fifo: pathlib.Path) -> None:
    with open(fifo, "w") as writer:
        writer.write("go\n")


def test_a_second_engine_user_waits_for_the_first_to_end_and_says_who_holds_it(tmp_path):
    script, log, env = lab(tmp_path)
    first = user(script, "first", tmp_path / "first.fifo", env)
    until(lambda: "entered first" in log.read_text())
    second = user(script, "second", tmp_path / "second.fifo", env)
    out = tmp_path / "second.out"
    until(lambda: "waiting" in out.read_text() or "entered second" in log.read_text())
    assert "the engine is in use (user.sh (pid" in out.read_text() and "at most 60 s" in out.read_text()
    assert "entered second" not in log.read_text()
    release(tmp_path / "first.fifo")
    assert first.wait(timeout=20) == 0
    until(lambda: "entered second" in log.read_text())
    release(tmp_path / "second.fifo")
    assert second.wait(timeout=20) == 0
    assert log.read_text().split("\n") == ["entered first", "left first", "entered second", "left second", ""]


def test_an_engine_user_that_waits_past_its_bound_fails_naming_the_holder_and_the_way_out(tmp_path):
    script, log, env = lab(tmp_path, wait="0")
    first = user(script, "first", tmp_path / "first.fifo", env)
    until(lambda: "entered first" in log.read_text())
    second = user(script, "second", tmp_path / "second.fifo", env)
    until(lambda: second.poll() is not None or "entered second" in log.read_text())
    output = (tmp_path / "second.out").read_text()
    assert second.returncode == 1
    assert "the engine stayed in use for 0 s (user.sh (pid" in output
    assert "stack/docker/engine.sh down" in output
    assert "entered second" not in log.read_text()
    release(tmp_path / "first.fifo")
    assert first.wait(timeout=20) == 0


def test_a_users_own_exit_code_75_is_its_own_not_a_wait_past_the_bound(tmp_path):
    script, log, env = lab(tmp_path, wait="0")
    only = user(script, "only", tmp_path / "only.fifo", env, exit_code=75)
    until(lambda: "entered only" in log.read_text())
    release(tmp_path / "only.fifo")
    assert only.wait(timeout=20) == 75
    assert "stayed in use" not in (tmp_path / "only.out").read_text()

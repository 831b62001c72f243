"""Records Workload.java's measured window with JFR, the way the runner does (jcmd JFR.start / JFR.stop).

    recording("a") -> path of a .jfr of variant a (recorded once per test session, then reused)
    rounds("a")    -> the rounds of work (crunchA or crunchB calls) done in that recording: its "requests"
    launch_recording() -> (path, go_ms, done_ms): variant a recorded from launch the way the cold-start shape
                          records an app (jfr.launch_option), and the epoch milliseconds just before its measured
                          rounds began and just after they ended

Tests skip, with the reason, when no JDK 25 is found (JAVA_HOME or /usr/lib/jvm/temurin-25-jdk-amd64).
"""
import atexit
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

from perflab.measure import flame, jfr

HERE = pathlib.Path(__file__).resolve().parent

ROUNDS = 20_000  # about 6 s of CPU for the cruncher thread: more allocation samples
HEAP = "-Xmx256m"  # small enough for young collections within ROUNDS
_recorded: dict[str, tuple[pathlib.Path, int]] = {}  # variant: (its recording, its rounds)
_launched: dict[str, tuple[pathlib.Path, float, float]] = {}  # "launch": (its recording, go ms, done ms)
_folder = pathlib.Path(tempfile.mkdtemp(prefix="perflab-jfr-test-"))
atexit.register(shutil.rmtree, _folder, True)


def jdk25_missing() -> str | None:
    """None when a JDK 25 is there, else why not."""
    try:
        flame.jdk_tool("java")
    except flame.ToolError as error:
        return str(error)
    return None


def _expect(process: subprocess.Popen[str], prefix: str) -> list[str]:
    assert process.stdout is not None and process.stderr is not None  # piped
    line = process.stdout.readline()
    while line.startswith("["):  # the JVM's own log on stdout (JFR says it started a recording from launch)
        line = process.stdout.readline()
    if not line.startswith(prefix):
        raise RuntimeError(f"Workload.java printed {line!r} instead of {prefix!r}: {process.stderr.read()}")
    return line.split()


def _drive(variant: str, out: pathlib.Path, launch: bool = False) -> tuple[int, float, float]:
    """Runs Workload.java's variant through its handshake and records it to `out`: the measured window by jcmd, or
    (launch) the whole run from the JVM's first moment. Returns (rounds done, epoch ms at "go", at "done")."""
    flags = [jfr.launch_option(out)] if launch else []
    command = [flame.jdk_tool("java"), HEAP, *flags, str(HERE / "Workload.java"), variant, str(ROUNDS)]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as process:
        assert process.stdin is not None  # piped
        try:
            pid = int(_expect(process, "ready")[1])
            if not launch:
                jfr.start_recording(pid)
            go = time.time() * 1000
            process.stdin.write("go\n")
            process.stdin.flush()
            done = int(_expect(process, "done")[1])
            done_ms = time.time() * 1000
            jfr.stop_recording(pid, out, name=jfr.LAUNCH_RECORDING if launch else "ab")
            process.stdin.write("exit\n")
            process.stdin.flush()
            process.wait(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
    return done, go, done_ms


def recording(variant: str) -> pathlib.Path:
    """A .jfr of Workload.java's variant ('a' or 'b'), its measured window only."""
    if variant not in _recorded:
        out = _folder / f"{variant}.jfr"
        _recorded[variant] = out, _drive(variant, out)[0]
    return _recorded[variant][0]


def launch_recording() -> tuple[pathlib.Path, float, float]:
    if "launch" not in _launched:
        out = _folder / "launch.jfr"
        _, go, done = _drive("a", out, launch=True)
        _launched["launch"] = out, go, done
    return _launched["launch"]


def rounds(variant: str) -> int:
    recording(variant)
    return _recorded[variant][1]

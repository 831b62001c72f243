"""Records Workload.java's measured window with JFR, the way the runner does (jcmd JFR.start / JFR.stop).

    recording("a") -> path of a .jfr of variant a (recorded once per test session, then reused)
    rounds("a")    -> the rounds of work (crunchA or crunchB calls) done in that recording: its "requests"

Tests skip, with the reason, when no JDK 25 is found (JAVA_HOME or /usr/lib/jvm/temurin-25-jdk-amd64).
"""
import atexit
import pathlib
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import flame  # noqa: E402
import jfr  # noqa: E402

ROUNDS = 20_000  # about 6 s of CPU for the cruncher thread: more allocation samples
HEAP = "-Xmx256m"  # small enough for young collections within ROUNDS
_recorded = {}
_folder = pathlib.Path(tempfile.mkdtemp(prefix="perflab-jfr-test-"))
atexit.register(shutil.rmtree, _folder, True)


def jdk25_missing():
    """None when a JDK 25 is there, else why not."""
    try:
        flame.jdk_tool("java")
    except flame.ToolError as error:
        return str(error)
    return None


def _expect(process, prefix):
    line = process.stdout.readline()
    if not line.startswith(prefix):
        raise RuntimeError(f"Workload.java printed {line!r} instead of {prefix!r}: {process.stderr.read()}")
    return line.split()


def recording(variant):
    """A .jfr of Workload.java's variant ('a' or 'b'), its measured window only."""
    if variant not in _recorded:
        out = _folder / f"{variant}.jfr"
        command = [flame.jdk_tool("java"), HEAP, str(HERE / "Workload.java"), variant, str(ROUNDS)]
        with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) as process:
            try:
                pid = int(_expect(process, "ready")[1])
                jfr.start_recording(pid)
                process.stdin.write("go\n")
                process.stdin.flush()
                done = int(_expect(process, "done")[1])
                jfr.stop_recording(pid, out)
                process.stdin.write("exit\n")
                process.stdin.flush()
                process.wait(timeout=30)
            finally:
                if process.poll() is None:
                    process.kill()
        _recorded[variant] = out, done
    return _recorded[variant][0]


def rounds(variant):
    recording(variant)
    return _recorded[variant][1]

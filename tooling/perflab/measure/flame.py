"""CPU flame graphs from JFR recordings, with async-profiler's JFR converter (tools.profiler:jfr-converter).

    flamegraph(jfr, out_html)               one side's CPU flame graph (self-contained HTML)
    diff_flamegraph(jfr_a, jfr_b, out_html) B against A: the converter's --diff mode. Frame width is B's
                                            samples; colour is the change of the frame's self samples from A
                                            to B (red = more in B, blue = fewer, yellow = a frame A never had,
                                            grey = unchanged)
    collapsed(jfr, out)                     CPU stacks in the collapsed format ("frame;frame;... count")
    read_collapsed(path)                    that file as {stack tuple: count}

Each `jfr` argument is one .jfr file or a list of them (several runs of one side are concatenated: a JFR
file is a sequence of self-contained chunks). One kind of CPU sample is kept (`jfr scrub`), the one every given
recording has: jdk.CPUTimeSample (JDK 25 on Linux, recorded by the runner: a sample per slice of a thread's CPU
time, time in system calls included, such as the socket writes and reads of a request) and otherwise
jdk.ExecutionSample (threads running Java code only: a thread inside a system call is not sampled). The converter
would otherwise mix in jdk.NativeMethodSample, threads waiting in native code, which burn no CPU. Lambda and
hidden-class names are normalized (--norm) and class names dotted (--dot), so that the same code matches
across two JVMs.

Command line: ./perflab python -m perflab.measure.flame a.jfr out.html [--against b.jfr]

The converter jar is installed by `tooling/tools.sh converter` (called on first use). JDK tools (jfr, jcmd, java)
come from JAVA_HOME when it is a JDK 25 or newer, else from /usr/lib/jvm/temurin-25-jdk-amd64 or another
JDK 25+ under /usr/lib/jvm.
"""
import argparse
import glob
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Sequence
from typing import Any

from perflab.paths import ROOT
JDK_CANDIDATES = ["/usr/lib/jvm/temurin-25-jdk-amd64"]
MIN_JAVA = 25  # the recordings come from JDK 25; older jfr tools cannot read them reliably
FRAME_SUFFIX = re.compile(r"_\[[0-9a-z]\]$")

Path = str | os.PathLike[str]
Recordings = Path | Iterable[Path]  # one .jfr file or several (one side's runs)


class ToolError(RuntimeError):
    """A JDK or converter command failed; the message names the command and its error output."""


def _java_major(home: str) -> int:
    try:
        release = (pathlib.Path(home) / "release").read_text()
    except OSError:
        return 0
    found = re.search(r'^JAVA_VERSION="(\d+)', release, re.M)
    return int(found.group(1)) if found else 0


def jdk_tool(name: str) -> str:
    """Path of a JDK tool (jfr, jcmd, java) of a JDK 25 or newer: JAVA_HOME, else /usr/lib/jvm/*."""
    homes = [os.environ.get("JAVA_HOME", ""), *JDK_CANDIDATES, *sorted(glob.glob("/usr/lib/jvm/*"), reverse=True)]
    for home in homes:
        if home and _java_major(home) >= MIN_JAVA and os.access(os.path.join(home, "bin", name), os.X_OK):
            return os.path.join(home, "bin", name)
    raise ToolError(f"JDK tool '{name}' of a JDK {MIN_JAVA}+ not found: set JAVA_HOME to a JDK {MIN_JAVA}")


def run(command: Sequence[object], **kwargs: Any) -> str:
    result: subprocess.CompletedProcess[str] = subprocess.run(
        [str(part) for part in command], capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        raise ToolError(f"{' '.join(map(str, command))} exited {result.returncode}: {result.stderr.strip()[-2000:]}")
    return result.stdout


def converter_jar() -> str:
    """The JFR converter jar, downloaded once from Maven Central by tooling/tools.sh."""
    return run(["bash", ROOT / "tooling" / "tools.sh", "converter"]).strip().splitlines()[-1]


def recordings(jfr: Recordings) -> list[pathlib.Path]:
    """The list of .jfr paths in `jfr` (one path or a list of them)."""
    return [pathlib.Path(p) for p in ([jfr] if isinstance(jfr, (str, os.PathLike)) else jfr)]


def _new_file(workdir: Path, suffix: str) -> pathlib.Path:
    descriptor, name = tempfile.mkstemp(suffix=suffix, dir=workdir)
    os.close(descriptor)
    os.unlink(name)
    return pathlib.Path(name)


# event: the converter's options (with none it reads jdk.ExecutionSample; its --cpu means async-profiler's own events)
CPU_EVENTS: dict[str, tuple[str, ...]] = {"jdk.CPUTimeSample": ("--cpu-time",), "jdk.ExecutionSample": ()}
EVENT_COUNT = re.compile(r"^\s*(jdk\.\w+)\s+(\d+)\s", re.M)


def event_counts(path: Path) -> dict[str, int]:
    """{event type: count} of one recording, from `jfr summary`."""
    return {name: int(count) for name, count in EVENT_COUNT.findall(run([jdk_tool("jfr"), "summary", path]))}


def cpu_event(jfr: Recordings) -> str:
    """jdk.CPUTimeSample when every given recording holds some, else jdk.ExecutionSample: one kind for all of them,
    so that two sides of a diff count the same thing."""
    files = recordings(jfr)
    if files and all(event_counts(path).get("jdk.CPUTimeSample", 0) > 0 for path in files):
        return "jdk.CPUTimeSample"
    return "jdk.ExecutionSample"


def cpu_recording(jfr: Recordings, workdir: Path, event: str = "jdk.ExecutionSample") -> pathlib.Path:
    """One .jfr in workdir with only the `event` CPU samples of the given recording(s)."""
    files = recordings(jfr)
    if not files:
        raise ValueError("no JFR recording given")
    workdir = pathlib.Path(workdir)
    source = files[0]
    if len(files) > 1:
        source = _new_file(workdir, ".merged.jfr")
        with open(source, "wb") as merged:
            for path in files:
                with open(path, "rb") as chunk:
                    shutil.copyfileobj(chunk, merged)
    target = _new_file(workdir, ".cpu.jfr")
    run([jdk_tool("jfr"), "scrub", "--include-events", event, source, target])
    return target


def _convert(inputs: Iterable[Path], out: Path, *options: str) -> str:
    run([jdk_tool("java"), "-jar", converter_jar(), "--norm", "--dot", *options, *inputs, out])
    return str(out)


def _cpu_inputs(jfrs: Sequence[Recordings], workdir: Path) -> tuple[list[pathlib.Path], tuple[str, ...]]:
    """The CPU-sample recordings of each side and the converter's options, one event kind for all sides."""
    event = cpu_event([path for jfr in jfrs for path in recordings(jfr)])
    return [cpu_recording(jfr, workdir, event) for jfr in jfrs], CPU_EVENTS[event]


def collapsed(jfr: Recordings, out: Path, event: str | None = None) -> str:
    """CPU stacks of the recording(s) in the collapsed format, written to out; returns out. `event` picks the CPU
    sample kind (default: cpu_event's choice)."""
    with tempfile.TemporaryDirectory(prefix="perflab-flame-") as tmp:
        event = event or cpu_event(jfr)
        return _convert([cpu_recording(jfr, tmp, event)], out, *CPU_EVENTS[event], "-o", "collapsed")


def read_collapsed(path: Path) -> dict[tuple[str, ...], int]:
    """{(root frame, ..., leaf frame): samples}, frame-type suffixes such as _[j] removed."""
    stacks: dict[tuple[str, ...], int] = {}
    with open(path) as lines:
        for line in lines:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if stack:
                key = tuple(FRAME_SUFFIX.sub("", frame) for frame in stack.split(";"))
                stacks[key] = stacks.get(key, 0) + int(count)
    return stacks


def flamegraph(jfr: Recordings, out_html: Path, title: str = "CPU samples") -> str:
    """One side's CPU flame graph as a self-contained HTML page; returns its path."""
    with tempfile.TemporaryDirectory(prefix="perflab-flame-") as tmp:
        inputs, options = _cpu_inputs([jfr], tmp)
        return _convert(inputs, out_html, *options, "--title", title)


def diff_flamegraph(jfr_a: Recordings, jfr_b: Recordings, out_html: Path,
                    title: str = "CPU samples, B against A") -> str:
    """Differential CPU flame graph of B against A as a self-contained HTML page; returns its path."""
    with tempfile.TemporaryDirectory(prefix="perflab-flame-") as tmp:
        inputs, options = _cpu_inputs([jfr_a, jfr_b], tmp)
        return _convert(inputs, out_html, *options, "--diff", "--title", title)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="CPU flame graph of a JFR recording, or B against A")
    parser.add_argument("jfr", help="recording of A (or the only one)")
    parser.add_argument("out_html")
    parser.add_argument("--against", metavar="JFR_B", help="recording of B: write the differential flame graph")
    args = parser.parse_args(argv)
    print(diff_flamegraph(args.jfr, args.against, args.out_html) if args.against
          else flamegraph(args.jfr, args.out_html))


if __name__ == "__main__":
    main()

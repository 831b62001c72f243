"""The why behind a verdict: a JSON-serializable profile summary of a run's JFR recording, and A against B.

Recording (what the runner does around each run's measured window, JDK 25):

    start_recording(pid)              jcmd <pid> JFR.start name=ab settings=profile jdk.Compilation#threshold=0ms
                                      jdk.CPUTimeSample#enabled=true jdk.CPUTimeSample#throttle=10ms
    stop_recording(pid, "run.jfr")    jcmd <pid> JFR.stop name=ab filename=run.jfr

Reading (all through JDK tools and async-profiler's converter, no parser of the binary format of our own):

    summary(jfr, requests=None) -> dict           jfr: one .jfr or a list (several runs of one side, summed)
    jfr_diff.diff(profile_a, profile_b) -> dict   per section, rows {name, a, b, change, relative} by |change|

A start, recorded from its first moment (the cold-start shape; JIT and GC events and sparse CPU-time samples only, so
the recorder costs the start little):

    launch_option(filename)                              the -XX:StartFlightRecording flag for the app's JVM
    stop_recording(pid, filename, LAUNCH_RECORDING)      writes it
    window_summary(jfr, start_ms, end_ms, focus) -> dict the gc and jit sections of the events that started in
                                                         that window (epoch ms): the first requests after readiness;
                                                         cpu: its CPU samples, and the focus's share of them

Sections of a summary:
    cpu         jdk.CPUTimeSample (one per 10 ms of a thread's CPU time, system calls included; JDK 25 on Linux)
                or, in a recording without them, jdk.ExecutionSample (Java code only): samples per method as the
                top frame (self) and anywhere on the stack (total), as counts and shares of all samples (stacks
                from tooling/perflab/measure/flame.py's collapsed output); `event` names the kind; `layers`: the same samples by
                library (the package of the first frame below the top that is not the JDK's, three parts deep:
                a socket write the MariaDB driver makes counts to org.mariadb.jdbc), so the profile says which
                part of the stack the CPU goes to
    allocation  jdk.ObjectAllocationSample weights summed by class: estimated bytes allocated, and bytes per
                request when `requests` is given
    locks       jdk.JavaMonitorEnter by monitor class, jdk.ThreadPark by parked-on class, each also by site
                (the waiting method: the first frame outside java.util.concurrent and the JDK's internals):
                count, total and longest wait (JFR's profile settings record waits of 10 ms or more; idle pool
                threads waiting for work count too, so read the change between A and B, not the level)
    gc          jdk.GarbageCollection: collections (young and old: YOUNG_COLLECTORS), summed and longest pause,
                by collector
    jit         jdk.Compilation (threshold 0 ms when recorded with start_recording): compilations, compile
                time (both also by compiler: c1, c2), failures, OSR; jdk.Deoptimization by reason; with a focus
                (a class-name prefix), the compilations of those classes' methods
Events are read with `jfr print --json` (stacks cut to 0 frames, 12 for lock waits) and streamed with ijson;
the CPU stacks, the lock waits and the other events are read in parallel. Measured: a 40 s recording of a
Jetty server at 300 requests/s (11,000 allocation samples, 1,600 parks, 2,900 compilations) takes 21 s and
160 MB on 2 cores shared with a load average of 28; the summary's JSON is 115 kB (KEEP rows per table).

cell_profile(cell, out_dir) is what report.html shows of a cell (the baseline's recording against the first
candidate's, and the differential flame graph beside the report).

Command line: ./perflab python -m perflab.measure.jfr run.jfr [--requests N] [--against b.jfr --requests-b N]   (JSON on stdout)
"""
import argparse
import collections
import concurrent.futures
import datetime
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from typing import Any

import ijson

from perflab.measure import flame
from perflab.measure.jfr_diff import diff

# JDK 25's CPU-time sampler next to the profile's execution sampler: a request's socket writes and reads are system
# calls, which jdk.ExecutionSample never sees (a thread in native code is not sampled), so an I/O-bound path's
# profile would otherwise leave its largest item out
JCMD_START_OPTIONS = ["settings=profile", "jdk.Compilation#threshold=0ms", "jdk.CPUTimeSample#enabled=true",
                      "jdk.CPUTimeSample#throttle=10ms"]
COUNTED = ["jdk.ObjectAllocationSample", "jdk.GarbageCollection", "jdk.Compilation", "jdk.Deoptimization"]
WAITS = ["jdk.JavaMonitorEnter", "jdk.ThreadPark"]
WINDOW_EVENTS = ["jdk.Compilation", "jdk.Deoptimization", "jdk.GarbageCollection", "jdk.CPUTimeSample"]
WINDOW_SETTINGS = ["jdk.Compilation#enabled=true", "jdk.Compilation#threshold=0ms", "jdk.Deoptimization#enabled=true",
                   "jdk.Deoptimization#stackTrace=false", "jdk.GarbageCollection#enabled=true",
                   "jdk.CPUTimeSample#enabled=true", "jdk.CPUTimeSample#throttle=20ms"]
FOCUS_STACK_DEPTH = 16  # a CPU sample counts to the focus when one of its top frames is the focus's: the JDK code a
# parser calls (split, toLowerCase, ArrayList) lies within a few frames of it
LAUNCH_RECORDING = "launch"
WAIT_STACK_DEPTH = 12  # enough to climb out of java.util.concurrent to the code that waits
LIBRARY_FRAMES = ("java.util.concurrent.", "jdk.internal.misc.", "java.lang.Thread.", "java.lang.VirtualThread.",
                  "java.lang.Object.wait")
KEEP = 200
START_TIME = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)?$")
ISO_DURATION = re.compile(r"^PT(?:(-?\d+)H)?(?:(-?\d+)M)?(?:(-?\d+(?:\.\d+)?)S)?$")
Recording = str | os.PathLike[str]
Recordings = Recording | Sequence[Recording]  # one .jfr or several (runs of one side, summed)
PRIMITIVES = {"Z": "boolean", "B": "byte", "C": "char", "S": "short", "I": "int", "J": "long", "F": "float",
              "D": "double"}


# ------------------------------------------------------------------------------------------------ recording

def start_recording(pid: int | str, name: str = "ab") -> None:
    """Starts a JFR recording in the running JVM `pid` (JDK 25 profile settings, every compilation)."""
    flame.run([flame.jdk_tool("jcmd"), pid, "JFR.start", f"name={name}", *JCMD_START_OPTIONS])


def stop_recording(pid: int | str, filename: str | os.PathLike[str], name: str = "ab") -> str:
    """Stops the recording and writes it to `filename` (made absolute: jcmd resolves it in the JVM's cwd)."""
    path = str(pathlib.Path(filename).resolve())
    flame.run([flame.jdk_tool("jcmd"), pid, "JFR.stop", f"name={name}", f"filename={path}"])
    return path


# ------------------------------------------------------------------------------------------------- reading

def millis(iso: str | None) -> float:
    """JFR's ISO-8601 durations ("PT0.0123S", "PT1M2S") in milliseconds; negative ones (no timeout) as 0."""
    match = ISO_DURATION.match(iso or "")
    if not match:
        return 0.0
    hours, minutes, seconds = (float(part) if part else 0.0 for part in match.groups())
    return max(0.0, (hours * 3600 + minutes * 60 + seconds) * 1000)


def class_name(jfr_class: dict[str, Any] | None) -> str:
    """A JFR class value as Java spells it: java.lang.String, long[], java.util.HashMap$Node[]."""
    if not jfr_class:
        return "(none)"
    name: str = jfr_class["name"]
    dims = 0
    while name.startswith("["):
        name, dims = name[1:], dims + 1
    if dims:
        name = name[1:-1] if name.startswith("L") else PRIMITIVES.get(name, name)
    return name.replace("/", ".") + "[]" * dims


def events(jfr: Recordings, types: list[str], stack_depth: int = 0) -> Iterator[tuple[str, dict[str, Any]]]:
    """Yields (type, values) of the given event types in the recording(s), stacks cut to stack_depth frames."""
    for path in flame.recordings(jfr):
        command = [flame.jdk_tool("jfr"), "print", "--json", "--stack-depth", str(stack_depth),
                   "--events", ",".join(types), str(path)]
        broken = None
        with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
            try:
                for event in ijson.items(process.stdout, "recording.events.item", use_float=True):
                    yield event["type"], event["values"]
            except ijson.JSONError as error:
                broken = error
            error_output = process.stderr.read().decode().strip() if process.stderr else ""
        if process.returncode != 0 or broken:
            raise flame.ToolError(f"{' '.join(command)} exited {process.returncode}: {error_output or broken}")


def waiting_site(values: dict[str, Any]) -> str:
    """The first frame of the waiting thread's stack outside the JDK's locking code: who waits."""
    frames = (values.get("stackTrace") or {}).get("frames") or []
    for frame in frames:
        method = frame.get("method") or {}
        name = f"{class_name(method.get('type'))}.{method.get('name')}"
        if not name.startswith(LIBRARY_FRAMES):
            return name
    return f"(deeper than {WAIT_STACK_DEPTH} frames)" if frames else "(no stack)"


class _Waits:
    """Count, total and longest wait by a key (a class or a waiting site)."""

    def __init__(self) -> None:
        self.count = collections.Counter[str]()
        self.total = collections.defaultdict[str, float](float)  # milliseconds: a Counter's values are typed int
        self.longest: dict[str, float] = {}

    def add(self, key: str, ms: float) -> None:
        self.count[key] += 1
        self.total[key] += ms
        self.longest[key] = max(self.longest.get(key, 0.0), ms)

    def ranked(self, label: str) -> list[dict[str, Any]]:
        return [{label: key, "count": self.count[key], "total_ms": round(total, 3),
                 "max_ms": round(self.longest[key], 3)}
                for key, total in sorted(self.total.items(), key=lambda item: item[1], reverse=True)[:KEEP]]


def _waits(jfr: Recordings) -> dict[str, Any]:
    """locks section: jdk.JavaMonitorEnter by monitor class, jdk.ThreadPark by parked-on class, both by site."""
    kinds = {"jdk.JavaMonitorEnter": ("monitor_enter", "monitorClass"),
             "jdk.ThreadPark": ("thread_park", "parkedClass")}
    by_class = {kind: _Waits() for kind in kinds}
    by_site = {kind: _Waits() for kind in kinds}
    for kind, values in events(jfr, WAITS, WAIT_STACK_DEPTH):
        ms = millis(values.get("duration"))
        by_class[kind].add(class_name(values.get(kinds[kind][1])), ms)
        by_site[kind].add(waiting_site(values), ms)
    return {name: {"count": sum(by_class[kind].count.values()),
                   "total_ms": round(sum(by_class[kind].total.values()), 3),
                   "classes": by_class[kind].ranked("class"), "sites": by_site[kind].ranked("site")}
            for kind, (name, _) in kinds.items()}


def _per_request(value: float, requests: int | None) -> float | None:
    return round(value / requests, 3) if requests else None


def _cpu(jfr: Recordings) -> dict[str, Any]:
    event = flame.cpu_event(jfr)
    with tempfile.TemporaryDirectory(prefix="perflab-jfr-") as tmp:
        stacks = flame.read_collapsed(flame.collapsed(jfr, f"{tmp}/cpu.collapsed", event))
    self_samples, total_samples = collections.Counter[str](), collections.Counter[str]()
    for stack, count in stacks.items():
        self_samples[stack[-1]] += count
        for method in set(stack):
            total_samples[method] += count
    samples = sum(stacks.values())

    def share(count: int) -> float:
        return round(count / samples, 4) if samples else 0.0

    def ranked(counter: collections.Counter[str]) -> list[dict[str, Any]]:
        return [{"method": method, "self": self_samples[method], "self_share": share(self_samples[method]),
                 "total": total_samples[method], "total_share": share(total_samples[method])}
                for method, _ in counter.most_common(KEEP)]

    by_layer = layers(stacks)
    return {"event": event, "samples": samples, "methods": ranked(self_samples), "inclusive": ranked(total_samples),
            "layers": [{"layer": layer, "samples": count, "share": share(count)} for layer, count in by_layer.most_common(KEEP)]}


JDK_PACKAGES = ("java.", "javax.", "jdk.", "sun.", "com.sun.")


def layer(frame: str) -> str:
    """The library a frame belongs to: its package, at most three parts deep ("org.apache.ibatis",
    "org.springframework.security"; a class in no package is its own layer). A frame is "Class.method" or
    "package.Class.method", classes capitalised as Java spells them."""
    parts = frame.split(".")
    package = []
    for part in parts[:-1]:
        if part[:1].isupper():
            break
        package.append(part)
    return ".".join(package[:3]) if package else parts[0]


def layers(stacks: dict[tuple[str, ...], int]) -> collections.Counter[str]:
    """{layer: samples} of collapsed stacks {(root, ..., leaf): count}: each sample is charged to the first frame
    from the top that is not the JDK's, so the JDK's work (a socket write, a hash map lookup) counts to the library
    that asked for it; a stack of JDK frames only is "JDK"."""
    counts = collections.Counter[str]()
    for stack, count in stacks.items():
        owner = next((frame for frame in reversed(stack) if not frame.startswith(JDK_PACKAGES)), None)
        counts["JDK" if owner is None else layer(owner)] += count
    return counts


def summary(jfr: Recordings, requests: int | None = None) -> dict[str, Any]:
    """The profile summary of one side: see the module's docstring for the sections."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as background:
        cpu = background.submit(_cpu, jfr)  # each part runs its own JDK tools
        locks = background.submit(_waits, jfr)
        sections = _events_summary(jfr, requests)
        return {"recordings": [str(path) for path in flame.recordings(jfr)], "requests": requests,
                "cpu": cpu.result(), "allocation": sections.pop("allocation"), "locks": locks.result(), **sections}


YOUNG_COLLECTORS = {"G1New", "DefNew", "ParallelScavenge", "ZGC Minor"}  # jdk.GarbageCollection's `name`; the rest
# (G1Old, G1Full, SerialOld, ParallelOld, ZGC Major, Shenandoah) collect the old generation or the whole heap


class JitGc:
    """The gc and jit sections, event by event (jdk.GarbageCollection, jdk.Compilation, jdk.Deoptimization):
    add(type, values) for each, then sections(). `focus`, a class-name prefix ("dev.perflab.support.parse."),
    also sums the compilations of the methods of those classes."""

    def __init__(self, focus: str | None = None) -> None:
        self.focus = focus
        # pauses and compile times in milliseconds, by collector and compiler (a Counter's values are typed int)
        self.gc_count, self.gc_longest = collections.Counter[str](), 0.0
        self.gc_pause = collections.defaultdict[str, float](float)
        self.compiles, self.compile_ms_by = collections.Counter[str](), collections.defaultdict[str, float](float)
        self.compile_longest, self.failed, self.osr = 0.0, 0, 0
        self.focus_compiles, self.focus_ms = 0, 0.0
        self.deopts = collections.Counter[str]()

    def add(self, kind: str, values: dict[str, Any]) -> None:
        if kind == "jdk.GarbageCollection":
            name = values.get("name") or "(unknown)"
            self.gc_count[name] += 1
            self.gc_pause[name] += millis(values.get("sumOfPauses"))
            self.gc_longest = max(self.gc_longest, millis(values.get("longestPause")))
        elif kind == "jdk.Compilation":
            ms = millis(values.get("duration"))
            compiler = values.get("compiler") or "(unknown)"
            self.compiles[compiler] += 1
            self.compile_ms_by[compiler] += ms
            self.compile_longest = max(self.compile_longest, ms)
            self.failed += 0 if values.get("succeded", values.get("succeeded", True)) else 1
            self.osr += 1 if values.get("isOsr") else 0
            if self.focus and class_name((values.get("method") or {}).get("type")).startswith(self.focus):
                self.focus_compiles += 1
                self.focus_ms += ms
        elif kind == "jdk.Deoptimization":
            self.deopts[values.get("reason") or "(unknown)"] += 1

    def sections(self) -> dict[str, Any]:
        young = sum(n for name, n in self.gc_count.items() if name in YOUNG_COLLECTORS)
        jit = {"compilations": sum(self.compiles.values()), "compile_ms": round(sum(self.compile_ms_by.values()), 3),
               "max_compile_ms": round(self.compile_longest, 3), "failed": self.failed, "osr": self.osr,
               "by_compiler": dict(self.compiles),
               "compile_ms_by_compiler": {name: round(ms, 3) for name, ms in self.compile_ms_by.items()},
               "deoptimizations": sum(self.deopts.values()),
               "deopt_reasons": [{"reason": reason, "count": count} for reason, count in self.deopts.most_common()]}
        if self.focus:
            jit["focus"] = {"prefix": self.focus, "compilations": self.focus_compiles,
                            "compile_ms": round(self.focus_ms, 3)}
        gc = {"count": sum(self.gc_count.values()), "young": young, "old": sum(self.gc_count.values()) - young,
              "total_pause_ms": round(sum(self.gc_pause.values()), 3), "max_pause_ms": round(self.gc_longest, 3),
              "collectors": [{"name": name, "count": self.gc_count[name], "total_pause_ms": round(self.gc_pause[name], 3)}
                             for name in sorted(self.gc_count)]}
        return {"gc": gc, "jit": jit}


def _events_summary(jfr: Recordings, requests: int | None) -> dict[str, Any]:
    allocated = collections.Counter[str]()
    jit_gc = JitGc()
    for kind, values in events(jfr, COUNTED):
        if kind == "jdk.ObjectAllocationSample":
            allocated[class_name(values.get("objectClass"))] += values.get("weight") or 0
        else:
            jit_gc.add(kind, values)
    total_bytes = sum(allocated.values())
    return {
        "allocation": {
            "bytes": int(total_bytes), "bytes_per_request": _per_request(total_bytes, requests),
            "classes": [{"class": name, "bytes": int(size), "share": round(size / total_bytes, 4),
                         "bytes_per_request": _per_request(size, requests)}
                        for name, size in allocated.most_common(KEEP)]},
        **jit_gc.sections(),
    }


# ------------------------------------------------------------------------------------- a window of a start

def epoch_ms(timestamp: str | None) -> float | None:
    """An event's startTime as `jfr print --json` writes it ("2026-11-26T16:46:53.725564724Z", or with an offset
    such as +09:00) in epoch milliseconds; None when it does not read as one."""
    match = START_TIME.match(timestamp or "")
    if not match:
        return None
    whole, fraction, zone = match.groups()
    moment = datetime.datetime.fromisoformat(whole + ("+00:00" if zone in ("Z", None) else zone))
    return moment.timestamp() * 1000 + float(f"0.{fraction or 0}") * 1000


def launch_option(filename: str | os.PathLike[str]) -> str:
    """The JVM flag that records a start from its first moment (the cold-start shape): JIT and GC events and
    CPU-time samples every 20 ms of a thread's CPU only (settings=none, then each event turned on), every compilation
    however short, deoptimizations without their stacks. stop_recording(pid, filename, name=LAUNCH_RECORDING) writes
    it."""
    events_on = ",".join(f"+{setting}" for setting in WINDOW_SETTINGS)
    return f"-XX:StartFlightRecording:name={LAUNCH_RECORDING},settings=none,{events_on},filename={filename}"


def on_stack(values: dict[str, Any], prefix: str) -> bool:
    """Whether a frame of the event's (cut) stack belongs to a class whose name starts with `prefix`."""
    frames = (values.get("stackTrace") or {}).get("frames") or []
    return any(class_name((frame.get("method") or {}).get("type")).startswith(prefix) for frame in frames)


def window_summary(jfr: Recordings, start_ms: float, end_ms: float, focus: str | None = None) -> dict[str, Any]:
    """The gc and jit sections (JitGc) of the events that started within [start_ms, end_ms] (epoch milliseconds):
    what the JIT and the GC did while the first requests were served; and cpu: the CPU-time samples in the window
    and, with a focus, how many of them ran the focus's code (or JDK code it called)."""
    jit_gc = JitGc(focus)
    samples = focus_samples = 0
    for kind, values in events(jfr, WINDOW_EVENTS, FOCUS_STACK_DEPTH if focus else 0):
        at = epoch_ms(values.get("startTime"))
        if at is None or not start_ms <= at <= end_ms:
            continue
        if kind == "jdk.CPUTimeSample":
            samples += 1
            focus_samples += 1 if focus and on_stack(values, focus) else 0
        else:
            jit_gc.add(kind, values)
    cpu: dict[str, float | None] = {"samples": samples}
    if focus:
        cpu.update(focus_samples=focus_samples, focus_share=round(focus_samples / samples, 5) if samples else None)
    return {"window_ms": [start_ms, end_ms], **jit_gc.sections(), "cpu": cpu}


def cell_profile(cell: dict[str, Any], out_dir: str | os.PathLike[str]) -> dict[str, Any]:
    """The JFR analysis report.html shows for one cell (tooling/perflab/render/html_page.py draws it): the differences between the last
    recording of the baseline and of the first candidate, and their differential flame graph, written to
    out_dir/flame-diff-<tag>.html. {} for a cell without a comparison; {"missing": why} when a side has no
    recording; else "diff" (jfr_diff.diff()) or "diff_error", and "flame" (the file's name) or "flame_error"."""
    comparisons = cell.get("comparisons") or []
    if not comparisons:
        return {}
    first = comparisons[0]
    a_name, b_name = last_recording(cell, first["baseline"]), last_recording(cell, first["candidate"])
    if not (a_name and b_name):
        return {"missing": "no JFR recording in this cell (--no-jfr, or a shape without a measured window)"}
    # a result records each recording's name in its output folder (older ones a whole path: its name is the same)
    a_path, b_path = (str(pathlib.Path(out_dir) / pathlib.Path(name).name) for name in (a_name, b_name))
    out: dict[str, Any] = {}
    try:
        a = summary(a_path, requests=last_requests(cell, first["baseline"]))
        b = summary(b_path, requests=last_requests(cell, first["candidate"]))
        out["diff"] = diff(a, b)
    except Exception as error:  # the report still renders; the reason is shown
        out["diff_error"] = str(error)
    try:
        target = pathlib.Path(out_dir) / f"flame-diff-{cell['tag']}.html"
        flame.diff_flamegraph(a_path, b_path, str(target))
        out["flame"] = target.name
    except Exception as error:
        out["flame_error"] = str(error)
    return out


def last_recording(cell: dict[str, Any], label: str) -> str | None:
    """The name of the last JFR recording of a variant's runs in the cell; None when none has one."""
    return next((r["jfr"] for r in reversed(cell["runs"]) if r["variant"] == label and r.get("jfr")), None)


def last_requests(cell: dict[str, Any], label: str) -> int | None:
    """The requests the last run of a variant in the cell served (what its recording's allocation is divided by)."""
    return next((r.get("requests") for r in reversed(cell["runs"]) if r["variant"] == label), None)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Profile summary of a JFR recording, or A against B, as JSON")
    parser.add_argument("jfr", nargs="+", help="recording(s) of side A (several runs are summed)")
    parser.add_argument("--against", nargs="+", metavar="JFR", help="recording(s) of side B: print the diff")
    parser.add_argument("--requests", type=int, help="requests served by A in the recorded window(s)")
    parser.add_argument("--requests-b", type=int, help="requests served by B")
    args = parser.parse_args(argv)
    profile = summary(args.jfr, args.requests)
    result = diff(profile, summary(args.against, args.requests_b)) if args.against else profile
    json.dump(result, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()

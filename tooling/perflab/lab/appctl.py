"""The app in the lab (./perflab app, up, down, status, aot): its jar, rebuilt when the sources are newer; its JDK 25
AOT cache; and its instances, one per name (--instance NAME, default app), each with its own .perflab/NAME.pid,
NAME.log and NAME.started (the start, in epoch milliseconds), started from the jar or the AOT cache and ready when
its readiness probe answers. Stdlib only."""
import math
import os
import pathlib
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from perflab.lab import labenv
from perflab.lab import machine
from perflab.lab.labenv import STATE, die
from perflab.paths import ROOT

APP_JAR = ROOT / "target" / "perflab.jar"
# the JDK 25 AOT cache (./perflab aot build): the jar extracted (the cache needs plain jars on the class path)
AOT_DIR = ROOT / "target" / "aot"
AOT_JAR = AOT_DIR / "app" / "perflab.jar"
AOT_CACHE = AOT_DIR / "perflab.aot"
# fastjson2 and Fory (the route codecs) read memory through sun.misc.Unsafe; JDK 25 warns unless it is allowed.
# PERFLAB_JVM_OPTS (or --jvm-opts) adds flags; PERFLAB_HEAP (or --heap) replaces the profile's heap preset
# (stack/heap-preset.sh, shared with the Dockerfile).
JVM_BASE_OPTS = ["--sun-misc-unsafe-memory-access=allow"]
NAME = re.compile(r"[a-z0-9][a-z0-9._-]*")
READY_WITHIN = 120  # seconds for the readiness probe to answer
STOP_WITHIN = 120   # seconds for the app to exit after SIGTERM (a training run writes the AOT cache as it exits)
# options of `app start` with a value, and the variable each exports to the app (the others are the app's own);
# --jar and --migrations run another build (a commit's: tooling/perflab/lab/refs.py) with its own db/migrations
EXPORTED = {"--port": "PERFLAB_APP_PORT", "--db": "PERFLAB_DB_NAME", "--db-port": "PERFLAB_DB_PORT",
            "--redis-port": "PERFLAB_REDIS_PORT", "--jar": "PERFLAB_APP_JAR", "--migrations": "PERFLAB_MIGRATIONS"}
VALUED = ("--profile", "--instance", "--redis-db", "--heap", "--jvm-opts", "--cpus", "--machine", *EXPORTED)


def url(port: int | str | None = None) -> str:
    return f"http://127.0.0.1:{port or os.environ.get('PERFLAB_APP_PORT', '8080')}"


def check_name(name: str) -> str:
    if not NAME.fullmatch(name):
        die(f"instance name '{name}': use lower-case letters, digits, '.', '_' and '-'")
    return name


class Instance(labenv.Process):
    """One app instance by name: its pid file, log and start stamp in .perflab."""

    def __init__(self, name: str = "app") -> None:
        super().__init__(check_name(name))
        self.started_file = STATE / f"{name}.started"

    def stop(self, quiet: bool = False) -> bool:
        """Stop it (SIGTERM, at most STOP_WITHIN s until it has exited, then SIGKILL) and remove its CPU limit;
        `app stopped` when it ran."""
        stopped = super().stop_within(STOP_WITHIN, f"the app '{self.name}'")
        machine.release(self.name)
        if stopped and not quiet:
            labenv.say("app stopped")
        return stopped


@dataclass
class Options:
    """`app start`'s options: the instance, the preset, the AOT mode (use, train, warm or none), the app's own arguments,
    the heap and extra JVM flags, the machine profile and CPU share (--cpus overrides the profile's), and the
    variables --port, --db, --db-port and --redis-port set for the app."""
    instance: str = "app"
    profile: str = ""
    aot: str = ""
    app_args: list[str] = field(default_factory=list)
    heap: str = ""
    jvm_opts: str = ""
    env: dict[str, str] = field(default_factory=dict)
    machine: str = ""
    cpus: float | None = None

    @property
    def port(self) -> str:
        return self.env.get("PERFLAB_APP_PORT") or os.environ.get("PERFLAB_APP_PORT", "8080")

    @property
    def url(self) -> str:
        return url(self.port)


def parse(argv: Iterable[str], instance: str = "app") -> Options:
    """`app start|stop|restart|status` options -> Options (SPRING_PROFILES_ACTIVE, PERFLAB_HEAP and PERFLAB_JVM_OPTS
    are the defaults); a readable error for an unknown option or a missing value."""
    options = Options(instance=check_name(instance), profile=os.environ.get("SPRING_PROFILES_ACTIVE", ""),
                      heap=os.environ.get("PERFLAB_HEAP", ""), jvm_opts=os.environ.get("PERFLAB_JVM_OPTS", ""))
    redis_db = ""
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--aot":
            options.aot = "use"
        elif arg == "--warm":
            options.aot = "warm"
        elif arg in VALUED:
            if not args:
                die(f"{arg} needs a value")
            value = args.pop(0)
            if arg == "--migrations":
                options.env[EXPORTED[arg]] = f"filesystem:{value}"
            elif arg in EXPORTED:
                options.env[EXPORTED[arg]] = value
            elif arg == "--instance":
                options.instance = check_name(value)
            elif arg == "--redis-db":
                redis_db = value
            elif arg == "--cpus":
                options.cpus = cpus_value(value)
            else:
                setattr(options, {"--jvm-opts": "jvm_opts"}.get(arg, arg[2:]), value)
        elif arg.startswith("--profile="):
            options.profile = arg.removeprefix("--profile=")
        elif arg.startswith("--instance="):
            options.instance = check_name(arg.removeprefix("--instance="))
        elif arg == "--":
            options.app_args = args
            break
        else:
            die(f"unknown option {arg} (see ./perflab help)")
    if redis_db:
        options.app_args = [f"--spring.data.redis.database={redis_db}", *options.app_args]
    return options


def cpus_value(text: str) -> float:
    try:
        cpus = float(text)
    except ValueError:
        cpus = 0.0
    if not cpus > 0 or math.isinf(cpus):
        die(f"--cpus {text}: a positive number of CPUs, e.g. 0.5")
    return cpus


def jvm_command(options: Options, preset: str) -> tuple[list[str], float | None]:
    """The JVM's flags, in the order that lets a later one win: the Spring profile's heap preset (left out when the
    machine profile sizes memory itself, or --heap is given), the machine profile's flags, --heap, perflab's own,
    --jvm-opts. Returns (flags, the CPU share or None)."""
    p = machine.profile(options.machine) if options.machine else None
    machine_jvm = p["app"]["jvm"] if p else []
    cpus = options.cpus if options.cpus is not None else (p["app"]["cpus"] if p else None)
    heap = options.heap.split() if options.heap else [] if machine.sizes_memory(machine_jvm) else preset.split()
    if options.heap:
        return [*machine_jvm, *heap, *JVM_BASE_OPTS, *options.jvm_opts.split()], cpus
    return [*heap, *machine_jvm, *JVM_BASE_OPTS, *options.jvm_opts.split()], cpus


# ---- the jar and the AOT cache ----

def jar_stale() -> bool:
    """The jar is missing, or a file or folder of src/main, or pom.xml, is newer than it."""
    if not APP_JAR.is_file():
        return True
    built = APP_JAR.stat().st_mtime_ns
    if (ROOT / "pom.xml").stat().st_mtime_ns > built:
        return True
    for folder, _, files in os.walk(ROOT / "src" / "main"):
        for path in (folder, *(os.path.join(folder, f) for f in files)):
            if os.stat(path).st_mtime_ns > built:
                return True
    return False


def app_jar(environ: Mapping[str, str] | None = None) -> pathlib.Path:
    """The jar to run: PERFLAB_APP_JAR (--jar: a commit's build), else target/perflab.jar."""
    given = (os.environ if environ is None else environ).get("PERFLAB_APP_JAR")
    return pathlib.Path(given) if given else APP_JAR


def build_jar(environ: Mapping[str, str] | None = None) -> None:
    """Builds target/perflab.jar when it is stale; a jar given by PERFLAB_APP_JAR is never built here, only checked."""
    jar = app_jar(environ)
    if jar != APP_JAR:
        if not jar.is_file():
            die(f"no jar {jar} (PERFLAB_APP_JAR)")
        return
    if jar_stale():
        labenv.say("building target/perflab.jar (./mvnw package -DskipTests; the first build also downloads "
                   "Maven's dependencies, once)")
        began = time.monotonic()
        labenv.run(["./mvnw", "-B", "-q", "-DskipTests", "package"], env=dict(os.environ, JAVA_HOME=labenv.jdk()))
        labenv.say(f"built target/perflab.jar in {time.monotonic() - began:.0f} s")


def aot_fresh() -> bool:
    """The AOT cache belongs to one jar: it is fresh when it is newer than target/perflab.jar."""
    if not (AOT_CACHE.is_file() and AOT_JAR.is_file()):
        return False
    if APP_JAR.exists() and AOT_CACHE.stat().st_mtime_ns <= APP_JAR.stat().st_mtime_ns:
        return False
    return not jar_stale()


def aot_cache_options(mode: str) -> list[str]:
    """A start from the AOT cache: the classes it holds loaded and linked, its profiles ready (JDK 25). Mode "on"
    (--aot) fails a start whose flags the cache cannot serve; "auto" (--warm) then makes it a plain start, never a
    failed one (another GC or heap flags of a variant)."""
    return [f"-XX:AOTCache={AOT_CACHE}", f"-XX:AOTMode={mode}"]


def size_mb(path: str | os.PathLike[str]) -> int:
    """What `du -m` says: the disk space, in MiB rounded up."""
    return math.ceil(pathlib.Path(path).stat().st_blocks * 512 / 2 ** 20)


def heap_preset(profiles: str) -> str:
    """The heap preset of the profiles (stack/heap-preset.sh, the one definition the Dockerfile uses too)."""
    return subprocess.run(["sh", str(ROOT / "stack" / "heap-preset.sh"), profiles], capture_output=True, text=True,
                          check=True).stdout.strip()


# ---- starting an instance ----

def ready(base_url: str, timeout: float = 5) -> bool:
    try:
        with urllib.request.urlopen(f"{base_url}/actuator/health/readiness", timeout=timeout) as answer:
            status: int = answer.status
            return status < 400
    except (OSError, ValueError):
        return False


def variant_line(log_file: str | os.PathLike[str]) -> str | None:
    """The app's first `perflab variant` log line, as `variant ...`, or None."""
    try:
        with open(log_file, errors="replace") as log:
            for line in log:
                if "perflab variant" in line:
                    return re.sub(r".*: perflab variant", "variant", line.rstrip("\n"), count=1)
    except OSError:
        pass
    return None


def aot_jar(aot: str, jar: pathlib.Path) -> tuple[pathlib.Path, list[str]]:
    """The jar to run and its JVM options for --aot `aot` (use, train, warm or none), given the jar it would run."""
    if aot and jar != APP_JAR:
        die(f"--aot runs the working tree's AOT cache, not the jar {jar}")
    if aot == "use":
        if not aot_fresh():
            die("no AOT cache for the current jar: ./perflab aot build")
        return AOT_JAR, aot_cache_options("on")
    if aot == "train":
        return AOT_JAR, [f"-XX:AOTCacheOutput={AOT_CACHE}"]
    if aot == "warm" and jar == APP_JAR and aot_fresh():
        return AOT_JAR, aot_cache_options("auto")
    return jar, []


def launch(options: Options, say: Callable[[str], None] | None = None) -> None:
    """Start the instance and return when it is ready (at most READY_WITHIN s); stop with the log's tail when it
    exits during startup. `say` takes its progress lines (the runner, which says its own, passes one that drops
    them)."""
    say = say or labenv.say
    instance = Instance(options.instance)
    if instance.running():
        die(f"the app '{instance.name}' already runs (pid {instance.pid()}); "
            f"./perflab app stop --instance {instance.name} first")
    env = {**os.environ, **options.env}
    # natively the app listens on loopback only (HAProxy and every client here reach it there); PERFLAB_APP_BIND
    # opens it wider. Compose and Kubernetes do not start it here: in their containers it listens on every interface
    env["SERVER_ADDRESS"] = env.get("PERFLAB_APP_BIND") or "127.0.0.1"
    build_jar(env)
    STATE.mkdir(parents=True, exist_ok=True)
    labenv.ensure_secrets()
    java = pathlib.Path(labenv.jdk()) / "bin" / "java"
    jar, aot_options = aot_jar(options.aot, app_jar(env))
    port = env["PERFLAB_APP_PORT"]
    if labenv.port_open(port):
        die(f"port {port} is already taken by another process: stop it, or start this instance with --port N")
    started = time.time_ns()
    instance.started_file.write_text(f"{started // 1_000_000}\n")
    flags, cpus = jvm_command(options, "" if options.heap else heap_preset(options.profile))
    profile = [f"--spring.profiles.active={options.profile}"] if options.profile else []
    machine.release(instance.name)  # a group left by an instance that was killed
    pid = instance.spawn(machine.enter_command(instance.name, cpus, [java, *flags, *aot_options, "-jar", jar, *profile,
                                                                     *options.app_args]), env=env)
    limit = machine.limit(instance.name, pid, cpus, options.machine or None)
    say(f"starting the app '{instance.name}' on port {port} (profile: {options.profile or 'default'}, "
               f"database: {env['PERFLAB_DB_NAME']}, log: {instance.log_file}"
               + (f", jar: {jar}" if jar not in (APP_JAR, AOT_JAR) else "")
               + (", warm: the AOT cache" if aot_options and options.aot == "warm" else "") + ")")
    if limit:
        say(f"CPU limit: {machine.status_line(instance.name)}")
    await_ready(instance, port, started, say)


def await_ready(instance: Instance, port: str, started: int, say: Callable[[str], None]) -> None:
    """Return when the instance started at `started` (ns) answers ready on `port`, at most READY_WITHIN s; stop with
    its log's tail when it exits first."""
    deadline = time.monotonic() + READY_WITHIN
    while True:
        if ready(url(port)):
            say(f"app ready at {url(port)} in {(time.time_ns() - started) // 1_000_000} ms; GC: {gc(url(port))}")
            line = variant_line(instance.log_file)
            if line:
                say(line)
            return
        if not instance.running():
            print(labenv.tail(instance.log_file, 40), end="", file=sys.stderr)
            instance.pid_file.unlink(missing_ok=True)
            machine.release(instance.name)
            die(f"the app exited during startup (log: {instance.log_file})")
        if time.monotonic() >= deadline:
            die(f"the app did not report readiness within {READY_WITHIN} s (log: {instance.log_file})")
        time.sleep(0.2)


def gc(base_url: str) -> str:
    """The GC the running app uses, from its metrics' heap pools; 'unknown' when they do not tell."""
    try:
        with urllib.request.urlopen(f"{base_url}/actuator/prometheus", timeout=5) as answer:
            return machine.gc_from_text(answer.read().decode()) or "unknown"
    except (OSError, ValueError):
        return "unknown"


def start(argv: Iterable[str], aot: str | None = None, instance: str = "app", env: Mapping[str, str] | None = None,
          say: Callable[[str], None] | None = None) -> Options:
    """`app start [options]`: parse them and launch; `aot` (use, train) overrides --aot, `env` adds variables."""
    options = parse(argv, instance)
    if aot is not None:
        options.aot = aot
    options.env = {**(env or {}), **options.env}
    launch(options, say)
    return options

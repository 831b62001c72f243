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
from dataclasses import dataclass, field

import labenv
from labenv import ROOT, STATE, die

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
# options of `app start` with a value, and the variable each exports to the app (the others are the app's own)
EXPORTED = {"--port": "PERFLAB_APP_PORT", "--db": "PERFLAB_DB_NAME", "--db-port": "PERFLAB_DB_PORT",
            "--redis-port": "PERFLAB_REDIS_PORT"}
VALUED = ("--profile", "--instance", "--redis-db", "--heap", "--jvm-opts", *EXPORTED)


def url(port=None):
    return f"http://127.0.0.1:{port or os.environ.get('PERFLAB_APP_PORT', '8080')}"


def check_name(name):
    if not NAME.fullmatch(name):
        die(f"instance name '{name}': use lower-case letters, digits, '.', '_' and '-'")
    return name


class Instance(labenv.Process):
    """One app instance by name: its pid file, log and start stamp in .perflab."""

    def __init__(self, name="app"):
        super().__init__(check_name(name))
        self.started_file = STATE / f"{name}.started"

    def stop(self, quiet=False):
        """Stop it (SIGTERM, at most STOP_WITHIN s until it has exited, then SIGKILL); `app stopped` when it ran."""
        stopped = super().stop(STOP_WITHIN, f"the app '{self.name}'")
        if stopped and not quiet:
            labenv.say("app stopped")
        return stopped


@dataclass
class Options:
    """`app start`'s options: the instance, the preset, the AOT mode (use, train or none), the app's own arguments,
    the heap and extra JVM flags, and the variables --port, --db, --db-port and --redis-port set for the app."""
    instance: str = "app"
    profile: str = ""
    aot: str = ""
    app_args: list = field(default_factory=list)
    heap: str = ""
    jvm_opts: str = ""
    env: dict = field(default_factory=dict)

    @property
    def port(self):
        return self.env.get("PERFLAB_APP_PORT") or os.environ.get("PERFLAB_APP_PORT", "8080")

    @property
    def url(self):
        return url(self.port)


def parse(argv, instance="app"):
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
        elif arg in VALUED:
            if not args:
                die(f"{arg} needs a value")
            value = args.pop(0)
            if arg in EXPORTED:
                options.env[EXPORTED[arg]] = value
            elif arg == "--instance":
                options.instance = check_name(value)
            elif arg == "--redis-db":
                redis_db = value
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


# ---- the jar and the AOT cache ----

def jar_stale():
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


def build_jar():
    if jar_stale():
        labenv.say("building target/perflab.jar (./mvnw package -DskipTests)")
        labenv.run(["./mvnw", "-B", "-q", "-DskipTests", "package"], env=dict(os.environ, JAVA_HOME=labenv.jdk()))


def aot_fresh():
    """The AOT cache belongs to one jar: it is fresh when it is newer than target/perflab.jar."""
    if not (AOT_CACHE.is_file() and AOT_JAR.is_file()):
        return False
    if APP_JAR.exists() and AOT_CACHE.stat().st_mtime_ns <= APP_JAR.stat().st_mtime_ns:
        return False
    return not jar_stale()


def size_mb(path):
    """What `du -m` says: the disk space, in MiB rounded up."""
    return math.ceil(pathlib.Path(path).stat().st_blocks * 512 / 2 ** 20)


def heap_preset(profiles):
    """The heap preset of the profiles (stack/heap-preset.sh, the one definition the Dockerfile uses too)."""
    return subprocess.run(["sh", str(ROOT / "stack" / "heap-preset.sh"), profiles], capture_output=True, text=True,
                          check=True).stdout.strip()


# ---- starting an instance ----

def ready(base_url, timeout=5):
    try:
        with urllib.request.urlopen(f"{base_url}/actuator/health/readiness", timeout=timeout) as answer:
            return answer.status < 400
    except (OSError, ValueError):
        return False


def variant_line(log_file):
    """The app's first `perflab variant` log line, as `variant ...`, or None."""
    try:
        with open(log_file, errors="replace") as log:
            for line in log:
                if "perflab variant" in line:
                    return re.sub(r".*: perflab variant", "variant", line.rstrip("\n"), count=1)
    except OSError:
        pass
    return None


def launch(options):
    """Start the instance and return when it is ready (at most READY_WITHIN s); stop with the log's tail when it
    exits during startup."""
    instance = Instance(options.instance)
    if instance.running():
        die(f"the app '{instance.name}' already runs (pid {instance.pid()}); "
            f"./perflab app stop --instance {instance.name} first")
    build_jar()
    STATE.mkdir(parents=True, exist_ok=True)
    labenv.ensure_secrets()
    java = pathlib.Path(labenv.jdk()) / "bin" / "java"
    jar, aot_options = APP_JAR, []
    if options.aot == "use":
        if not aot_fresh():
            die("no AOT cache for the current jar: ./perflab aot build")
        jar, aot_options = AOT_JAR, [f"-XX:AOTCache={AOT_CACHE}", "-XX:AOTMode=on"]
    elif options.aot == "train":
        jar, aot_options = AOT_JAR, [f"-XX:AOTCacheOutput={AOT_CACHE}"]
    env = {**os.environ, **options.env}
    port = env["PERFLAB_APP_PORT"]
    if labenv.port_open(port):
        die(f"port {port} is already taken by another process: stop it, or start this instance with --port N")
    started = time.time_ns()
    instance.started_file.write_text(f"{started // 1_000_000}\n")
    heap = options.heap or heap_preset(options.profile)
    profile = [f"--spring.profiles.active={options.profile}"] if options.profile else []
    instance.spawn([java, *heap.split(), *JVM_BASE_OPTS, *options.jvm_opts.split(), *aot_options, "-jar", jar,
                    *profile, *options.app_args], env=env)
    labenv.say(f"starting the app '{instance.name}' on port {port} (profile: {options.profile or 'default'}, "
               f"database: {env['PERFLAB_DB_NAME']}, log: {instance.log_file})")
    deadline = time.monotonic() + READY_WITHIN
    while True:
        if ready(url(port)):
            labenv.say(f"app ready at {url(port)} in {(time.time_ns() - started) // 1_000_000} ms")
            line = variant_line(instance.log_file)
            if line:
                labenv.say(line)
            return
        if not instance.running():
            print(labenv.tail(instance.log_file, 40), end="", file=sys.stderr)
            instance.pid_file.unlink(missing_ok=True)
            die(f"the app exited during startup (log: {instance.log_file})")
        if time.monotonic() >= deadline:
            die(f"the app did not report readiness within {READY_WITHIN} s (log: {instance.log_file})")
        time.sleep(0.2)


def start(argv, aot=None, instance="app", env=None):
    """`app start [options]`: parse them and launch; `aot` (use, train) overrides --aot, `env` adds variables."""
    options = parse(argv, instance)
    if aot is not None:
        options.aot = aot
    options.env = {**(env or {}), **options.env}
    launch(options)
    return options

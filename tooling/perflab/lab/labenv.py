"""The lab around ./perflab's commands (tooling/perflab/commands/): the one reader of .env, where each service listens and one
readable line when one is down, the JDK 25 that ./perflab found, the app's secrets (stack/secrets.sh), the native
stack's script (stack/native.sh), a Docker engine, and the lab's own long-running processes (an app instance, a load
balancer): a pid file and a log in .perflab, a start that outlives the command, and a stop that waits, within a bound,
until the process has exited. Stdlib only."""
import functools
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import MutableMapping, Mapping
from typing import Any, NoReturn

from perflab.lab import labsecrets

from perflab.paths import ROOT
STATE = ROOT / ".perflab"  # pid files, logs and start stamps of the lab's processes; the venv; the secrets
NATIVE = ROOT / "stack" / "native.sh"
ENV_LINE = re.compile(r"([A-Z_][A-Z0-9_]*)=(.*)")
MIGRATIONS = ROOT / "db" / "migrations"


def migrations_dir(environ: Mapping[str, str] | None = None) -> pathlib.Path:
    """The db/migrations the app and the seeds migrate with: PERFLAB_MIGRATIONS (Flyway's `filesystem:<dir>`, what a
    commit's own build uses: tooling/perflab/lab/refs.py), else the working tree's."""
    location = (os.environ if environ is None else environ).get("PERFLAB_MIGRATIONS", "")
    return pathlib.Path(location.removeprefix("filesystem:")) if location else MIGRATIONS


def die(message: str) -> NoReturn:
    """Stop the command with one line on stderr, `perflab: <message>`, and exit code 1."""
    raise SystemExit(f"perflab: {message}")


def say(message: str = "") -> None:
    print(message, flush=True)


# ---- .env ----

def env(name: str, default: str) -> str:
    """A variable as the shell's ${NAME:-default} reads it: empty counts as unset."""
    return os.environ.get(name) or default


def read_env(path: str | os.PathLike[str]) -> dict[str, str]:
    """The KEY=value lines of an .env file as a dict (comments and other lines skipped, values taken as written)."""
    values = {}
    for line in pathlib.Path(path).read_text().splitlines():
        match = ENV_LINE.fullmatch(line)
        if match:
            values[match.group(1)] = match.group(2)
    return values


def load_env(root: str | os.PathLike[str] = ROOT,
              environ: MutableMapping[str, str] | None = None) -> MutableMapping[str, str]:
    """.env gives defaults; a variable already set in the environment wins (PERFLAB_APP_PORT=8082 ./perflab app start).
    PERFLAB_DB_PASSWORD, unless set, is this install's generated one (labsecrets.MARIADB_PASSWORD, made when missing),
    which stack/native.sh gives the native MariaDB's user: .env's is only compose's default."""
    environ = os.environ if environ is None else environ
    explicit = bool(environ.get("PERFLAB_DB_PASSWORD"))
    for key, value in read_env(pathlib.Path(root) / ".env").items():
        environ.setdefault(key, value)
    if not explicit and pathlib.Path(root) == ROOT:
        environ["PERFLAB_DB_PASSWORD"] = labsecrets.stored(labsecrets.MARIADB_PASSWORD)
        environ[NATIVE_PASSWORD_MARK] = "1"
    return environ


NATIVE_PASSWORD_MARK = "PERFLAB_DB_PASSWORD_IS_NATIVE"  # load_env gave PERFLAB_DB_PASSWORD the native stack's secret


def compose_environ(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for a docker compose command: the caller's, without the native stack's generated database
    password that load_env put there. Compose's lab keeps its own credentials (.env's, or the user's
    PERFLAB_DB_PASSWORD): a compose command from ./perflab and one typed by hand then configure MariaDB alike, and
    neither recreates it (with a new, empty data volume) for the other's password."""
    environ = dict(os.environ if environ is None else environ)
    if environ.pop(NATIVE_PASSWORD_MARK, None):
        environ.pop("PERFLAB_DB_PASSWORD", None)
    return environ


def mariadb_client_env() -> dict[str, str]:
    """The environment for the mariadb client: the password as MYSQL_PWD, never on its command line (ps shows it)."""
    return {**os.environ, "MYSQL_PWD": env("PERFLAB_DB_PASSWORD", "perflab")}


# ---- the services ----

SERVICES = {  # name: (label, host variable, port variable, default port)
    "mariadb": ("MariaDB", "PERFLAB_DB_HOST", "PERFLAB_DB_PORT", "3306"),
    "redis": ("Redis", "PERFLAB_REDIS_HOST", "PERFLAB_REDIS_PORT", "6379"),
    "wiremock": ("WireMock (the auth API stub)", "PERFLAB_WIREMOCK_HOST", "PERFLAB_WIREMOCK_PORT", "8089"),
    "toxiproxy": ("Toxiproxy", "PERFLAB_TOXIPROXY_HOST", "PERFLAB_TOXIPROXY_PORT", "8474"),
    "prometheus": ("Prometheus", "PERFLAB_PROMETHEUS_HOST", "PERFLAB_PROMETHEUS_PORT", "9090"),
    "app": ("the app", None, "PERFLAB_APP_PORT", "8080"),
}


def service_address(service: str, environ: Mapping[str, str] | None = None) -> tuple[str, str]:
    """(host, port) of mariadb, redis, wiremock, toxiproxy, prometheus or app; PERFLAB_*_PORT and PERFLAB_*_HOST
    override (natively every service is on 127.0.0.1; in the compose runner each is its service's name)."""
    environ = os.environ if environ is None else environ
    _, host_key, port_key, default = SERVICES[service]
    return (host_key and environ.get(host_key)) or "127.0.0.1", environ.get(port_key) or default


def service_label(service: str) -> str:
    return SERVICES[service][0] if service in SERVICES else service


def port_open(port: int | str, host: str = "127.0.0.1", timeout: float = 2.0) -> bool:
    """Whether the port accepts a TCP connection."""
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            return True
    except (OSError, ValueError):
        return False


def service_up(service: str) -> bool:
    host, port = service_address(service)
    return port_open(port, host)


def require_services(*services: str) -> None:
    """Exit with one line naming the first service that is down and how to start it."""
    for service in services:
        if service_up(service):
            continue
        how = "./perflab app start (or ./perflab up)" if service == "app" else f"./perflab stack up {service}"
        host, port = service_address(service)
        die(f"{service_label(service)} is not running on {host}:{port}: start it with {how}")


# ---- the JDK, Docker, the native stack, the secrets ----

def jdk() -> str:
    """The JDK 25 that ./perflab found (PERFLAB_JDK, exported by the entry script; it is also JAVA_HOME)."""
    return os.environ.get("PERFLAB_JDK") or die("JDK 25 not found: set JAVA_HOME to a JDK 25 (perflab targets Java 25)")


def docker_engine(environ: Mapping[str, str] | None = None) -> bool:
    """Whether a Docker engine answers (then ./perflab up takes Docker compose)."""
    environ = os.environ if environ is None else environ
    if not shutil.which("docker", path=environ.get("PATH")):
        return False
    try:
        return subprocess.run(["docker", "info"], env=environ, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              timeout=60).returncode == 0
    except subprocess.TimeoutExpired:
        return False


def compose(*args: str, root: pathlib.Path = ROOT) -> list[str]:
    """A `docker compose` command line on the compose project of `root` (this repository's, unless a clone's)."""
    return ["docker", "compose", "--project-directory", str(root), *args]


def compose_lab_running(environ: Mapping[str, str] | None = None) -> bool:
    """Whether this repository's compose lab has a container running (the Docker path of ./perflab up); False
    without a docker command or an engine that answers."""
    environ = os.environ if environ is None else environ
    if not shutil.which("docker", path=environ.get("PATH")):
        return False
    try:
        listed = subprocess.run(compose("ps", "-q", "--status", "running"), env=compose_environ(environ), capture_output=True,
                                text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return listed.returncode == 0 and bool(listed.stdout.strip())


def run(argv: list[Any], **options: Any) -> None:
    """Run a command, its output passed through; a failure stops this command with the same exit code."""
    sys.stdout.flush()
    code = subprocess.run([str(a) for a in argv], cwd=options.pop("cwd", ROOT), **options).returncode
    if code != 0:
        raise SystemExit(code)


def native(*args: str, **options: Any) -> None:
    """stack/native.sh with these arguments (up, down, status, install-lb, prometheus-targets ...)."""
    run([NATIVE, *args], **options)


def native_bin() -> str:
    """Where the native stack keeps its tools (k6): stack/native.sh bin."""
    return subprocess.run([str(NATIVE), "bin"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()


@functools.cache
def native_run_dir() -> pathlib.Path:
    """Where the native stack keeps its run files (pid files, MariaDB's socket, the A/B runner's scrape targets): the
    run/ beside the tools' folder that stack/native.sh bin names. CalledProcessError or OSError when it cannot say."""
    return pathlib.Path(native_bin()).parent / "run"


def ensure_secrets() -> None:
    """The app's secrets, generated once per checkout by stack/secrets.sh (PERFLAB_SECRETS_DIR, default
    .perflab/secrets); every path that starts the app or signs a token goes through here. In the compose lab's
    runner (PERFLAB_LAB=compose) compose's `secrets` service made them, in the volume it mounts read-only."""
    if os.environ.get("PERFLAB_LAB") == "compose":
        return
    run(["bash", ROOT / "stack" / "secrets.sh"])


def jwt_secret() -> str:
    """What the app signs tokens with; PERFLAB_SECURITY_JWT_SECRET wins over the file, as it does in the app."""
    from perflab.lab import labsecrets
    ensure_secrets()
    return labsecrets.jwt_secret()


def k6_secrets() -> dict[str, str]:
    """What k6 needs from the secrets, for its environment (never its command line, where ps shows it): JWT_SECRET
    and this install's credentials (MEMBER_PASSWORD, MEMBER_PIN, ADMIN_LOGIN, ADMIN_PASSWORD; one set in the
    environment wins)."""
    from perflab.lab import labsecrets
    secret = jwt_secret()
    return {**labsecrets.k6_env(), **{k: v for k, v in os.environ.items() if k in labsecrets.K6_VARIABLES},
            "JWT_SECRET": secret}


def tail(path: str | os.PathLike[str], lines: int) -> str:
    """The last `lines` lines of a text file ('' when it cannot be read)."""
    try:
        text = pathlib.Path(path).read_text(errors="replace")
    except OSError:
        return ""
    return "".join(text.splitlines(keepends=True)[-lines:])


# ---- the lab's own processes ----

def alive(pid: int) -> bool:
    """Whether the process runs. A child of this process is gone once reaped here: after kill -9 a multi-threaded
    child's main thread shows Z while its other threads still exit and its sockets stay open (the chaos suite's
    restart met its own port still taken), and waitpid reaps it only when all are gone. Another process's zombie
    counts as gone: its parent reaps it."""
    try:
        reaped, _ = os.waitpid(pid, os.WNOHANG)
        if reaped == pid:
            return False
        child = True
    except ChildProcessError:
        child = False
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    if child:
        return True
    try:
        return pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def wait_gone(pid: int, seconds: float, interval: float = 0.1) -> bool:
    """Poll until the process has exited; whether it did within `seconds`."""
    deadline = time.monotonic() + seconds
    while alive(pid):
        if time.monotonic() >= deadline:
            return False
        time.sleep(interval)
    return True


def terminate(pid: int, seconds: float, what: str) -> None:
    """SIGTERM, then wait until the process has exited, at most `seconds`; only then SIGKILL, and wait again (10 s):
    a caller that starts a server next never meets the one still going away."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    if wait_gone(pid, seconds):
        return
    print(f"{what} (pid {pid}) did not exit within {seconds:g} s: kill -9", file=sys.stderr)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        return
    if not wait_gone(pid, 10):
        print(f"{what} (pid {pid}) is still there 10 s after kill -9", file=sys.stderr)


class Process:
    """A long-running process of the lab, by name: .perflab/NAME.pid and NAME.log. Started in a session of its own,
    it outlives the command that started it and no terminal signal reaches it."""

    def __init__(self, name: str, directory: str | os.PathLike[str] = STATE) -> None:
        self.name = name
        self.directory = pathlib.Path(directory)
        self.pid_file = self.directory / f"{name}.pid"
        self.log_file = self.directory / f"{name}.log"

    def pid(self) -> int | None:
        try:
            return int(self.pid_file.read_text().strip())
        except (OSError, ValueError):
            return None

    def running(self) -> bool:
        pid = self.pid()
        return pid is not None and alive(pid)

    def spawn(self, argv: list[Any], env: Mapping[str, str] | None = None, append: bool = False) -> int:
        """Start it, stdout and stderr into its log (appended to, or replaced); its pid into its pid file."""
        self.directory.mkdir(parents=True, exist_ok=True)
        sys.stdout.flush()
        with open(self.log_file, "ab" if append else "wb") as log:
            process = subprocess.Popen([str(a) for a in argv], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                                       stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        self.pid_file.write_text(f"{process.pid}\n")
        return process.pid

    def stop_within(self, seconds: float, what: str | None = None) -> bool:
        """Stop it and wait until it has exited (terminate); whether it was running."""
        pid = self.pid()
        was_running = pid is not None and alive(pid)
        if pid is not None and was_running:
            terminate(pid, seconds, what or self.name)
        self.pid_file.unlink(missing_ok=True)
        return was_running


def machine() -> dict[str, float | str | None]:
    """This machine as a result records it: its cores, memory (GiB) and OS, each left out when it cannot be read."""
    info: dict[str, float | str | None] = {"cores": os.cpu_count()}
    try:
        info["memory_gb"] = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    except (ValueError, OSError):
        pass
    try:
        info["os"] = dict(re.findall(r'^(\w+)="?([^"\n]*)"?$', pathlib.Path("/etc/os-release").read_text(), re.M)) \
            .get("PRETTY_NAME", "")
    except OSError:
        pass
    return info

"""The compose lab's apps: each variant an app container of the image compose builds for its `app` service, started
beside compose's services through the Docker engine, with the variant's preset and knobs, its machine profile as the
container's CPU and memory limits and its network profile through compose's Toxiproxy. The runner that starts them
runs in compose's network too (the `runner` service, PERFLAB_LAB=compose), so every part is reached by its service's
name and nothing is published beyond the engine.

The containers are named perflab-ab-8091, perflab-ab-8092, ... (the native instances' names), labelled perflab.ab,
and removed when their run ends; `docker ps --filter label=perflab.ab` lists what a killed run left. Their JVM's
process is the engine's: the runner reads their metrics over HTTP, and their CPU (and MariaDB's and Redis') as the
engine counts it for each container (its stats API, over the socket the runner mounts); no JFR here.
"""
import http.client
import json
import math
import os
import socket
import subprocess
import time
from collections.abc import Iterable, Mapping
from typing import Any

from perflab.lab import appctl
from perflab.lab import compose_settings
from perflab.lab import labenv
from perflab.lab import launcher
from perflab.lab import scrape

LABEL = "perflab.ab"
# compose's project is `perflab` (docker-compose.yml's name): its app image, network and secrets volume
IMAGE = os.environ.get("PERFLAB_APP_IMAGE", "perflab-app")
NETWORK = os.environ.get("PERFLAB_COMPOSE_NETWORK", "perflab_default")
SECRETS_VOLUME = os.environ.get("PERFLAB_SECRETS_VOLUME", "perflab_perflab-secrets")
APP_PORT = 8080  # the app's port inside its container (the Dockerfile's EXPOSE)
# passed to `docker run` by name only (-e NAME): the value comes from the runner's environment, never its argv
BY_NAME = ("PERFLAB_DB_USER", "PERFLAB_DB_PASSWORD")


def docker(*args: str, env: Mapping[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["docker", *args], capture_output=True, text=True, timeout=timeout,
                          env=None if env is None else {**os.environ, **env})


class ComposeApp(launcher.App):
    """A variant as an app container of compose's app image: started detached, ready when its readiness probe says
    UP, removed (its log kept in .perflab/<instance>.log) when it stops."""

    def __init__(self, experiment: dict[str, Any], variant: dict[str, Any], index: int, env: Mapping[str, str],
                 network_options: Iterable[str] = (), network_args: Iterable[str] = ()) -> None:
        super().__init__(experiment, variant, index, env, network_options, network_args)
        self.env = env
        self.container = f"perflab-{self.instance}"
        self.url = f"http://{self.container}:{APP_PORT}"
        self.started_ms: int | None = None

    def pid(self) -> int | None:
        return None  # the engine's process, not this container's: no process CPU, JFR or pinning

    def builds_working_tree(self) -> bool:
        return False  # compose builds the image (docker compose build app)

    def variables(self, options: appctl.Options, flags: list[str]) -> dict[str, str]:
        """The container's environment: the app's services by name (through Toxiproxy when the network profile
        gives a port of the runner's proxies), its database, preset and every JVM flag."""
        db_host, db_port = labenv.service_address("mariadb", self.env)
        redis_host, redis_port = labenv.service_address("redis", self.env)
        proxy_host, _ = labenv.service_address("toxiproxy", self.env)
        mine = options.env
        return {"SPRING_PROFILES_ACTIVE": options.profile,
                "PERFLAB_SECRETS_DIR": "/run/secrets/perflab/app",
                "PERFLAB_DB_NAME": mine.get("PERFLAB_DB_NAME", self.database),
                "PERFLAB_DB_HOST": proxy_host if "PERFLAB_DB_PORT" in mine else db_host,
                "PERFLAB_DB_PORT": mine.get("PERFLAB_DB_PORT", db_port),
                "PERFLAB_REDIS_HOST": proxy_host if "PERFLAB_REDIS_PORT" in mine else redis_host,
                "PERFLAB_REDIS_PORT": mine.get("PERFLAB_REDIS_PORT", redis_port),
                "PERFLAB_AUTH_API_URL": self.env.get("PERFLAB_AUTH_API_URL", f"https://{proxy_host}:18443"),
                "PERFLAB_SECURITY_ADMIN_IDS": self.env.get("PERFLAB_SECURITY_ADMIN_IDS", "A-perflab-admin"),
                # the Dockerfile's entry point runs java $PERFLAB_HEAP ... $PERFLAB_JVM_OPTS: the whole command's
                # flags, in appctl's order (the preset, the machine profile's, --heap, --jvm-opts), go in the first
                "PERFLAB_HEAP": " ".join(flags), "PERFLAB_JVM_OPTS": ""}

    def run_argv(self, jvm_opts: str = "") -> list[str]:
        """`docker run` for this variant: appctl's own reading of its options (one parser), as a container."""
        options = appctl.parse(self.start_args(jvm_opts), self.instance)
        if "PERFLAB_APP_JAR" in options.env or options.aot == "use":
            raise SystemExit(f"{self.label}: the compose lab runs compose's app image; a commit's build (ref) or "
                             "the AOT cache (aot) needs the native lab")
        flags, cpus = appctl.jvm_command(options, "" if options.heap else appctl.heap_preset(options.profile))
        argv = ["run", "--detach", "--name", self.container, "--network", NETWORK, "--label", f"{LABEL}={self.instance}",
                "--volume", f"{SECRETS_VOLUME}:/run/secrets/perflab:ro"]
        if cpus:
            argv += ["--cpus", f"{cpus:g}"]
        memory = compose_settings.memory_limit(flags)
        if memory:
            argv += ["--memory", memory]
        for name, value in self.variables(options, flags).items():
            argv += ["--env", f"{name}={value}"]
        for name in BY_NAME:
            argv += ["--env", name]
        return [*argv, IMAGE, *options.app_args]

    def start(self, jvm_opts: str = "") -> None:
        """Runs the container and returns when the app answers ready (appctl.READY_WITHIN s at most); a container
        that exits or never gets ready stops the run with its log's tail."""
        self.stop()
        argv = self.run_argv(jvm_opts)
        began = time.time()
        started = docker(*argv, env={name: self.env.get(name, "") for name in BY_NAME})
        if started.returncode:
            raise SystemExit(f"the app container for {self.label} did not start: docker {' '.join(argv[:4])} ...: "
                             f"{started.stderr.strip()[-400:]}")
        self.started_ms = int(began * 1000)
        deadline = time.monotonic() + appctl.READY_WITHIN
        while time.monotonic() < deadline:
            if appctl.ready(self.url, timeout=2):
                scrape.register(self.instance, f"{self.container}:{APP_PORT}")  # compose's Prometheus scrapes it
                return
            if not running(self.container):
                raise SystemExit(f"the app container for {self.label} exited during startup:\n{logs(self.container)}")
            time.sleep(0.5)
        raise SystemExit(f"the app container for {self.label} was not ready within {appctl.READY_WITHIN} s:\n"
                         f"{logs(self.container)}")

    def started_epoch_ms(self) -> int:
        assert self.started_ms is not None, "start first"
        return self.started_ms

    def engine_cpu_seconds(self) -> dict[str, float]:
        """Its container's CPU seconds, and those of compose's MariaDB and Redis, as the engine counts them."""
        return {"app": container_cpu_seconds(self.container),
                "mariadb": container_cpu_seconds(service_container("mariadb")),
                "redis": container_cpu_seconds(service_container("redis"))}

    def stop(self) -> None:
        """Its log kept in .perflab/<instance>.log, then the container removed (none is no error)."""
        scrape.unregister(self.instance)
        kept = docker("logs", self.container)
        if kept.returncode == 0:
            self.log_file.parent.mkdir(parents=True, exist_ok=True)
            self.log_file.write_text(kept.stdout + kept.stderr)
        docker("rm", "--force", self.container)


class EngineConnection(http.client.HTTPConnection):
    """HTTP to the Docker engine's API over its unix socket (DOCKER_HOST's, else /var/run/docker.sock)."""

    def __init__(self, timeout: float = 10) -> None:
        super().__init__("localhost", timeout=timeout)
        host = os.environ.get("DOCKER_HOST", "")
        self.socket_path = host.removeprefix("unix://") if host.startswith("unix://") else "/var/run/docker.sock"

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.socket_path)


def container_cpu_seconds(container: str) -> float:
    """The CPU seconds a container has used since it started (the engine's stats: cpu_stats.cpu_usage.total_usage,
    its cgroup's counter, in ns); NaN when the engine does not answer or knows no such container."""
    connection = EngineConnection()
    try:
        connection.request("GET", f"/containers/{container}/stats?stream=false&one-shot=true")
        answer = connection.getresponse()
        if answer.status != 200:
            return math.nan
        return float(json.loads(answer.read())["cpu_stats"]["cpu_usage"]["total_usage"]) / 1e9
    except (OSError, ValueError, KeyError, TypeError, http.client.HTTPException):
        return math.nan
    finally:
        connection.close()


def running(container: str) -> bool:
    shown = docker("inspect", "--format", "{{.State.Running}}", container)
    return shown.returncode == 0 and shown.stdout.strip() == "true"


def logs(container: str, lines: int = 40) -> str:
    shown = docker("logs", "--tail", str(lines), container)
    return shown.stdout + shown.stderr


def service_container(service: str) -> str:
    """The container of one of compose's services (project perflab): its name, as compose gives it."""
    return f"{NETWORK.removesuffix('_default')}-{service}-1"


def limit_cpus(container: str, cpus: float | None) -> bool:
    """A container's CPU share changed while it runs (docker update; 0: no limit); whether the engine took it."""
    return docker("update", "--cpus", f"{cpus or 0:g}", container).returncode == 0


def leftovers() -> list[str]:
    """App containers a killed run left behind (label perflab.ab)."""
    listed = docker("ps", "--all", "--quiet", "--filter", f"label={LABEL}")
    return listed.stdout.split() if listed.returncode == 0 else []

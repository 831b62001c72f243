"""The lab seam: what the runner asks of the lab it measures in, and nothing more. A lab makes sure its services
run, makes the app of each variant (its preset, knobs, CPU share and network profile) and starts a lifetime's apps
at once, runs a variant's data commands (seed, reset, invariants), holds MariaDB to a CPU share, gives the network
profile's proxies, and has the jar's AOT cache. The runner and the run shapes reach the lab only through here
(tooling/tests/test_layers.py checks it).

NativeLab is this machine's native stack (stack/native.sh, the apps as local processes); RemoteLab is one whose apps
already run elsewhere (--base-url), which the runner loads and reads but never starts, seeds or limits; ComposeLab is
Docker compose's, the runner inside its network (compose's `runner` service sets PERFLAB_LAB=compose), each variant
an app container. What a lab
cannot run it refuses by name before anything starts (cannot_run)."""
import os
import subprocess
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, cast, runtime_checkable

from perflab.lab import aotcache
from perflab.lab import appctl
from perflab.lab import composelab
from perflab.lab import labenv
from perflab.lab import launcher
from perflab.lab import machine
from perflab.measure import app_metrics
from perflab.lab import network


@runtime_checkable
class Lab(Protocol):
    """What the runner needs of a lab."""
    remote: bool  # its processes are not this machine's: no process CPU, JFR, pinning or MariaDB counters here

    def cannot_run(self, e: dict[str, Any], pins: Mapping[str, Any]) -> str | None: ...

    def ensure_services(self, env: Mapping[str, str]) -> None: ...

    def apps(self, experiment: dict[str, Any], variants: list[dict[str, Any]], env: Mapping[str, str],
             network_options: list[str], network_args: list[str]) -> list[launcher.App]: ...

    def start_together(self, apps: Sequence[app_metrics.WindowApp]) -> dict[str, float]: ...

    def data_command(self, command: str, variant: dict[str, Any], env: Mapping[str, str], what: str) -> str: ...

    def run_data(self, command: str, variant: dict[str, Any],
                 env: Mapping[str, str]) -> subprocess.CompletedProcess[str]: ...

    def hold_database(self, cpus: float | None, profile: str) -> bool | None: ...

    def release_database(self) -> None: ...

    def proxies(self, env: Mapping[str, str]) -> network.Toxiproxy: ...

    def aot_cache_fresh(self) -> bool: ...

    def start_line(self) -> str: ...

    def build_aot_cache(self) -> None: ...


SERVICES = (("MariaDB", "PERFLAB_DB_PORT"), ("Redis", "PERFLAB_REDIS_PORT"), ("WireMock", "PERFLAB_WIREMOCK_PORT"),
            ("Toxiproxy", "PERFLAB_TOXIPROXY_PORT"))


COMPOSE_IN_THE_WAY = (
    "the compose lab (./perflab up on Docker) is running, and this run asked for the native stack (PERFLAB_LAB=native), "
    "whose MariaDB, Redis and Prometheus ports the compose lab's containers hold with their own credentials. Run it on "
    "the compose lab (docker compose run --rm runner ab ..., what ./perflab ab does with Docker), or stop the compose "
    "lab first with ./perflab down")


REFUSAL = "cannot run on the compose lab"  # ComposeLab's refusal by name, which the newcomer check recognises


class NativeLab:
    """This machine's native stack: services from stack/native.sh, each variant an app process (appctl's launcher)
    on its own port, database and Redis logical database."""
    remote = False

    def __init__(self, say: Callable[[str], None] = print) -> None:
        self.say = say

    def cannot_run(self, e: dict[str, Any], pins: Mapping[str, Any]) -> str | None:
        """Why this lab cannot run the experiment (with these --pin cores), or None."""
        return None

    def ensure_services(self, env: Mapping[str, str]) -> None:
        """Every service the runner needs, started (stack/native.sh up) when one is down, named. Refused while the
        compose lab runs: its services answer on the same ports with other credentials, so the runner would seed,
        reset and measure them as if they were the native stack's."""
        if labenv.compose_lab_running():
            raise SystemExit(COMPOSE_IN_THE_WAY)
        for name, key in SERVICES:
            if not labenv.port_open(int(env[key]), timeout=0.5):
                self.say(f"{name} is not running on 127.0.0.1:{env[key]}: starting the stack (./perflab stack up)")
                labenv.native("up", stdout=subprocess.DEVNULL)
                return

    def apps(self, experiment: dict[str, Any], variants: list[dict[str, Any]], env: Mapping[str, str],
             network_options: list[str], network_args: list[str]) -> list[launcher.App]:
        return [launcher.App(experiment, v, i, env, network_options, network_args) for i, v in enumerate(variants)]

    def start_together(self, apps: Sequence[app_metrics.WindowApp]) -> dict[str, float]:
        return launcher.start_together([cast(launcher.App, app) for app in apps])  # made by apps() above

    def data_command(self, command: str, variant: dict[str, Any], env: Mapping[str, str], what: str) -> str:
        return launcher.run_data_command(command, variant, env, what)

    def run_data(self, command: str, variant: dict[str, Any],
                 env: Mapping[str, str]) -> subprocess.CompletedProcess[str]:
        return launcher.run_data(command, variant, env)

    def hold_database(self, cpus: float | None, profile: str) -> bool | None:
        """MariaDB in a CPU share of its own for the cell (none: a limit left by a killed run released); whether it
        is held (None without a share)."""
        machine.release(machine.MARIADB)
        if not cpus:
            return None
        held = machine.limit(machine.MARIADB, app_metrics.mariadb_pid(), cpus, profile)
        return None if held is None else bool(held)

    def release_database(self) -> None:
        machine.release(machine.MARIADB)

    def proxies(self, env: Mapping[str, str]) -> network.Toxiproxy:
        return network.Toxiproxy(env)

    def aot_cache_fresh(self) -> bool:
        return appctl.aot_fresh()

    def start_line(self) -> str:
        """How the apps of a run that may start warm start: from the AOT cache, or cold and how to change that."""
        return "apps start warm from the AOT cache" if self.aot_cache_fresh() else \
            "apps start cold: no AOT cache for this jar (./perflab aot build makes one; smokes then start warm)"

    def build_aot_cache(self) -> None:
        aotcache.build([])


class RemoteLab(NativeLab):
    """A lab whose apps already run (--base-url, one URL per variant): loaded and read, never started, seeded,
    reset or limited here."""
    remote = True

    def __init__(self, urls: Iterable[str], say: Callable[[str], None] = print) -> None:
        super().__init__(say)
        self.urls = list(urls)

    def cannot_run(self, e: dict[str, Any], pins: Mapping[str, Any]) -> str | None:
        if any(v.get("ref") for v in e.get("variants", [])):
            return "--base-url: a remote lab runs its own builds; a variant's ref needs a local lab"
        if pins:
            return "--pin: a remote lab's processes are not on this machine"
        return None

    def ensure_services(self, env: Mapping[str, str]) -> None:
        pass

    def apps(self, experiment: dict[str, Any], variants: list[dict[str, Any]], env: Mapping[str, str],
             network_options: list[str], network_args: list[str]) -> list[launcher.App]:
        return [launcher.RemoteApp(experiment, v, i, url) for i, (v, url) in enumerate(zip(variants, self.urls))]

    def hold_database(self, cpus: float | None, profile: str) -> bool | None:
        return None

    def release_database(self) -> None:
        pass


class ComposeLab(NativeLab):
    """Docker compose's lab, the runner in its network (the `runner` service sets PERFLAB_LAB=compose): compose's
    services by their names, each variant an app container (lab/composelab.py) limited to its machine profile,
    MariaDB's CPU share the engine's (docker update), the data commands run by the runner as natively."""

    def cannot_run(self, e: dict[str, Any], pins: Mapping[str, Any]) -> str | None:
        if e.get("kind") == "command":
            return (f"{e['name']} {REFUSAL}: its benchmark is a command of this machine's Maven "
                    "and JDK (./mvnw), which the runner's image does not carry. Run it on the native lab (./perflab "
                    "ab on a Debian or Ubuntu machine without the compose lab running)")
        reasons = []
        if pins:
            reasons.append("--pin sets the cores of this machine's processes; the app containers' are the engine's")
        if any(v.get("ref") for v in e["variants"]):
            reasons.append("a variant built from a commit (ref) runs that commit's jar, which only the native lab builds")
        if any(v.get("aot") for v in e["variants"]):
            reasons.append("a variant that starts from the AOT cache (aot) needs the native lab's cache for its jar")
        if e["load"].get("jfr"):
            reasons.append("[load] jfr = true records the JVM from its launch with this machine's jcmd")
        if e["load"]["shape"] == "capacity":
            reasons.append("a capacity run reads the app process's CPU from this machine's /proc")
        if not reasons:
            return None
        return (f"{e['name']} {REFUSAL}: {'; '.join(reasons)}. Run it on the native lab "
                "(./perflab ab on a Debian or Ubuntu machine without the compose lab running)")

    def ensure_services(self, env: Mapping[str, str]) -> None:
        """Refused, naming each, when one of compose's services does not answer; app containers a killed run left
        are removed."""
        down = [f"{labenv.service_label(service)} at {host}:{port}" for service in ("mariadb", "redis", "wiremock", "toxiproxy")
                for host, port in [labenv.service_address(service, env)] if not labenv.port_open(port, host, timeout=2)]
        if down:
            raise SystemExit(f"the compose lab's {', '.join(down)} did not answer: start the lab with docker compose "
                             "up -d --wait (./perflab up), then run again")
        for container in composelab.leftovers():
            self.say(f"removing the app container {container} that an earlier run left")
            composelab.docker("rm", "--force", container)

    def apps(self, experiment: dict[str, Any], variants: list[dict[str, Any]], env: Mapping[str, str],
             network_options: list[str], network_args: list[str]) -> list[launcher.App]:
        return [composelab.ComposeApp(experiment, v, i, env, network_options, network_args)
                for i, v in enumerate(variants)]

    def start_together(self, apps: Sequence[app_metrics.WindowApp]) -> dict[str, float]:
        made = [cast(launcher.App, app) for app in apps]  # made by apps() above
        return launcher.start_at_once({app.label: app.start for app in made}, build_jar=False)

    def hold_database(self, cpus: float | None, profile: str) -> bool | None:
        """MariaDB's container held to the cell's share (docker update replaces a limit a killed run left), or its
        limit removed without one (None)."""
        mariadb = composelab.service_container("mariadb")
        if not cpus:
            composelab.limit_cpus(mariadb, None)
            return None
        return composelab.limit_cpus(mariadb, cpus)

    def release_database(self) -> None:
        composelab.limit_cpus(composelab.service_container("mariadb"), None)

    def aot_cache_fresh(self) -> bool:
        return False

    def start_line(self) -> str:
        return "apps start cold: compose's app image carries no AOT cache (the native lab's ./perflab aot build)"

    def build_aot_cache(self) -> None:
        raise SystemExit("the compose lab's apps start from compose's app image; the AOT cache is the native lab's")


def for_run(base_urls: Iterable[str] | None, say: Callable[[str], None] = print) -> Lab:
    """The lab a run measures in: the apps at `base_urls` when given, else compose's when the runner runs in it
    (PERFLAB_LAB=compose), else this machine's native stack."""
    if base_urls:
        return RemoteLab(base_urls, say)
    return ComposeLab(say) if os.environ.get("PERFLAB_LAB") == "compose" else NativeLab(say)

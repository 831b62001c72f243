"""The lab seam: what the runner asks of the lab it measures in, and nothing more. A lab makes sure its services
run, makes the app of each variant (its preset, knobs, CPU share and network profile) and starts a lifetime's apps
at once, runs a variant's data commands (seed, reset, invariants), holds MariaDB to a CPU share, gives the network
profile's proxies, and has the jar's AOT cache. The runner and the run shapes reach the lab only through here
(tooling/tests/test_layers.py checks it).

NativeLab is this machine's native stack (stack/native.sh, the apps as local processes); RemoteLab is one whose apps
already run elsewhere (--base-url), which the runner loads and reads but never starts, seeds or limits. A lab on
Docker compose is another implementation of the same methods."""
import subprocess
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, cast, runtime_checkable

from perflab.lab import aotcache
from perflab.lab import appctl
from perflab.lab import labenv
from perflab.lab import launcher
from perflab.lab import machine
from perflab.measure import app_metrics
from perflab.lab import network


@runtime_checkable
class Lab(Protocol):
    """What the runner needs of a lab."""
    remote: bool  # its processes are not this machine's: no process CPU, JFR, pinning or MariaDB counters here

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

    def build_aot_cache(self) -> None: ...


SERVICES = (("MariaDB", "PERFLAB_DB_PORT"), ("Redis", "PERFLAB_REDIS_PORT"), ("WireMock", "PERFLAB_WIREMOCK_PORT"),
            ("Toxiproxy", "PERFLAB_TOXIPROXY_PORT"))


COMPOSE_IN_THE_WAY = (
    "the compose lab (./perflab up on Docker) is running: the A/B runner measures on the native stack, whose "
    "MariaDB, Redis and Prometheus ports the compose lab's containers hold with their own credentials. Stop it with "
    "./perflab down (docker compose down), then run ./perflab ab again; the runner does not drive the compose lab yet")


class NativeLab:
    """This machine's native stack: services from stack/native.sh, each variant an app process (appctl's launcher)
    on its own port, database and Redis logical database."""
    remote = False

    def __init__(self, say: Callable[[str], None] = print) -> None:
        self.say = say

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

    def build_aot_cache(self) -> None:
        aotcache.build([])


class RemoteLab(NativeLab):
    """A lab whose apps already run (--base-url, one URL per variant): loaded and read, never started, seeded,
    reset or limited here."""
    remote = True

    def __init__(self, urls: Iterable[str], say: Callable[[str], None] = print) -> None:
        super().__init__(say)
        self.urls = list(urls)

    def ensure_services(self, env: Mapping[str, str]) -> None:
        pass

    def apps(self, experiment: dict[str, Any], variants: list[dict[str, Any]], env: Mapping[str, str],
             network_options: list[str], network_args: list[str]) -> list[launcher.App]:
        return [launcher.RemoteApp(experiment, v, i, url) for i, (v, url) in enumerate(zip(variants, self.urls))]

    def hold_database(self, cpus: float | None, profile: str) -> bool | None:
        return None

    def release_database(self) -> None:
        pass


def for_run(base_urls: Iterable[str] | None, say: Callable[[str], None] = print) -> Lab:
    """The lab a run measures in: the apps at `base_urls` when given, else this machine's native stack."""
    return RemoteLab(base_urls, say) if base_urls else NativeLab(say)

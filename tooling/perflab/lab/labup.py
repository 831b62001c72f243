"""The lab that ./perflab up brings up and ./perflab down takes down: the stack by Docker compose when an engine
answers, else the native stack with the data sets loaded on the host (each only when its cheap check misses it) and
the app, or N instances behind a load balancer; and the data sets' commands as processes of their own, which
./perflab status runs too (`status`)."""
import os
import shutil
import subprocess
import sys

from perflab.lab import appctl
from perflab.lab import labenv
from perflab.lab import launcher
from perflab.lab import lbctl
from perflab.lab.datasets import seeding
from perflab.lab.labenv import die
from perflab.paths import ROOT


def data_set(argv: list[str], env: dict[str, str] | None = None, indent: str = "") -> None:
    """One data-set command (`wallet --db perflab ensure`) in a process of its own, its output indented by `indent`;
    a failure stops the caller with the same exit code."""
    command = [*launcher.SEEDING, *argv]
    if not indent:
        labenv.run(command, env=env)
        return
    sys.stdout.flush()
    done = subprocess.run([str(a) for a in command], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    for line in done.stdout.splitlines():
        labenv.say(f"{indent}{line}")
    if done.returncode != 0:
        raise SystemExit(done.returncode)


def default_data_sets(database: str, action: str, env: dict[str, str] | None = None, indent: str = "") -> None:
    """`action` (ensure, status) on each data set that ./perflab up loads (seeding.DEFAULTS), in `database`."""
    for kind, *options in seeding.DEFAULTS:
        data_set([kind, "--db", database, *options, action], env=env, indent=indent)


def seed_defaults(profile: str) -> None:
    """What `up` loads into the app's database, each only when its cheap check misses it."""
    if not shutil.which("mariadb"):
        labenv.say("no mariadb client on this machine: load the data sets with ./perflab seed wallet|route")
        return
    default_data_sets(os.environ["PERFLAB_DB_NAME"], "ensure", env=dict(os.environ, SPRING_PROFILES_ACTIVE=profile))


def up_compose(profile: str) -> None:
    """The whole lab by Docker compose: compose's one-shot `seed` migrates and loads the data sets before the app
    starts, nothing on the host. PERFLAB_COMPOSE_SERVICES (names, space-separated) starts only those and what they
    depend on: the lab without Grafana, say, on a machine short of memory or without its image."""
    services = os.environ.get("PERFLAB_COMPOSE_SERVICES", "").split()
    labenv.say(f"Docker engine found: docker compose up ({' '.join(services) or 'every service'})")
    labenv.run(labenv.compose("up", "-d", "--build", "--wait", *services),
               env=dict(labenv.compose_environ(), SPRING_PROFILES_ACTIVE=profile))
    labenv.run(labenv.compose("ps"), env=labenv.compose_environ())
    # the line the README's first step expects, as the native path says it (compose waited for the app's health)
    labenv.say(f"app ready at http://127.0.0.1:{os.environ['PERFLAB_APP_PORT']} (docker compose: healthy)")
    labenv.say(f"k6: docker compose --profile load run --rm k6 run /scripts/smoke.js | Grafana "
               f"http://127.0.0.1:{os.environ['PERFLAB_GRAFANA_PORT']} (admin; its password: docker compose run "
               "--rm secrets cat /secrets/grafana-admin-password)")


def up_native(profile: str, instances: int | None, argv: list[str]) -> None:
    """The native stack, the data sets, and the app (`app start`'s options and arguments in argv), or `instances`
    instances behind a load balancer."""
    labenv.say("no Docker engine: native stack")
    labenv.native("up")
    seed_defaults(profile)
    if instances:
        up_instances(instances, argv)
    else:
        labenv.native("prometheus-targets")
        appctl.start(argv)


def up_instances(count: int, argv: list[str]) -> None:
    """app-1..app-N on PERFLAB_APP_PORT+1..+N (those already running are kept, those of a larger earlier N stopped),
    then the load balancer on PERFLAB_APP_PORT in front of them."""
    base = int(os.environ["PERFLAB_APP_PORT"])
    single = appctl.Instance()
    if single.running():
        die(f"the single app instance '{single.name}' (pid {single.pid()}) holds port {base}, where the load balancer "
            "goes: ./perflab app stop first")
    balancer = lbctl.Balancer()
    balancer.stop_instances(count, "no longer asked for")
    specs = []
    for i in range(1, count + 1):
        name, port = f"app-{i}", base + i
        if appctl.Instance(name).running():
            labenv.say(f"[instance {i}/{count}] app '{name}' already runs on port {port} "
                       f"(./perflab app restart --instance {name} --port {port} to restart it)")
        else:
            labenv.say(f"[instance {i}/{count}] app '{name}' on port {port}")
            try:
                appctl.start(["--instance", name, "--port", str(port), *argv])
            except SystemExit as failed:
                if isinstance(failed.code, str):
                    print(failed.code, file=sys.stderr)
                die(f"the app '{name}' did not start (log {appctl.Instance(name).log_file}); the instances before it "
                    "still run (./perflab down stops them)")
        specs.append(f"{name}={port}")
    labenv.say(f"[load balancer] HAProxy on port {base}")
    balancer.start(base, specs)
    labenv.native("prometheus-targets", *specs)
    labenv.say(f"[prometheus] scrapes each instance on its own port (label app_instance=app-1..app-{count}), "
               "not the balancer")

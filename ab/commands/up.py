"""./perflab up: the stack (Docker compose if an engine answers, else native), the data sets and the app, or N
instances behind a load balancer: a lab ready to load."""
import os
import re
import shutil
import sys

import appctl
import labenv
import lbctl
from commands import seed
from labenv import ROOT, die

SYNOPSIS = "up [--profile P] [--instances N] [-- app args]"
SUMMARY = """the stack (Docker compose if an engine answers, else native), the data sets
(wallet and route, loaded once) and the app: a lab ready to load; --instances N
starts app-1..app-N on ports PERFLAB_APP_PORT+1.. and a load balancer (HAProxy)
on PERFLAB_APP_PORT in front of them (native stack only)"""


def compose(*args):
    return ["docker", "compose", "--project-directory", str(ROOT), *args]


def split(argv):
    """(--instances N or None, the rest: `app start`'s options and app arguments)."""
    instances, rest, args = None, [], list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--instances":
            if not args:
                die("--instances needs a number")
            instances = args.pop(0)
        elif arg.startswith("--instances="):
            instances = arg.removeprefix("--instances=")
        elif arg == "--":
            rest += [arg, *args]
            break
        else:
            rest.append(arg)
    if instances is not None:
        if not re.fullmatch(r"[1-9][0-9]?", instances):
            die(f"--instances needs a number from 1 to 99, not '{instances}'")
        for arg in rest:
            if arg == "--":
                break
            if arg in ("--instance", "--port") or arg.startswith("--instance="):
                die(f"--instances names the instances app-1..app-N and gives them ports "
                    f"{int(os.environ['PERFLAB_APP_PORT']) + 1}...: drop {arg}")
    return instances, rest


def seed_defaults(profile):
    """What `up` loads into the app's database, each only when its cheap check misses it."""
    if not shutil.which("mariadb"):
        labenv.say("no mariadb client on this machine: load the data sets with ./perflab seed wallet|route")
        return
    database = os.environ["PERFLAB_DB_NAME"]
    for data_set in seed.DEFAULTS:
        seed.data_set([*data_set[:1], "--db", database, *data_set[1:], "ensure"],
                      env=dict(os.environ, SPRING_PROFILES_ACTIVE=profile))


def up_instances(count, argv):
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


def main(argv):
    instances, args = split(argv)
    options = appctl.parse(args)
    os.environ.update(options.env)  # --port, --db ... hold for the stack, the data sets and the app alike
    labenv.ensure_secrets()
    if labenv.docker_engine():
        if instances:
            die("--instances N runs on the native stack; with Docker compose, scale the lab on Kubernetes "
                "(docs/scale-out.md)")
        labenv.say("Docker engine found: docker compose up")
        # compose's one-shot `seed` migrates and loads the data sets before the app starts: nothing on the host
        labenv.run(compose("up", "-d", "--build", "--wait"), env=dict(os.environ, SPRING_PROFILES_ACTIVE=options.profile))
        labenv.run(compose("ps"))
        labenv.say(f"k6: docker compose --profile load run --rm k6 run /scripts/smoke.js | Grafana "
                   f"http://127.0.0.1:{os.environ['PERFLAB_GRAFANA_PORT']} (admin; its password: docker compose run "
                   "--rm secrets cat /secrets/grafana-admin-password)")
    else:
        labenv.say("no Docker engine: native stack")
        labenv.native("up")
        seed_defaults(options.profile)
        if instances:
            up_instances(int(instances), args)
        else:
            labenv.native("prometheus-targets")
            appctl.start(args)
    labenv.say(f"app {options.url} | metrics {options.url}/actuator/prometheus | prometheus "
               f"http://127.0.0.1:{os.environ['PERFLAB_PROMETHEUS_PORT']}")
    return 0

"""./perflab up: the stack (Docker compose if an engine answers, else native), the data sets and the app, or N
instances behind a load balancer: a lab ready to load (tooling/perflab/lab/labup.py)."""
import os
import re

from perflab.lab import appctl
from perflab.lab import labenv
from perflab.lab import labup
from perflab.lab.labenv import die

SYNOPSIS = "up [--profile P] [--instances N] [-- app args]"
SUMMARY = """the stack (Docker compose if an engine answers, else native), the data sets
(wallet and route, loaded once) and the app: a lab ready to load; --instances N
starts app-1..app-N on ports PERFLAB_APP_PORT+1.. and a load balancer (HAProxy)
on PERFLAB_APP_PORT in front of them (native stack only)"""


def split(argv: list[str]) -> tuple[str | None, list[str]]:
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


def main(argv: list[str]) -> int:
    instances, args = split(argv)
    options = appctl.parse(args)
    os.environ.update(options.env)  # --port, --db ... hold for the stack, the data sets and the app alike
    if labenv.docker_engine():
        if instances:
            die("--instances N runs on the native stack; with Docker compose, scale the lab on Kubernetes "
                "(docs/scale-out.md)")
        labup.up_compose(options.profile)  # compose makes its own secrets (its `secrets` service)
    else:
        labenv.ensure_secrets()
        labup.up_native(options.profile, int(instances) if instances else None, args)
    labenv.say(f"app {options.url} | metrics {options.url}/actuator/prometheus | prometheus "
               f"http://127.0.0.1:{os.environ['PERFLAB_PROMETHEUS_PORT']}")
    return 0

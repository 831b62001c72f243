"""./perflab lb start|stop|status: only the load balancer (HAProxy, tooling/perflab/lab/lbctl.py)."""
import os

from perflab.lab import labenv
from perflab.lab import lbctl

SYNOPSIS = "lb start|stop|status [--name NAME] [--port P] [--bind ADDRESS] [--backend NAME=PORT ...]"
SUMMARY = """only the load balancer (HAProxy, installed with apt-get once): on --port
(default PERFLAB_APP_PORT) of 127.0.0.1 (--bind or PERFLAB_LB_BIND: another
address, e.g. 0.0.0.0) in front of the instances given, health-checked on
their readiness probe; `up --instances N` uses it"""
USAGE = "./perflab lb start|stop|status [--name NAME] [--port P] [--bind ADDRESS] [--backend NAME=PORT ...]"
NEEDS = {"--name": "a value", "--port": "a value", "--bind": "an address", "--backend": "NAME=PORT"}


def main(argv: list[str]) -> int:
    sub, args = (argv[0], argv[1:]) if argv else ("status", [])
    name, port, bind, specs = "lb", os.environ.get("PERFLAB_APP_PORT", "8080"), None, []
    while args:
        option = args.pop(0)
        if option not in NEEDS:
            labenv.die(f"unknown option {option} (usage: {USAGE})")
        if not args:
            labenv.die(f"{option} needs {NEEDS[option]}")
        value = args.pop(0)
        if option == "--name":
            lbctl.Balancer(value)
            name = value
        elif option == "--port":
            port = value
        elif option == "--bind":
            bind = value
        else:
            specs.append(value)
    balancer = lbctl.Balancer(name)
    if sub == "start":
        balancer.start(port, specs, bind)
    elif sub == "stop":
        balancer.stop()
    elif sub == "status":
        balancer.report()
    else:
        labenv.die(f"usage: {USAGE}")
    return 0

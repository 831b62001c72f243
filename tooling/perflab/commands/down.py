"""./perflab down: the app (every instance and the load balancer) and the stack, each waited for until it has
exited, so that a `./perflab up` right after never meets a server that is still going away; with a Docker engine,
compose's lab only (docker compose down), as ./perflab up started it."""
import subprocess

from perflab.lab import appctl
from perflab.lab import labenv
from perflab.lab import lbctl

SYNOPSIS = "down"
SUMMARY = "stop the app (every instance and the load balancer) and the stack"


def main(argv: list[str]) -> int:
    if labenv.docker_engine():  # ./perflab up took compose: the native stack is not this host's lab, left alone
        environ = labenv.compose_environ()
        listed = subprocess.run(labenv.compose("ps", "-q"), capture_output=True, text=True, env=environ)
        if listed.stdout.strip():
            labenv.run(labenv.compose("down"), env=environ)
        labenv.say("compose lab stopped (docker compose down; its data stays in its volumes)")
        return 0
    lbctl.Balancer().down()
    appctl.Instance().stop()
    labenv.native("down", stdout=subprocess.DEVNULL)
    labenv.say("stack stopped")
    return 0

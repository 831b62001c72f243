"""./perflab status: what runs where, which data sets are loaded, which variant the app runs."""
import json
import os
import urllib.request

from perflab.lab import appctl
from perflab.lab import labenv
from perflab.lab import labup
from perflab.lab import lbctl

SYNOPSIS = "status"
SUMMARY = "what runs where, which data sets are loaded, which variant the app runs"


def health(url: str) -> str:
    """The app's /actuator/health, one line."""
    try:
        with urllib.request.urlopen(f"{url}/actuator/health", timeout=5) as answer:
            health = json.load(answer)
    except (OSError, ValueError):
        return f"app: health not answering ({url}/actuator/health)"
    parts = ", ".join(f"{name} {component.get('status')}" for name, component in health.get("components", {}).items())
    return f"health {health.get('status')}" + (f": {parts}" if parts else " (the details are shown to the admin only)")


def variant(url: str) -> str:
    """The knobs the running app reports (perflab_variant_info), read by the one Prometheus parser, tooling/perflab/measure/prom.py."""
    from perflab.measure import prom
    try:
        return prom.variant_line(prom.scrape(url, timeout=3))
    except Exception:  # noqa: BLE001 - any failure is the same answer: unknown
        return f"variant: unknown ({url}/actuator/prometheus did not answer)"


def main(argv: list[str]) -> int:
    url = appctl.url()
    balancer, app = lbctl.Balancer(), appctl.Instance()
    if balancer.running() or balancer.instances_file.exists():
        balancer.report()
        if balancer.running():
            labenv.say(f"app through the load balancer at {url}:")
            labenv.say(health(url))
            labenv.say(variant(url))
    elif app.running():
        labenv.say(f"app: running (pid {app.pid()}) at {url}")
        labenv.say(health(url))
        labenv.say(variant(url))
    else:
        labenv.say("app: not running")
    labenv.native("status")
    if labenv.service_up("mariadb"):
        database = os.environ["PERFLAB_DB_NAME"]
        labenv.say(f"data sets in {database}:")
        labup.default_data_sets(database, "status", indent="  ")
    else:
        host, port = labenv.service_address("mariadb")
        labenv.say(f"data sets: unknown, {labenv.service_label('mariadb')} is not running on {host}:{port} "
                   "(./perflab stack up mariadb)")
    return 0

"""./perflab k6 <script> [--no-prometheus] [k6 args]: a k6 script of k6/ against the app, with the stack's k6 binary.
k6's metrics go to the native Prometheus by remote write (the k6 panels of grafana/dashboards/), unless the
arguments name an output of their own (-o/--out), --no-prometheus or PERFLAB_K6_PROMETHEUS=off opts out, or
Prometheus is down. The runner's own k6 runs (tooling/perflab/measure/k6io.py) do not come through here."""
import json
import os
import urllib.request
from collections.abc import Callable, Mapping

from perflab.lab import appctl
from perflab.lab import foreground
from perflab.measure import k6io
from perflab.lab import labenv
from perflab.lab.labenv import die
from perflab.paths import ROOT

SYNOPSIS = "k6 <script> [k6 args]"
SUMMARY = """run a k6 script from k6/ against the app (the stack's k6 binary),
tagged with the app's variant unless VARIANT is given; its metrics go to
Prometheus (remote write) unless -o/--out, --no-prometheus or
PERFLAB_K6_PROMETHEUS=off"""
OPT_OUT = "--no-prometheus"


def names_an_output(args: list[str]) -> bool:
    """Whether k6's arguments choose an output of their own: -o X, -oX, --out X, --out=X."""
    return any(a == "--out" or a.startswith("--out=") or a.startswith("-o") for a in args)


def sets_variant(args: list[str], environ: Mapping[str, str]) -> bool:
    return "VARIANT" in environ or any(a.startswith("VARIANT=") for a in args)


def prometheus_output(args: list[str], environ: Mapping[str, str],
                      prometheus_up: Callable[[str], bool]) -> tuple[list[str], dict[str, str], str | None]:
    """(k6 arguments, environment) that send k6's metrics to the native Prometheus, or ([], {}) with the reason in
    a third element: the user's own output, the opt-out, or Prometheus down. The user's K6_PROMETHEUS_RW_* win."""
    if OPT_OUT in args or environ.get("PERFLAB_K6_PROMETHEUS", "on").lower() in ("off", "0", "false", "no"):
        return [], {}, None
    if names_an_output(args):
        return [], {}, None
    port = environ.get("PERFLAB_PROMETHEUS_PORT", "9090")
    if not prometheus_up(port):
        return [], {}, f"Prometheus (port {port}) is down: k6's metrics stay in its summary (./perflab stack up prometheus)"
    env = {"K6_PROMETHEUS_RW_SERVER_URL": f"http://127.0.0.1:{port}/api/v1/write",
           "K6_PROMETHEUS_RW_TREND_STATS": k6io.PROMETHEUS_TREND_STATS}
    return ["-o", "experimental-prometheus-rw"], {k: v for k, v in env.items() if k not in environ}, None


def app_variant(base_url: str) -> str | None:
    """The variant the app runs (GET /actuator/info), or None."""
    try:
        with urllib.request.urlopen(f"{base_url}/actuator/info", timeout=3) as response:
            variant: str | None = json.load(response).get("perflab", {}).get("variant")
            return variant
    except (OSError, ValueError):
        return None


def main(argv: list[str]) -> int:
    if not argv:
        die(f"usage: ./perflab k6 <script> [{OPT_OUT}] [k6 args]")
    script, args = argv[0], argv[1:]
    if not (ROOT / script).is_file():
        script = f"k6/{script}"
    if not (ROOT / script).is_file():
        available = " ".join(sorted(p.name for p in (ROOT / "k6").glob("*.js")))
        die(f"no k6 script {script.removeprefix('k6/')}; available: {available} ")
    if " BASE_URL=" not in f" {' '.join(args)} ":
        labenv.require_services("app")
    output, output_env, note = prometheus_output(args, os.environ, labenv.port_open)
    if note:
        labenv.say(note)
    args = [a for a in args if a != OPT_OUT]
    # the k6 metrics carry the variant tag (k6/lib/common.js): the running app's, unless VARIANT is given
    base_url = next((a.removeprefix("BASE_URL=") for a in reversed(args) if a.startswith("BASE_URL=")), appctl.url())
    variant = None if sets_variant(args, os.environ) else app_variant(base_url)
    # PERFLAB_DB_NAME lets a script's precondition name the database in the seed command it suggests; the JWT secret
    # and this install's credentials go in k6's environment (__ENV.JWT_SECRET, k6/lib/route-auth.js and
    # credentials.js), not on its command line where ps shows it
    os.environ.update(output_env, **labenv.k6_secrets())
    k6 = os.path.join(labenv.native_bin(), "k6")
    return foreground.run([k6, "run", "-e", f"BASE_URL={appctl.url()}",
                           "-e", f"PERFLAB_DB_NAME={os.environ['PERFLAB_DB_NAME']}",
                           *(["-e", f"VARIANT={variant}"] if variant else []), *output, *args, script])

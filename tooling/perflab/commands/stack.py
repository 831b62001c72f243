"""./perflab stack: only the native services, through stack/native.sh (which installs and starts them)."""
from perflab.lab import foreground
from perflab.lab import labenv

SYNOPSIS = "stack up|down|status [svc...]"
SUMMARY = "only the native services: mariadb redis wiremock toxiproxy prometheus"


def main(argv: list[str]) -> int:
    return foreground.run([labenv.NATIVE, *argv])

"""./perflab stack: only the native services, through stack/native.sh (which installs and starts them)."""
import os
import sys

import labenv

SYNOPSIS = "stack up|down|status [svc...]"
SUMMARY = "only the native services: mariadb redis wiremock toxiproxy prometheus"


def main(argv):
    sys.stdout.flush()
    os.execv(labenv.NATIVE, [str(labenv.NATIVE), *argv])

"""./perflab logs: follow the app's log (.perflab/app.log)."""
import os
import sys

import appctl

SYNOPSIS = "logs"
SUMMARY = "follow the app's log"


def main(argv):
    sys.stdout.flush()
    os.execvp("tail", ["tail", "-f", str(appctl.Instance().log_file)])

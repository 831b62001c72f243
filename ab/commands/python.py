"""./perflab python [args]: the project's Python (.perflab/venv), with the lab's environment."""
import os
import sys

SYNOPSIS = "python [args]"
SUMMARY = "the project's Python (.perflab/venv, from ab/requirements.txt), e.g. -m pytest ab"


def main(argv):
    sys.stdout.flush()
    os.execv(sys.executable, [sys.executable, *argv])

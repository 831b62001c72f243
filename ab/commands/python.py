"""./perflab python [args]: the project's Python (.perflab/venv), with the lab's environment."""
import sys

import foreground

SYNOPSIS = "python [args]"
SUMMARY = "the project's Python (.perflab/venv, from ab/requirements.txt), e.g. -m pytest ab"


def main(argv: list[str]) -> int:
    return foreground.run([sys.executable, *argv])

"""./perflab python [args]: the project's Python (.perflab/venv), with the lab's environment."""
import sys

from perflab.lab import foreground

SYNOPSIS = "python [args]"
SUMMARY = "the project's Python (.perflab/venv, from tooling/requirements.txt), e.g. -m pytest tooling"


def main(argv: list[str]) -> int:
    return foreground.run([sys.executable, *argv])

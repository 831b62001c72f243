"""./perflab ab: the experiment runner, ab/runner.py, in the project's Python."""
import os
import sys

from labenv import ROOT

SYNOPSIS = "ab <experiment> [options]"
SUMMARY = """the experiment runner (experiments/*.toml, docs/experiments.md): variants in
balanced rounds, network profiles, sweeps, a verdict that says why;
ab --list shows every experiment, ab --help every option"""


def main(argv):
    sys.stdout.flush()
    os.execv(sys.executable, [sys.executable, str(ROOT / "ab" / "runner.py"), *argv])

"""./perflab seed wallet|route|coldstart [...]: a data set, idempotent (tooling/perflab/lab/datasets/seeding.py's main(argv) takes exactly
these arguments)."""
import os

from perflab.lab import labenv
from perflab.lab import launcher
from perflab.lab.datasets import seeding

SYNOPSIS = "seed wallet|route|coldstart [--db NAME] [--index unique|non-unique] [ensure|load|reset|verify|check|status]"
SUMMARY = """a data set, idempotent: `ensure` (the default) migrates the database and
loads the data only when a cheap check misses it (docs/case-studies.md)"""
KINDS = tuple(sorted(seeding.KINDS))  # the loaders tooling/perflab/lab/datasets/seeding.py knows: one list


def main(argv: list[str]) -> int:
    kind = argv[0] if argv else ""
    if kind not in KINDS:
        labenv.die(f"usage: ./perflab seed <name>; available: {' '.join(KINDS)} ")
    os.environ.update(launcher.seeding_variables())  # the secrets too: the wallet seeder keys PIN hashes with one
    return seeding.main(argv)

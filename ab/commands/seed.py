"""./perflab seed wallet|route|coldstart [...]: a data set, idempotent (ab/seeding.py's main(argv) takes exactly
these arguments)."""
import os
import subprocess
import sys

import labenv
import launcher
import seeding
from labenv import ROOT

SYNOPSIS = "seed wallet|route|coldstart [--db NAME] [--index unique|non-unique] [ensure|load|reset|verify|check|status]"
SUMMARY = """a data set, idempotent: `ensure` (the default) migrates the database and
loads the data only when a cheap check misses it (docs/case-studies.md)"""
KINDS = tuple(sorted(seeding.KINDS))  # the loaders ab/seeding.py knows: one list
DEFAULTS = seeding.DEFAULTS  # what ./perflab up loads (and compose's seed service)


def data_set(argv, env=None, indent=""):
    """One data-set command (`wallet --db perflab ensure`) in a process of its own, for ./perflab up, status and aot
    build, its output indented by `indent`; a failure stops the caller with the same exit code."""
    command = [*launcher.SEEDING, *argv]
    if not indent:
        return labenv.run(command, env=env)
    sys.stdout.flush()
    done = subprocess.run([str(a) for a in command], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    for line in done.stdout.splitlines():
        labenv.say(f"{indent}{line}")
    if done.returncode != 0:
        raise SystemExit(done.returncode)


def main(argv):
    kind = argv[0] if argv else ""
    if kind not in KINDS:
        labenv.die(f"usage: ./perflab seed <name>; available: {' '.join(KINDS)} ")
    os.environ.update(launcher.seeding_variables())  # the secrets too: the wallet seeder keys PIN hashes with one
    return seeding.main(argv)

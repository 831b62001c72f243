"""The data sets' loaders: `./perflab seed wallet|route|coldstart [options] [ensure|load|reset|verify|check|status]`.

    ./perflab python -m perflab.lab.datasets.seeding KIND [options] [action]      (what ./perflab seed runs; main(argv) takes KIND onwards)
    ./perflab python -m perflab.lab.datasets.seeding defaults [--db NAME]          every data set of DEFAULTS, `ensure`d: what compose's one-shot
                                                        service `seed` runs (the Dockerfile's seed target)

Each kind is idempotent: `ensure` (the default) migrates the database and loads the data only when a cheap check
misses it. tooling/perflab/lab/datasets/seed_wallet.py (wallet) and tooling/perflab/lab/datasets/seed_route.py (route, coldstart) say what each action does;
tooling/perflab/lab/datasets/seedlib.py holds what they share. Python standard library only, so the system python3 runs it as well as
.perflab/venv.
"""
import sys

from perflab.lab.datasets import seed_route
from perflab.lab.datasets import seed_wallet
from perflab.lab.datasets import seedlib

KINDS = {"coldstart": seed_route.coldstart, "route": seed_route.main, "wallet": seed_wallet.main}
# what ./perflab up and compose's seed service load into the app's database, and ./perflab status shows: the wallet
# and route data sets and the two small universities of the cold-start mix (k6/cold-start.js), 500 routes each
DEFAULTS = (["wallet"], ["route"], ["route", "--univs", "11,12", "--routes", "500"])


def ensure_defaults(argv: list[str]) -> int:
    """`defaults [--db NAME]`: each data set of DEFAULTS ensured in one database; the first failure's exit code."""
    if argv and not (len(argv) == 2 and argv[0] == "--db" and argv[1]):
        print("perflab: usage: ./perflab python -m perflab.lab.datasets.seeding defaults [--db NAME]", file=sys.stderr)
        return 2
    for started, data_set in enumerate(DEFAULTS, 1):
        print(f"[data set {started}/{len(DEFAULTS)}] {' '.join(data_set)}", flush=True)
        code = seedlib.run(KINDS[data_set[0]], [*data_set[1:], *argv, "ensure"])
        if code:
            return code
    return 0


def main(argv: list[str]) -> int:
    """`./perflab seed KIND ...`: argv is KIND and its arguments; returns the exit code."""
    if argv and argv[0] == "defaults":
        return ensure_defaults(argv[1:])
    if not argv or argv[0] not in KINDS:
        print(f"perflab: usage: ./perflab seed <name>; available: {''.join(k + ' ' for k in sorted(KINDS))}",
              file=sys.stderr)
        return 1
    return seedlib.run(KINDS[argv[0]], argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

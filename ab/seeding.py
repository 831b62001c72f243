"""The data sets' loaders: `./perflab seed wallet|route|coldstart [options] [ensure|load|reset|verify|check|status]`.

    python3 ab/seeding.py KIND [options] [action]      (what ./perflab seed runs; main(argv) takes KIND onwards)

Each kind is idempotent: `ensure` (the default) migrates the database and loads the data only when a cheap check
misses it. ab/seed_wallet.py (wallet) and ab/seed_route.py (route, coldstart) say what each action does;
ab/seedlib.py holds what they share. Python standard library only, so the system python3 runs it as well as
.perflab/venv.
"""
import sys

import seed_route
import seed_wallet
import seedlib

KINDS = {"coldstart": seed_route.coldstart, "route": seed_route.main, "wallet": seed_wallet.main}


def main(argv):
    """`./perflab seed KIND ...`: argv is KIND and its arguments; returns the exit code."""
    if not argv or argv[0] not in KINDS:
        print(f"perflab: usage: ./perflab seed <name>; available: {''.join(k + ' ' for k in sorted(KINDS))}",
              file=sys.stderr)
        return 1
    return seedlib.run(KINDS[argv[0]], argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

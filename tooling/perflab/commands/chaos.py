"""./perflab chaos: the wallet's fault suite (tooling/perflab/checks/chaos.py)."""
SYNOPSIS = "chaos [--preset wallet-before|wallet-after|both] [--smoke] [--instances N] [--instances-url URL...]"
SUMMARY = """the wallet under faults (Redis, MariaDB, kill -9, Toxiproxy), then the books
are checked (tooling/perflab/checks/chaos.py; it stops MariaDB and Redis: use a stack of your own);
--instances N runs N instances behind a load balancer and kills one of them"""


def main(argv: list[str]) -> int:
    from perflab.checks import chaos
    return chaos.main(argv)

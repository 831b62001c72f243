"""./perflab newcomer: the README and the walkthroughs followed on a fresh clone (tooling/perflab/checks/newcomer.py)."""
SYNOPSIS = "newcomer [--keep] [--keep-data] [--only PAGE] [--docker]"
SUMMARY = """a fresh clone follows the README's Quick start and each walkthrough's quick path
literally, on a Debian user's default PATH: each step timed and its expected
line checked, the time to the first insight, docs/results/newcomer/ written
(tooling/perflab/checks/newcomer.py). It drops the data sets first (--keep-data keeps them) and
needs the app's port free; --keep keeps the clone, --only one page; --docker the
same pages on the Docker engine (the result's Docker column)"""


def main(argv: list[str]) -> int:
    from perflab.checks import newcomer
    return newcomer.main(argv)

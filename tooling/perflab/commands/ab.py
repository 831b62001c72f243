"""./perflab ab: the experiment runner, tooling/perflab/runner.py, called in this process."""

SYNOPSIS = "ab <experiment> [options]"
SUMMARY = """the experiment runner (experiments/*.toml, docs/experiments.md): variants in
balanced rounds, network profiles, sweeps, a verdict that says why;
ab --list shows every experiment, ab --help every option"""


def main(argv: list[str]) -> int:
    from perflab import runner  # the statistics stack (scipy, statsmodels) loads for this command only
    runner.stop_on_signals()
    return runner.main(argv)

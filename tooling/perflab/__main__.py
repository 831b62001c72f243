"""`python -m perflab <command> ...`: what ./perflab runs (perflab/cli.py)."""
from perflab import cli

if __name__ == "__main__":
    cli.entry()

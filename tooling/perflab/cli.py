"""./perflab's commands: the one list of them (COMMANDS, in the order `./perflab help` shows them), the dispatch of a
command line to its module in tooling/perflab/commands/, and the suggestion for a mistyped command. The entry script ./perflab
runs this with the project's Python, the JDK 25 in JAVA_HOME and PERFLAB_JDK, and the repository root as the working
directory; .env's values are loaded here, a variable already set in the environment winning.

Each command module has SYNOPSIS and SUMMARY (its entry in `./perflab help`) and main(argv), which returns an exit
code (or raises SystemExit)."""
import os
import sys
from collections.abc import Callable
from typing import Protocol

from perflab.lab import labenv
from perflab.commands import (ab, abuse, aot, app, chaos, contract, down, k6, lb, logs, migrate, newcomer,
                              python, seed, stack, status, test, up)
from perflab.commands import help as help_command


class Command(help_command.Entry, Protocol):
    """A command's module: its entry in the help, and main(argv), its exit code (help's also takes the registry)."""
    main: Callable[..., int]


# every command, in the order `./perflab help` shows them (each module keeps its heavy imports inside main)
COMMANDS: dict[str, Command] = {
    "up": up, "test": test, "down": down, "status": status, "stack": stack, "app": app, "lb": lb, "aot": aot,
    "logs": logs, "k6": k6, "seed": seed, "migrate": migrate, "ab": ab, "python": python, "chaos": chaos,
    "abuse": abuse, "contract": contract, "newcomer": newcomer, "help": help_command}
ALIASES = {"-h": "help", "--help": "help"}


def module(name: str) -> Command:
    """The module of a command of COMMANDS."""
    return COMMANDS[name]


def distance(a: str, b: str) -> int:
    """The edit distance of two words, a swap of two neighbouring letters counting one (optimal string alignment)."""
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


def suggest(word: str) -> str | None:
    """The nearest command to a mistyped one (the first of the nearest, in COMMANDS' order), if at most 2 edits away."""
    best = min(COMMANDS, key=lambda command: distance(word, command))
    return best if distance(word, best) <= 2 else None


def main(argv: list[str]) -> int:
    name = argv[0] if argv else "help"
    name = ALIASES.get(name, name)
    if name not in COMMANDS:
        nearest = suggest(name)
        hint = f"; did you mean '{nearest}'?" if nearest else ""
        labenv.die(f"unknown command '{name}'{hint} (./perflab help lists them)")
    labenv.load_env()
    if name == "help":  # the one command that reads the registry: given it, so that it need not import this module
        return help_command.main(argv[1:], COMMANDS)
    return module(name).main(argv[1:])


def entry() -> None:
    """`python -m perflab`: the command line's exit code; Ctrl-C exits 130."""
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # a TextIOWrapper when run  # our lines and the subprocesses' stay in order in a pipe
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)

"""./perflab help: every command of tooling/perflab/cli.py's COMMANDS (which cli passes in) with its synopsis and summary, then
the presets, the environment and the secrets."""
from collections.abc import Mapping
from typing import Protocol

SYNOPSIS = "help"
SUMMARY = "this text"

HEADER = "usage: ./perflab <command> [options]\n"
FOOTER = """
Presets: --profile before | after | <feature>-before | <feature>-after (comma-separate to combine).
Any knob can be overridden after `--`, e.g. ./perflab up --profile after -- --perflab.server.threads=platform
Environment: PERFLAB_APP_PORT, PERFLAB_DB_NAME and the other PERFLAB_* of .env override .env;
PERFLAB_TEST_DB and PERFLAB_TEST_REDIS_DB pick the tests' database and Redis db (./perflab test);
PERFLAB_LB_WAIT (60) bounds the seconds `lb start` waits for its instances to be in rotation.
Secrets: every app start creates .perflab/secrets (PERFLAB_SECRETS_DIR) once, a random JWT and hash secret,
the stub's logins and the seeded PIN (stack/secrets.sh: member-password, member-pin, admin-login, admin-password,
which ./perflab k6 and the suites pass on); the app imports them and
refuses the development values committed in the repository."""
COLUMN = 35  # where the summaries start


class Entry(Protocol):
    """What the help shows of a command (its module): the synopsis and the summary."""
    SYNOPSIS: str
    SUMMARY: str


def entry(synopsis: str, summary: str) -> list[str]:
    """A command's lines: its synopsis, and its summary in the second column (beside a short one-line synopsis)."""
    synopsis_lines, summary_lines = synopsis.splitlines(), summary.splitlines()
    lines = [f"  {line}" for line in synopsis_lines]
    if len(synopsis_lines) == 1 and len(lines[0]) <= COLUMN - 2:
        lines[0] = lines[0].ljust(COLUMN) + summary_lines.pop(0)
    return lines + [" " * COLUMN + line for line in summary_lines]


def text(commands: Mapping[str, Entry]) -> str:
    """The help for `commands` ({name: module}, in the order shown)."""
    lines = [HEADER]
    for command in commands.values():
        lines += entry(command.SYNOPSIS, command.SUMMARY)
    return "\n".join(lines) + "\n" + FOOTER


def main(argv: list[str], commands: Mapping[str, Entry]) -> int:
    print(text(commands))
    return 0

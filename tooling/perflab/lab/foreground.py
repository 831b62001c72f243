"""A program run in the foreground of a ./perflab command (python, stack, k6, logs): as this process's child, so
that each command is one process tree, and its exit code returned as the command's, 128 + the signal's number when a
signal ended it (130 after Ctrl-C), as a shell reports it. The terminal sends Ctrl-C's SIGINT to the whole foreground
process group: the child decides what it means, this process ignores it while the child runs. A SIGTERM sent to this
process is passed on to the child, which ends the command as it would have ended the program itself. Stdlib only."""
import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from types import FrameType

SIGNALLED = 128  # a shell's exit code for a process that a signal ended: 128 + the signal's number


def exit_code(returncode: int) -> int:
    """A child's exit code as a shell reports it: subprocess's -N (signal N ended it) is 128 + N."""
    return SIGNALLED - returncode if returncode < 0 else returncode


def run(argv: Sequence[str | os.PathLike[str]]) -> int:
    """Run the program (argv[0] looked up on PATH, in this working directory and environment) until it exits; its
    exit code. Our own lines written so far go out before the program's."""
    sys.stdout.flush()
    sys.stderr.flush()
    child = subprocess.Popen([os.fspath(a) for a in argv])

    def pass_on(signum: int, _frame: FrameType | None) -> None:
        child.send_signal(signum)
    # set once the child runs: a child started with SIGINT ignored would inherit that
    previous = {sig: signal.signal(sig, handler) for sig, handler in ((signal.SIGINT, signal.SIG_IGN),
                                                                       (signal.SIGTERM, pass_on))}
    try:
        return exit_code(child.wait())
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)

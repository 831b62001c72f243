"""./perflab's commands that run a program in the foreground (python, stack, k6, logs: tooling/perflab/lab/foreground.py), as a child
whose exit code is the command's, Ctrl-C left to the program; and the lab that up brings up (tooling/perflab/lab/labup.py)."""
import signal
import subprocess
import sys

import pytest

from perflab.lab import foreground
from perflab.lab import labenv
from perflab.lab import labup

PERFLAB = str(labenv.ROOT / "perflab")


def in_a_command(program, **options):
    """foreground.run of a Python program, in a process of its own as a ./perflab command runs it: the finished
    process (its output captured)."""
    code = f"import sys; from perflab.lab import foreground; sys.exit(foreground.run([sys.executable, '-c', {program!r}]))"
    return subprocess.run([sys.executable, "-c", code], cwd=labenv.ROOT / "tooling", capture_output=True, text=True,
                          timeout=60, **options)


@pytest.mark.parametrize("returncode, code", [(0, 0), (3, 3), (-2, 130), (-15, 143), (-9, 137)])
def test_a_childs_exit_code_reads_as_a_shell_reports_it(returncode, code):
    assert foreground.exit_code(returncode) == code


def test_the_commands_exit_code_is_the_programs():
    assert in_a_command("import sys; sys.exit(3)").returncode == 3
    assert in_a_command("import os, signal; os.kill(os.getpid(), signal.SIGKILL)").returncode == 137


def test_ctrl_c_is_the_programs_to_handle_and_the_command_returns_what_it_decided():
    """The terminal's SIGINT goes to the whole process group: the command ignores it while its program runs."""
    handled = in_a_command("import os, signal, sys, time\n"
                           "signal.signal(signal.SIGINT, lambda *_: sys.exit(5))\n"
                           "os.killpg(0, signal.SIGINT)\ntime.sleep(10)", start_new_session=True)
    assert (handled.returncode, handled.stderr) == (5, "")
    stopped = in_a_command("import os, signal, time\nos.killpg(0, signal.SIGINT)\ntime.sleep(10)",
                           start_new_session=True)
    assert stopped.returncode == 130 and stopped.stderr.rstrip().endswith("KeyboardInterrupt")
    assert stopped.stderr.count("Traceback") == 1, "the program's traceback only, not the command's"


def test_a_sigterm_to_the_command_is_passed_on_to_its_program():
    done = in_a_command("import os, signal, sys, time\n"
                        "signal.signal(signal.SIGTERM, lambda *_: sys.exit(7))\n"
                        "os.kill(os.getppid(), signal.SIGTERM)\ntime.sleep(10)")
    assert done.returncode == 7


def test_the_signal_handlers_are_restored_after_the_program():
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    assert foreground.run([sys.executable, "-c", "pass"]) == 0
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before


def test_perflab_python_exits_with_the_programs_code_and_ctrl_c_gives_130():
    assert subprocess.run([PERFLAB, "python", "-c", "import sys; sys.exit(3)"], timeout=120).returncode == 3
    interrupted = subprocess.run([PERFLAB, "python", "-c", "import os, signal, time; os.killpg(0, signal.SIGINT); "
                                  "time.sleep(10)"], capture_output=True, text=True, timeout=120, start_new_session=True)
    assert interrupted.returncode == 130 and interrupted.stderr.count("Traceback") == 1


def test_up_and_status_run_each_default_data_set_in_the_database_given(monkeypatch):
    calls = []
    monkeypatch.setattr(labup, "data_set", lambda argv, env=None, indent="": calls.append((argv, env, indent)))
    labup.default_data_sets("perflab_x", "status", indent="  ")
    assert calls == [(["wallet", "--db", "perflab_x", "status"], None, "  "),
                     (["route", "--db", "perflab_x", "status"], None, "  "),
                     (["route", "--db", "perflab_x", "--univs", "11,12", "--routes", "500", "status"], None, "  ")]


def test_a_data_set_command_that_fails_stops_the_caller_with_its_code(monkeypatch, capsys):
    monkeypatch.setattr(labup.launcher, "SEEDING", [sys.executable, "-c", "print('loading'); raise SystemExit(4)"])
    with pytest.raises(SystemExit) as stopped:
        labup.data_set([], indent="  ")
    assert stopped.value.code == 4 and capsys.readouterr().out == "  loading\n"

"""shapes.settle against real processes: one idle, one spinning, one absent."""
import subprocess
import sys

import shapes


def test_settle_waits_for_every_process_in_one_window_and_reports_the_busy_one():
    idle = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    spinning = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        settled = shapes.settle({"idle": idle.pid, "spinning": spinning.pid, "gone": None}, {"settle": "3s"})
    finally:
        idle.kill(), spinning.kill()
    assert list(settled) == ["idle", "spinning", "gone"]
    assert settled["idle"]["quiet"] and settled["idle"]["seconds"] <= 3
    assert not settled["spinning"]["quiet"] and settled["spinning"]["seconds"] >= 3
    assert settled["gone"] == {"seconds": 0.0, "quiet": True}

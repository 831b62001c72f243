"""tooling/perflab/measure/flame.py on real recordings of tooling/tests/testdata/Workload.java: a spends 3/4 of its CPU in crunchA, b in crunchB."""
import pathlib
import sys

import pytest
from PIL import Image

from perflab.measure import flame
from perflab.render import screenshot

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "testdata"))
import workload  # noqa: E402

pytestmark = pytest.mark.skipif(workload.jdk25_missing() is not None, reason=str(workload.jdk25_missing()))


def leaf_samples(stacks):
    leaves = {}
    for stack, count in stacks.items():
        leaves[stack[-1]] = leaves.get(stack[-1], 0) + count
    return leaves


def test_collapsed_stacks_hold_cpu_samples_only(tmp_path):
    stacks = flame.read_collapsed(flame.collapsed(workload.recording("a"), tmp_path / "a.collapsed"))
    leaves = leaf_samples(stacks)
    assert max(leaves, key=leaves.get) == "Workload.crunchA"
    assert leaves["Workload.crunchA"] > leaves["Workload.crunchB"] > 0
    assert ("java.lang.Thread.run", "java.lang.Thread.runWith", "Workload$$Lambda.run", "Workload.lambda$work$0",
            "Workload.crunchA") in stacks  # lambda name normalized, frame-type suffixes gone
    # main() waits in a native read through the whole window: a jdk.NativeMethodSample, not CPU
    assert not any("FileInputStream" in frame for stack in stacks for frame in stack)


def test_cpu_time_samples_count_system_calls_which_execution_samples_never_see(tmp_path):
    recording = workload.recording("s")  # 7/8 of its rounds are one-byte writes to /dev/null
    assert flame.cpu_event(recording) == "jdk.CPUTimeSample"  # the runner's recording options turn it on
    assert flame.cpu_event([recording, workload.recording("a")]) == "jdk.CPUTimeSample"

    def write_share(event):
        leaves = leaf_samples(flame.read_collapsed(flame.collapsed(recording, tmp_path / f"{event}.collapsed", event)))
        return sum(n for frame, n in leaves.items() if frame.endswith(".write0")) / sum(leaves.values())

    in_syscalls = write_share("jdk.CPUTimeSample")
    assert in_syscalls > 0.2  # the thread's time inside write(2)
    # a thread in native code is not an execution sample (a few are caught on the way in or out of the call)
    assert write_share("jdk.ExecutionSample") < in_syscalls / 3


def test_a_recording_without_cpu_time_samples_falls_back_to_execution_samples(tmp_path):
    scrubbed = tmp_path / "execution-only.jfr"
    flame.run([flame.jdk_tool("jfr"), "scrub", "--exclude-events", "jdk.CPUTimeSample", workload.recording("a"), scrubbed])
    assert flame.cpu_event(scrubbed) == "jdk.ExecutionSample"
    assert flame.cpu_event([workload.recording("a"), scrubbed]) == "jdk.ExecutionSample"  # one kind for both sides
    leaves = leaf_samples(flame.read_collapsed(flame.collapsed(scrubbed, tmp_path / "a.collapsed")))
    assert max(leaves, key=leaves.get) == "Workload.crunchA"


def test_a_flame_graph_is_a_self_contained_page(tmp_path):
    page = pathlib.Path(flame.flamegraph(workload.recording("a"), tmp_path / "a.html"))
    text = page.read_text()
    assert "<canvas" in text and "crunchA" in text
    assert "src=\"http" not in text


def reds_and_blues(png):
    """Pixels of the converter's diff palette: rgb(255, v, v) more in B, rgb(v, v, 255) fewer; the fainter, the
    smaller the change against the largest one."""
    with Image.open(png) as image:
        colours = image.convert("RGB").getcolors(maxcolors=1 << 24)
    red = sum(n for n, (r, g, b) in colours if r == 255 and g == b < 255)
    blue = sum(n for n, (r, g, b) in colours if b == 255 and r == g < 255)
    return red, blue


def test_the_diff_flame_graph_shows_b_in_red_where_it_does_more(tmp_path):
    page = flame.diff_flamegraph(workload.recording("a"), workload.recording("b"), tmp_path / "diff.html")
    assert "<canvas" in pathlib.Path(page).read_text()  # frame names are prefix-compressed in the page
    red, blue = reds_and_blues(screenshot.screenshot(page, tmp_path / "diff.png"))
    assert red > 1000 and blue > 1000, (red, blue)  # crunchB grew (red), crunchA shrank (blue): frames, not specks

    same = flame.diff_flamegraph(workload.recording("a"), workload.recording("a"), tmp_path / "same.html")
    red, blue = reds_and_blues(screenshot.screenshot(same, tmp_path / "same.png"))
    assert red < 100 and blue < 100, (red, blue)  # grey frames; a few tinted pixels in the toolbar icons


def test_several_recordings_of_one_side_are_merged(tmp_path):
    one = sum(flame.read_collapsed(flame.collapsed(workload.recording("a"), tmp_path / "1.collapsed")).values())
    two = flame.read_collapsed(flame.collapsed([workload.recording("a"), workload.recording("b")],
                                               tmp_path / "2.collapsed"))
    assert sum(two.values()) > one
    assert {"Workload.crunchA", "Workload.crunchB"} <= set(leaf_samples(two))


def test_a_missing_recording_is_reported_with_the_command(tmp_path):
    with pytest.raises(flame.ToolError, match=r"jfr (summary|scrub) .*nothing\.jfr"):
        flame.collapsed(tmp_path / "nothing.jfr", tmp_path / "out.collapsed")

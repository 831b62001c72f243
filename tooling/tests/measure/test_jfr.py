"""tooling/perflab/measure/jfr.py on real recordings of tooling/tests/testdata/Workload.java (variant a: crunchA/ParcelA, b: crunchB/ParcelB)."""
import json
import pathlib
import sys

import pytest

from perflab.measure import jfr
from perflab.measure import jfr_diff

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "testdata"))
import workload  # noqa: E402

needs_jdk25 = pytest.mark.skipif(workload.jdk25_missing() is not None, reason=str(workload.jdk25_missing()))


@pytest.fixture(scope="module")
def profile_a():
    return jfr.summary(workload.recording("a"), requests=workload.rounds("a"))


@pytest.fixture(scope="module")
def profile_b():
    return jfr.summary(workload.recording("b"), requests=workload.rounds("b"))


def by(entries, key):
    return {entry[key]: entry for entry in entries}


# ------------------------------------------------------------------------------------------ pure helpers

def test_iso_durations_become_milliseconds():
    assert jfr.millis("PT0.012375796S") == pytest.approx(12.375796)
    assert jfr.millis("PT1M2.5S") == pytest.approx(62_500)
    assert jfr.millis("PT2H") == pytest.approx(7_200_000)
    assert jfr.millis("PT-2562047788015215H-30M-8S") == 0  # a park without timeout
    assert jfr.millis(None) == 0


def test_the_waiting_site_is_the_first_frame_outside_the_jdk_locking_code():
    def frame(class_path, method):
        return {"method": {"type": {"name": class_path}, "name": method}}
    park = {"stackTrace": {"frames": [frame("jdk/internal/misc/Unsafe", "park"),
                                      frame("java/util/concurrent/locks/LockSupport", "parkNanos"),
                                      frame("java/util/concurrent/SynchronousQueue", "poll"),
                                      frame("com/zaxxer/hikari/util/ConcurrentBag", "borrow"),
                                      frame("com/zaxxer/hikari/pool/HikariPool", "getConnection")]}}
    assert jfr.waiting_site(park) == "com.zaxxer.hikari.util.ConcurrentBag.borrow"
    assert jfr.waiting_site({"stackTrace": {"frames": park["stackTrace"]["frames"][:3]}}).startswith("(deeper than")
    assert jfr.waiting_site({}) == "(no stack)"


def test_class_names_are_spelled_as_in_java():
    assert jfr.class_name({"name": "java/lang/String"}) == "java.lang.String"
    assert jfr.class_name({"name": "[J"}) == "long[]"
    assert jfr.class_name({"name": "[[Ljava/util/HashMap$Node;"}) == "java.util.HashMap$Node[][]"
    assert jfr.class_name(None) == "(none)"


def test_a_frame_belongs_to_its_package_three_parts_deep():
    assert jfr.layer("org.apache.ibatis.executor.SimpleExecutor.doUpdate") == "org.apache.ibatis"
    assert jfr.layer("org.springframework.security.web.FilterChainProxy.doFilter") == "org.springframework.security"
    assert jfr.layer("com.zaxxer.hikari.pool.HikariPool.getConnection") == "com.zaxxer.hikari"
    assert jfr.layer("tools.jackson.Foo$Bar.write") == "tools.jackson"
    assert jfr.layer("Workload.crunchA") == "Workload"


def test_the_jdks_work_is_charged_to_the_library_that_called_it():
    driver_write = ("java.lang.Thread.run", "org.apache.tomcat.util.threads.TaskThread$WrappingRunnable.run",
                    "dev.perflab.wallet.Transfers.transfer", "org.mariadb.jdbc.client.impl.StandardClient.sendQuery",
                    "java.io.OutputStream.write", "sun.nio.ch.SocketDispatcher.write0")
    tomcat_read = ("java.lang.Thread.run", "org.apache.tomcat.util.net.NioEndpoint$Poller.run", "sun.nio.ch.EPoll.wait")
    own_code = ("java.lang.Thread.run", "dev.perflab.wallet.Transfers.transfer")
    only_jdk = ("java.lang.Thread.run", "java.util.concurrent.ForkJoinPool.runWorker")
    counted = jfr.layers({driver_write: 6, tomcat_read: 3, own_code: 2, only_jdk: 1})
    assert counted == {"org.mariadb.jdbc": 6, "org.apache.tomcat": 3, "dev.perflab.wallet": 2, "JDK": 1}


def test_rows_put_the_largest_change_first_and_count_a_missing_name_as_zero():
    table = jfr_diff.rows({"x": 10, "y": 5, "gone": 3}, {"x": 11, "y": 1, "new": 2}, top=3)
    assert [row["name"] for row in table] == ["y", "gone", "new"]
    assert [row["name"] for row in jfr_diff.rows({"x": 10, "y": 5, "gone": 3}, {"x": 11, "y": 1, "new": 2}, by_size=True)] == [
        "x", "y", "gone", "new"]
    assert table[0] == {"name": "y", "a": 5, "b": 1, "change": -4, "relative": -0.8}
    assert table[2]["relative"] is None


# ------------------------------------------------------------------------------------ real recordings

@needs_jdk25
def test_the_hot_method_leads_the_cpu_samples(profile_a):
    methods = profile_a["cpu"]["methods"]
    assert profile_a["cpu"]["event"] == "jdk.CPUTimeSample"  # start_recording turns JDK 25's CPU-time sampler on
    assert profile_a["cpu"]["samples"] > 50
    assert methods[0]["method"] == "Workload.crunchA"
    assert methods[0]["self_share"] > 0.4
    assert by(methods, "method")["Workload.crunchB"]["self"] < methods[0]["self"]
    inclusive = by(profile_a["cpu"]["inclusive"], "method")
    assert inclusive["Workload.lambda$work$0"]["total"] >= methods[0]["self"]
    assert profile_a["cpu"]["layers"][0]["layer"] == "Workload"  # the program's own frames lead its libraries


@needs_jdk25
def test_a_system_call_counts_to_the_code_that_made_it():
    layers = by(jfr.summary(workload.recording("s"))["cpu"]["layers"], "layer")
    assert layers["Workload"]["share"] > 0.6  # its writes to /dev/null (JDK frames, then write(2)) included


@needs_jdk25
def test_allocation_is_by_class_and_per_request(profile_a):
    allocation = profile_a["allocation"]
    top = allocation["classes"][0]
    assert top["class"] == "Workload$ParcelA"
    assert top["bytes"] > 0
    assert top["bytes_per_request"] == pytest.approx(top["bytes"] / workload.rounds("a"), rel=1e-3)
    assert allocation["bytes"] >= sum(entry["bytes"] for entry in allocation["classes"][:5])


@needs_jdk25
def test_lock_contention_names_the_monitor_and_the_parked_on_lock(profile_a):
    monitors = by(profile_a["locks"]["monitor_enter"]["classes"], "class")
    parks = by(profile_a["locks"]["thread_park"]["classes"], "class")
    ledger = monitors["Workload$Ledger"]
    assert ledger["count"] >= 1 and ledger["total_ms"] >= ledger["max_ms"] >= 10
    assert parks["java.util.concurrent.locks.ReentrantLock$NonfairSync"]["count"] >= 1
    # the waiting code itself, past LockSupport and AbstractQueuedSynchronizer
    assert profile_a["locks"]["monitor_enter"]["sites"][0]["site"] == "Workload.holdLedger"
    assert profile_a["locks"]["thread_park"]["sites"][0]["site"] == "Workload.holdGate"


@needs_jdk25
def test_gc_pauses_and_jit_activity_are_counted(profile_a):
    gc, jit = profile_a["gc"], profile_a["jit"]
    assert gc["count"] >= 1
    assert gc["total_pause_ms"] >= gc["max_pause_ms"] > 0
    assert sum(collector["count"] for collector in gc["collectors"]) == gc["count"]
    assert jit["compilations"] >= 1 and jit["compile_ms"] > 0
    assert sum(jit["by_compiler"].values()) == jit["compilations"]
    assert jit["deoptimizations"] == sum(reason["count"] for reason in jit["deopt_reasons"])


@needs_jdk25
def test_the_summary_is_json(profile_a):
    assert json.loads(json.dumps(profile_a)) == profile_a


@needs_jdk25
def test_the_diff_shows_the_work_moving_from_crunch_a_to_crunch_b(profile_a, profile_b):
    changes = jfr_diff.diff(profile_a, profile_b)
    cpu = by(changes["cpu_self"]["rows"], "name")
    assert cpu["Workload.crunchB"]["change"] > 0.2
    assert cpu["Workload.crunchA"]["change"] < -0.2
    assert changes["cpu_self"]["unit"] == "share of CPU-time samples (system calls included) (top frame)"
    older = dict(profile_a, cpu={k: v for k, v in profile_a["cpu"].items() if k != "event"})  # stored before `event`
    assert jfr_diff.diff(older, profile_b)["cpu_total"]["unit"].startswith(
        "share of CPU samples (A: execution samples (Java code only); B: CPU-time samples")
    allocation = by(changes["allocation"]["rows"], "name")
    assert changes["allocation"]["unit"] == "bytes per request"
    assert allocation["Workload$ParcelB"]["change"] > 0 > allocation["Workload$ParcelA"]["change"]
    for name, section in changes.items():
        magnitudes = [max(row["a"], row["b"]) if name in jfr_diff.BREAKDOWNS else abs(row["change"]) for row in section["rows"]]
        assert magnitudes == sorted(magnitudes, reverse=True)
    assert changes["cpu_layers"]["rows"][0]["name"] == "Workload"  # a breakdown: the largest layer first
    assert {row["name"] for row in changes["gc"]["rows"]} == {"collections", "total pause ms", "max pause ms"}
    assert {row["name"] for row in changes["monitor_sites"]["rows"]} >= {"Workload.holdLedger"}


@needs_jdk25
def test_several_runs_of_one_side_add_up(profile_a):
    twice = jfr.summary([workload.recording("a")] * 2)
    assert twice["cpu"]["samples"] == 2 * profile_a["cpu"]["samples"]
    assert twice["allocation"]["bytes"] == 2 * profile_a["allocation"]["bytes"]
    assert twice["gc"]["count"] == 2 * profile_a["gc"]["count"]
    assert twice["allocation"]["bytes_per_request"] is None


# ------------------------------------------------------------------------------ a start, from its first moment

def test_event_start_times_read_as_epoch_milliseconds():
    assert jfr.epoch_ms("1970-01-01T00:00:01.5Z") == pytest.approx(1500)
    assert jfr.epoch_ms("2026-11-26T16:46:53.725564724Z") == pytest.approx(1795711613725.5647, abs=1e-3)
    assert jfr.epoch_ms("2026-11-27T01:46:53.725564724+09:00") == pytest.approx(1795711613725.5647, abs=1e-3)
    assert jfr.epoch_ms("1970-01-01T00:00:02Z") == 2000
    assert jfr.epoch_ms("PT0.1S") is None and jfr.epoch_ms(None) is None


def compilation(compiler, ms, class_path="java/lang/String"):
    return "jdk.Compilation", {"compiler": compiler, "duration": f"PT{ms / 1000}S", "succeded": True,
                               "method": {"type": {"name": class_path}, "name": "m"}}


def test_gc_counts_split_young_from_old_and_compile_time_splits_by_compiler_and_focus():
    counted = jfr.JitGc(focus="dev.perflab.support.parse.")
    for event in [compilation("c1", 1.0), compilation("c2", 4.0), compilation("c2", 2.5, "dev/perflab/support/parse/before/NaiveBearerTokenResolver"),
                  ("jdk.Deoptimization", {"reason": "unstable_if"}),
                  *[("jdk.GarbageCollection", {"name": name, "sumOfPauses": "PT0.001S", "longestPause": "PT0.001S"})
                    for name in ("G1New", "G1New", "DefNew", "G1Old", "G1Full")]]:
        counted.add(*event)
    sections = counted.sections()
    jit, gc = sections["jit"], sections["gc"]
    assert (jit["compilations"], jit["by_compiler"]) == (3, {"c1": 1, "c2": 2})
    assert jit["compile_ms_by_compiler"] == {"c1": pytest.approx(1.0), "c2": pytest.approx(6.5)}
    assert jit["compile_ms"] == pytest.approx(7.5)
    assert jit["focus"] == {"prefix": "dev.perflab.support.parse.", "compilations": 1, "compile_ms": pytest.approx(2.5)}
    assert jit["deoptimizations"] == 1
    assert (gc["count"], gc["young"], gc["old"]) == (5, 3, 2)
    assert "focus" not in jfr.JitGc().sections()["jit"]


@needs_jdk25
def test_a_recording_from_launch_is_read_over_a_window_of_its_run():
    path, go, done = workload.launch_recording()
    whole = jfr.window_summary(path, 0, float("inf"), focus="Workload")
    measured = jfr.window_summary(path, go, done, focus="Workload")
    before = jfr.window_summary(path, 0, go - 60_000)
    assert measured["window_ms"] == [go, done]
    assert 0 < measured["jit"]["compilations"] < whole["jit"]["compilations"]  # the JVM's own start compiled too
    assert whole["jit"]["by_compiler"].get("c2", 0) >= 1 and whole["jit"]["focus"]["compilations"] >= 1
    assert measured["gc"]["young"] >= 1 and measured["gc"]["young"] + measured["gc"]["old"] == measured["gc"]["count"]
    assert before["jit"]["compilations"] == 0 and before["gc"]["count"] == 0
    assert measured["cpu"]["samples"] > 50 and measured["cpu"]["focus_share"] > 0.5  # Workload's own rounds
    assert "focus_share" not in jfr.window_summary(path, go, done)["cpu"]

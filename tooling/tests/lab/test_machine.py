"""Machine profiles (tooling/perflab/lab/machine.py, experiments/machine.toml): the profiles, the quota arithmetic and the limit
check, the command that starts the app inside its group, the app's JVM flags in order, the GC read from the
app's metrics, the report's lines; and, as root with a writable cgroup v1 cpu controller, a real CPU quota held."""
import os
import subprocess
import sys
import time
import types

import pytest

from perflab.lab import appctl
from perflab.plan import experiment
from perflab.lab import launcher
from perflab.lab import machine
from perflab.render import html_page
from perflab.render import report


@pytest.fixture
def fake_cgroup(tmp_path, monkeypatch):
    """A folder standing for /sys/fs/cgroup/cpu, with the root group's cgroup.procs, and a state folder of its own."""
    (tmp_path / "cpu").mkdir()
    (tmp_path / "cpu" / "cgroup.procs").write_text("")
    monkeypatch.setattr(machine, "CGROUP_CPU", tmp_path / "cpu")
    monkeypatch.setattr(machine, "STATE", tmp_path / "state")
    return tmp_path / "cpu"


def test_the_three_profiles_of_the_file_read_as_the_case_studies_set_them():
    assert {"unlimited", "seed-004", "t2-micro"} <= set(machine.profiles())
    unlimited = machine.profile()
    assert unlimited["name"] == "unlimited" and unlimited["app"] == {"cpus": None, "jvm": []}
    assert unlimited["mariadb"] == {"cpus": None}
    wallet = machine.profile("seed-004")
    assert wallet["app"]["cpus"] == 0.75 and wallet["mariadb"]["cpus"] == 0.35
    assert wallet["app"]["jvm"] == ["-XX:ActiveProcessorCount=2", "-Xms512m", "-Xmx512m", "-XX:MaxRAM=1024m"]
    micro = machine.profile("t2-micro")
    assert micro["app"] == {"cpus": 1.0, "jvm": ["-XX:ActiveProcessorCount=1", "-XX:MaxRAM=1g"]}
    assert micro["mariadb"]["cpus"] is None
    assert all(machine.profile(n)["why"] and machine.profile(n)["description"] for n in machine.profiles())
    assert machine.describe(micro) == "t2-micro: app 1 CPU, JVM -XX:ActiveProcessorCount=1 -XX:MaxRAM=1g; MariaDB unlimited"


@pytest.mark.parametrize("table, message", [
    ({"app": {"cpus": 0}}, "app.cpus = 0: a positive number"),
    ({"app": {"cpus": "half"}}, "app.cpus = 'half'"),
    ({"mariadb": {"cpus": 1, "jvm": []}}, "mariadb: unknown key(s) jvm"),
    ({"disk": {}}, "unknown key(s) disk"),
    ({"app": {"jvm": "-Xmx1g"}}, "app.jvm: a list of JVM flags"),
])
def test_a_wrong_profile_is_one_readable_error(table, message):
    with pytest.raises(SystemExit, match=message.replace("(", r"\(").replace(")", r"\)")):
        machine.parse("broken", table)


def test_an_unknown_profile_names_the_known_ones():
    with pytest.raises(SystemExit, match="no machine profile 'm5.large'.*known: unlimited"):
        machine.profile("m5.large")


def test_the_quota_is_the_share_of_a_100_ms_period_with_the_kernels_floor():
    assert machine.quota_us(0.5) == 50_000
    assert machine.quota_us(1.0) == 100_000
    assert machine.quota_us(2) == 200_000
    assert machine.quota_us(0.001) == 1000
    with pytest.raises(ValueError):
        machine.quota_us(0)


def test_a_limit_holds_up_to_its_share_and_tolerance_and_not_beyond():
    assert machine.held(5.0, 10.0, 0.5) == (0.5, True)
    assert machine.held(5.4, 10.0, 0.5)[1] is True  # 0.54 <= 0.5 x 1.05 + 0.02
    assert machine.held(6.0, 10.0, 0.5)[1] is False
    assert machine.held(float("nan"), 10.0, 0.5)[1] is None
    assert machine.held(1.0, 10.0, None)[1] is None


def test_a_windows_check_has_the_rate_and_the_throttled_periods_between_two_snapshots():
    before = {"cpus": 1.0, "how": "cgroup", "nr_periods": 100, "nr_throttled": 10, "throttled_time": 2_000_000_000}
    after = {"cpus": 1.0, "how": "cgroup", "nr_periods": 400, "nr_throttled": 50, "throttled_time": 5_500_000_000}
    assert machine.check("app", before, after, 29.0, 30.0) == {
        "process": "app", "cpus": 1.0, "how": "cgroup", "cpu_per_s": 0.9667, "held": True, "periods": 300,
        "throttled": 40, "throttled_s": 3.5}
    assert machine.check("app", None, None, 29.0, 30.0) is None
    cpulimit = machine.check("mariadb", {"cpus": 0.5, "how": "cpulimit"}, {"cpus": 0.5, "how": "cpulimit"}, 24.0, 30.0)
    assert cpulimit == {"process": "mariadb", "cpus": 0.5, "how": "cpulimit", "cpu_per_s": 0.8, "held": False}


def test_the_launch_command_enters_the_group_and_execs_the_same_pid(fake_cgroup):
    command = machine.enter_command("app-x", 0.5, [sys.executable, "-c", "import os; print(os.getpid())"])
    assert command[:2] == ["sh", "-c"] and command[4] == sys.executable
    printed = subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()
    group = fake_cgroup / "perflab" / "app-x"
    assert (group / "cgroup.procs").read_text().strip() == printed
    assert (group / "cpu.cfs_quota_us").read_text().strip() == "50000"
    assert (group / "cpu.cfs_period_us").read_text().strip() == "100000"
    assert machine.enter_command("app-x", None, ["java"]) == ["java"]


def test_limit_and_release_are_idempotent_and_put_the_pid_back_in_the_root_group(fake_cgroup):
    assert machine.limit("db", None, 0.5) is None and machine.limit("db", 42, None) is None
    state = machine.limit("db", 4242, 0.25, "seed-004")
    assert state["how"] == "cgroup" and state["machine"] == "seed-004"
    assert (fake_cgroup / "perflab" / "db" / "cgroup.procs").read_text().strip() == "4242"
    assert machine.limit("db", 4242, 0.25)["cpus"] == 0.25  # again: the same group, the pid not written twice
    (fake_cgroup / "perflab" / "db" / "cpu.stat").write_text("nr_periods 7\nnr_throttled 3\nthrottled_time 900\n")
    assert machine.snapshot("db") == {"cpus": 0.25, "how": "cgroup", "nr_periods": 7, "nr_throttled": 3, "throttled_time": 900}
    assert machine.status_line("db").startswith("0.25 CPU (cgroup ") and "throttled 3 of 7 periods" in machine.status_line("db")
    machine.release("db")
    assert (fake_cgroup / "cgroup.procs").read_text().strip() == "4242"
    assert machine.snapshot("db") is None and machine.status_line("db") == "none"
    machine.release("db")  # nothing left to release: no error


def test_without_a_writable_cgroup_the_fallback_is_cpulimit_with_one_cpu_as_100(tmp_path, monkeypatch):
    monkeypatch.setattr(machine, "CGROUP_CPU", tmp_path / "no-cgroup-here")
    assert not machine.cgroup_writable()
    assert machine.enter_command("app", 0.5, ["java", "-jar", "x.jar"]) == ["java", "-jar", "x.jar"]
    assert machine.cpulimit_command(123, 0.5) == ["cpulimit", "-p", "123", "-l", "50", "-z", "-q"]
    monkeypatch.setattr(machine.shutil, "which", lambda name: None)
    with pytest.raises(SystemExit, match="apt-get install cpulimit"):
        machine.start_cpulimit(123, 0.5)


def options(**kwargs):
    return appctl.Options(**kwargs)


def test_the_jvm_flags_put_the_profiles_first_and_the_explicit_ones_after():
    flags, cpus = appctl.jvm_command(options(machine="seed-004", jvm_opts="-Xmn128m"), "-Xmx1g")
    assert cpus == 0.75
    assert flags == ["-XX:ActiveProcessorCount=2", "-Xms512m", "-Xmx512m", "-XX:MaxRAM=1024m", *appctl.JVM_BASE_OPTS, "-Xmn128m"]
    flags, _ = appctl.jvm_command(options(machine="t2-micro", heap="-Xms500m -Xmx500m"), "")
    assert flags[:4] == ["-XX:ActiveProcessorCount=1", "-XX:MaxRAM=1g", "-Xms500m", "-Xmx500m"]
    flags, cpus = appctl.jvm_command(options(cpus=0.3), "-Xms1g -Xmx1g")
    assert (flags[:2], cpus) == (["-Xms1g", "-Xmx1g"], 0.3)  # no machine profile: the heap preset stays
    assert appctl.jvm_command(options(machine="t2-micro", cpus=2.0), "-Xmx1g")[1] == 2.0  # --cpus wins


def test_app_start_takes_the_machine_and_the_cpus_and_refuses_a_share_that_is_not_one():
    parsed = appctl.parse(["--machine", "t2-micro", "--cpus", "0.75", "--jvm-opts", "-Xmx500m"])
    assert (parsed.machine, parsed.cpus, parsed.jvm_opts) == ("t2-micro", 0.75, "-Xmx500m")
    for bad in ("0", "-1", "lots", "inf"):
        with pytest.raises(SystemExit):
            appctl.parse(["--cpus", bad])


def test_the_launcher_passes_the_experiments_machine_and_the_variants_flags_come_after():
    e = {"machine": "t2-micro"}
    app = launcher.App(e, {"label": "after", "args": [], "redis_db": 10, "jvm_opts": "-Xms500m -Xmx500m"}, 0, {})
    assert app.options.index("--machine") < app.options.index("--jvm-opts")
    assert app.options[app.options.index("--machine") + 1] == "t2-micro"


def test_an_experiment_runs_unlimited_unless_it_names_a_machine_and_machine_toml_is_no_experiment():
    assert "machine" not in experiment.names() and "network" not in experiment.names()
    assert experiment.load("wallet-fixed")["machine"] == "unlimited"
    assert experiment.load("wallet")["machine"] == "seed-004-pool"


SERIAL = ('jvm_memory_used_bytes{application="perflab",area="heap",id="Tenured Gen"} 1.0\n'
          'jvm_memory_used_bytes{application="perflab",area="nonheap",id="Metaspace"} 2.0\n')


def test_the_gc_is_read_from_the_heap_pools_the_apps_metrics_name():
    assert machine.gc_from_text(SERIAL) == "SerialGC"
    assert machine.gc_from_text(SERIAL.replace("Tenured Gen", "G1 Old Gen")) == "G1GC"
    assert machine.gc_from_pools({"PS Old Gen"}) == "ParallelGC"
    assert machine.gc_from_pools({"ZGC Old Generation"}) == "ZGC"
    assert machine.gc_from_pools({"Metaspace"}) is None
    sample = types.SimpleNamespace(name="jvm_memory_used_bytes", labels={"area": "heap", "id": "Tenured Gen"})
    assert machine.gc_from_samples([sample]) == "SerialGC"


def test_memory_flags_replace_the_heap_preset_and_cpu_flags_do_not():
    assert machine.sizes_memory(["-XX:MaxRAM=1g"]) and machine.sizes_memory(["-Xmx512m"])
    assert not machine.sizes_memory(["-XX:ActiveProcessorCount=1", "-XX:MaxRAMPercentageX"])


def cell(runs):
    return {"machine": "t2-micro: app 1 CPU, JVM -XX:ActiveProcessorCount=1 -XX:MaxRAM=1g; MariaDB unlimited", "runs": runs}


def limited_run(testid, variant, gc, rate, held, throttled=5):
    return {"testid": testid, "variant": variant, "gc": gc, "limits": [
        {"process": "app", "cpus": 1.0, "how": "cgroup", "cpu_per_s": rate, "held": held, "periods": 100,
         "throttled": throttled, "throttled_s": 0.1}]}


def test_the_report_states_the_profile_the_gc_and_whether_each_limit_held():
    c = cell([limited_run("r1", "before", "SerialGC", 0.97, True), limited_run("r2", "after", "SerialGC", 0.99, True)])
    assert report.machine_lines(c) == [
        "machine t2-micro: app 1 CPU, JVM -XX:ActiveProcessorCount=1 -XX:MaxRAM=1g; MariaDB unlimited", "GC: SerialGC",
        "the app held to 1 CPU by a cgroup quota in 2 of 2 runs (at most 0.99 CPU-s per s; throttled 10 of 200 periods: before 5 % / after 5 %)"]
    assert report.limit_warnings(c) == []


def test_a_limit_that_did_not_hold_is_a_warning_and_different_gcs_are_named_per_variant():
    c = cell([limited_run("r1", "before", "G1GC", 1.4, False), limited_run("r2", "after", "SerialGC", 0.9, True)])
    assert report.gc_text(c) == "GC: before G1GC, after SerialGC"
    assert "in 1 of 2 runs" in report.machine_lines(c)[2]
    assert report.limit_warnings(c) == ["the app used 1.40 CPU-s per s in r1, over its 1 CPU limit: the machine profile did not hold"]


def test_a_result_from_before_machine_profiles_reports_no_machine_line():
    assert report.machine_lines({"runs": [{"testid": "r1", "variant": "a"}]}) == []
    assert report.limit_warnings({"runs": [{"testid": "r1", "variant": "a"}]}) == []


def cgroup_v1_cpu_writable():
    return os.geteuid() == 0 and machine.cgroup_writable()


@pytest.mark.skipif(not cgroup_v1_cpu_writable(), reason="needs root and a writable cgroup v1 cpu controller "
                                                        f"({machine.CGROUP_CPU})")
def test_a_busy_process_under_a_fifth_of_a_cpu_gets_no_more_than_that():
    """A correctness check of the limit, not a performance test: a process that would use a whole core, started
    inside a 0.2 CPU group for about 2 s, uses at most about 0.2 CPU seconds per wall second."""
    name = f"test-{os.getpid()}"
    busy = [sys.executable, "-c", "import time\nend = time.monotonic() + 2\nwhile time.monotonic() < end: pass"]
    started = time.monotonic()
    process = subprocess.Popen(machine.enter_command(name, 0.2, busy))
    try:
        _, _, usage = os.wait4(process.pid, 0)
        wall = time.monotonic() - started
        throttled = machine.cpu_stat(name)["nr_throttled"]
    finally:
        machine.release(name)
    rate = (usage.ru_utime + usage.ru_stime) / wall
    assert rate < 0.25, f"{rate:.3f} CPU-s per s under a 0.2 CPU quota"
    assert throttled > 0
    assert not machine.group(name).exists()


def test_every_report_form_states_the_machine_and_warns_of_a_limit_that_did_not_hold(build):
    r = build.result()
    c = r["cells"][0]
    c["machine"] = "seed-004: app 0.5 CPU; MariaDB 0.5 CPU"
    c["runs"][0].update(gc="G1GC", limits=[{"process": "mariadb", "cpus": 0.5, "how": "cgroup", "cpu_per_s": 0.9,
                                            "held": False, "periods": 10, "throttled": 0, "throttled_s": 0.0}])
    warning = "MariaDB used 0.90 CPU-s per s in x-A-side-r1, over its 0.5 CPU limit"
    for text in (report.text(r), report.markdown(r), html_page.html(r)):
        assert "machine seed-004: app 0.5 CPU; MariaDB 0.5 CPU" in text and "GC: G1GC" in text
        assert "MariaDB held to 0.5 CPU by a cgroup quota in 0 of 1 runs" in text and warning in text


def test_an_experiment_names_its_machine_and_the_list_shows_it(tmp_path, monkeypatch):
    monkeypatch.setattr(experiment, "DIR", tmp_path)
    variants = '[[variant]]\nlabel = "a"\n[[variant]]\nlabel = "b"\n'
    (tmp_path / "micro.toml").write_text(f'machine = "t2-micro"\nsummary = "s"\n{variants}')
    assert experiment.load("micro")["machine"] == "t2-micro"
    assert experiment.describe_all()[0].endswith(", machine t2-micro: s")
    (tmp_path / "wrong.toml").write_text(f'machine = 1\n{variants}')
    with pytest.raises(SystemExit, match="machine = 1: the name of a profile"):
        experiment.load("wrong")

"""tooling/perflab/analyse/phases.py and the runner's ready line: where a run's time goes, and how long each database took."""
from perflab.analyse import phases
from perflab.measure import preparation


def test_measurement_is_the_rounds_less_starts_warmups_and_resets_and_setup_adds_data_sets_and_starts():
    timings = phases.Timings()
    for phase, seconds in (("data_sets", 10.0), ("app_starts", 30.0), ("warmup", 12.0), ("resets", 3.0),
                           ("analysis", 2.0)):
        timings.add(phase, seconds)
    timings.rounds_took(100.0)
    got = timings.record()
    assert {k: v for k, v in got.items() if k != "total_s"} == {
        "data_sets_s": 10.0, "app_starts_s": 30.0, "warmup_s": 12.0, "resets_s": 3.0, "measurement_s": 55.0,
        "analysis_s": 2.0, "setup_s": 40.0}
    assert phases.line({**got, "total_s": 160.0}) == (
        "time: 160 s in all: set-up 40 s (data sets 10 s, app starts 30 s), warm-up 12 s, resets 3 s, "
        "measurement 55 s, analysis 2 s")


def test_a_phase_is_timed_even_when_it_fails():
    timings = phases.Timings()
    try:
        with timings.timing("app_starts"):
            raise SystemExit("did not start")
    except SystemExit:
        pass
    assert timings.seconds["app_starts"] >= 0.0 and timings.seconds["measurement"] == 0.0


def test_the_ready_line_is_the_seeders_when_it_cloned_else_the_commands_time():
    variant = {"database": "perflab_wallet_after"}
    cloned = "[  1.0s] wallet data set loaded into x\n[  4.9s] database perflab_wallet_after ready in 4.9 s (cloned from template t, tablespace)\n"
    assert preparation.ready_line(variant, cloned, 6.0) == \
        "database perflab_wallet_after ready in 4.9 s (cloned from template t, tablespace)"
    assert preparation.ready_line(variant, "[  0.0s] wallet data set: in place in perflab_wallet_after\n", 0.46) == \
        "database perflab_wallet_after ready in 0.5 s (in place)"
    assert preparation.ready_line(variant, "[ 33.8s] wallet data set loaded into perflab_wallet_after\n", 34.0) == \
        "database perflab_wallet_after ready in 34.0 s (loaded)"

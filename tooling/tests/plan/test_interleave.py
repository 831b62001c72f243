import copy

import pytest

from perflab.plan import experiment as experiments
from perflab.plan import interleave
from perflab.measure import k6io
from perflab.analyse import stats_calibration


def wallet():
    return experiments.load("wallet-interleaved")


def test_an_arm_is_the_label_made_header_safe():
    assert interleave.arm("wallet-after (A/A)") == "wallet-after-a-a"
    assert interleave.arm("Before") == "before"
    assert len(interleave.arm("x" * 60)) == 40
    with pytest.raises(SystemExit, match="no arm name"):
        interleave.arm("(  )")


def test_the_one_app_runs_the_first_variants_settings_with_every_arm_and_its_side():
    app = interleave.host(wallet())
    assert app["profile"] == "wallet-after" and app["database"] == "perflab_wallet_after"
    assert "--perflab.lab.interleave.enabled=true" in app["args"]
    assert "--perflab.lab.interleave.arms=before,after" in app["args"]
    assert {"--perflab.lab.interleave.sides.before=before", "--perflab.lab.interleave.sides.after=after"} <= set(app["args"])
    assert app["env"]["ARMS"] == "before,after"
    assert not any("planted" in a for a in app["args"])


def test_the_power_check_plants_its_cpu_on_the_last_arm():
    app = interleave.host(wallet(), plant="150us")
    assert "--perflab.lab.interleave.planted-arm=after" in app["args"]
    assert "--perflab.lab.interleave.planted-cpu=150us" in app["args"]


def test_variants_that_need_an_app_each_are_refused_with_what_differs():
    e = experiments.load("wallet-fixed")
    e["interleave"] = True
    e["mechanism"] = []
    with pytest.raises(SystemExit, match="differ in .*database.*profile"):
        interleave.check(e)


def test_a_whole_app_mechanism_cannot_be_split_by_arm():
    e = wallet()
    e["mechanism"].append({"name": "app CPU per transfer (ms)", "kind": "cpu", "process": "app"})
    with pytest.raises(SystemExit, match="app CPU per transfer"):
        interleave.check(e)


def test_only_open_and_closed_loads_interleave():
    e = wallet()
    e["load"]["shape"] = "capacity"
    with pytest.raises(SystemExit, match="open or closed"):
        interleave.check(e)


def test_an_unknown_side_is_named():
    e = wallet()
    e["variants"][1]["side"] = "faster"
    with pytest.raises(SystemExit, match="'faster'"):
        interleave.host(e)


def test_mechanisms_take_the_arm_in_their_labels_only_where_asked():
    ms = interleave.mechanisms_for(wallet()["mechanism"], "after")
    statements = next(m for m in ms if m["name"] == "statements per transfer")
    assert statements["labels"] == {"arm": "after", "outcome": "created"}
    assert statements["per_labels"] == {"arm": "after", "outcome": "created"}
    assert wallet()["mechanism"][0]["labels"]["arm"] == "{arm}"  # the file's own stay as they were


def test_a_requests_arm_is_read_from_its_column_or_from_k6s_extra_tags():
    assert k6io.arm_of({"arm": "before"}) == "before"
    assert k6io.arm_of({"extra_tags": "step=100&arm=after&testid=x"}) == "after"
    assert k6io.arm_of({"extra_tags": "step=100"}) is None
    assert k6io.arm_of({}) is None


def test_read_requests_keeps_one_arms_requests(tmp_path):
    csv = tmp_path / "k6.csv"
    csv.write_text("metric_name,timestamp,metric_value,scenario,extra_tags\n"
                   "http_req_duration,1,5.0,transfer,arm=before\n"
                   "http_req_failed,1,0,transfer,arm=before\n"
                   "http_req_duration,1,7.0,transfer,arm=after\n"
                   "http_req_failed,1,1,transfer,arm=after\n")
    assert k6io.requests_by_arm(csv, "transfer")["after"] == ([7.0], [1], [True])
    assert k6io.requests_by_arm(csv, "transfer")["before"] == ([5.0], [1], [False])
    assert k6io.read_requests(csv, "transfer")[0] == [5.0, 7.0]


def test_power_finds_a_planted_five_percent_in_paired_low_noise_rounds():
    rng = __import__("numpy").random.default_rng(1)
    common = rng.normal(10, 1.0, 20)  # the round's contention, shared by both arms
    a = common * rng.normal(1, 0.01, 20)
    b = common * 1.05 * rng.normal(1, 0.01, 20)
    p = stats_calibration.power(a, b, rounds=10, delta=0.02)
    assert p["drawn"] == "subsample" and p["power"] >= 0.8
    assert p["observed"]["verdict"] == "worse"


def test_power_of_no_effect_is_low():
    rng = __import__("numpy").random.default_rng(2)
    common = rng.normal(10, 1.0, 20)
    a, b = common * rng.normal(1, 0.01, 20), common * rng.normal(1, 0.01, 20)
    assert stats_calibration.power(a, b, rounds=10, delta=0.02)["power"] <= 0.05


def test_power_of_a_short_run_bootstraps_it_and_says_so():
    p = stats_calibration.power([10, 11, 12, 10.5], [11, 12, 13, 11.5], rounds=10, delta=0.02)
    assert p["drawn"] == "bootstrap" and any("with replacement" in w for w in p["warnings"])


def test_the_copy_of_the_file_is_not_changed_by_host():
    e = wallet()
    before = copy.deepcopy(e["variants"])
    interleave.host(e, plant="1ms")
    assert e["variants"] == before


def test_the_leakage_check_adds_an_app_per_variant_serving_its_arm_alone():
    one, before, after = interleave.hosts(wallet(), leakage=True)
    assert one["arm_labels"] == {"before": "before", "after": "after"}
    assert before["label"] == "before (alone)" and before["arm_labels"] == {"before": "before (alone)"}
    # the same app (both arms, as the app needs two), its load sending every request to the one arm
    assert "--perflab.lab.interleave.arms=before,after" in before["args"] and before["env"]["ARMS"] == "before"
    assert after["args"] == one["args"] and after["env"]["ARMS"] == "after"
    assert [h["label"] for h in interleave.hosts(wallet())] == ["interleaved"]

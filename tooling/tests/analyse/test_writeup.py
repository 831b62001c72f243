"""The write-up beside perflab (tooling/perflab/analyse/writeup.py) and a variant compared against another (`against`), from results
built as the runner builds them (real statistics, synthetic runs)."""
import math

import pytest

from perflab.analyse import comparison
from perflab.render import html_page
from perflab.render import report
from perflab.render import report_sections
from perflab.render import report_views
from perflab.analyse import writeup


def test_each_stage_sets_perflabs_median_beside_the_write_ups_figure_with_both_ratios_to_the_first_stage(build):
    t = writeup.table(build.three_stage_experiment(), build.three_stage_runs())
    p95 = {r["stage"]: r for r in t["rows"] if r["metric"] == "p95"}
    assert t["baseline_stage"] == "(1) naive"
    assert (p95["(2) batched"]["writeup"], p95["(2) batched"]["perflab"]) == (103, 38.0)
    assert math.isclose(p95["(2) batched"]["writeup_ratio"], 103 / 1966)
    assert math.isclose(p95["(2) batched"]["perflab_ratio"], 38.0 / 412.0)
    mean = {r["stage"]: r for r in t["rows"] if r["metric"] == "mean"}
    assert mean["(1) naive"]["perflab"] == 206.0 and mean["(1) naive"]["unit"] == "ms"  # mean is the runs' avg
    seconds = next(r for r in t["rows"] if r["metric"] == "connection time (s)")
    assert math.isclose(seconds["perflab"], 1.0) and seconds["unit"] == "ms"  # seconds, shown in the write-up's ms
    assert math.isnan(seconds["writeup_ratio"])  # the first stage gives no such figure: no ratio


def test_direction_agrees_when_every_later_stage_moves_the_same_way_on_both_sides(build):
    e = build.three_stage_experiment()
    del e["variants"][2]["against"]  # every stage against the first
    e["writeup"][2]["figures"]["p95"] = 2500  # the write-up's stage 3 is slower than its first; perflab's is not
    t = writeup.table(e, build.three_stage_runs())
    by_metric = {d["metric"]: d for d in t["directions"]}
    assert by_metric["mean"]["agrees"] is True
    assert by_metric["p95"]["agrees"] is False
    assert by_metric["p95"]["stages"][1] == {"stage": "(3) cached", "writeup": "higher", "perflab": "lower"}


def test_no_writeup_of_a_variant_that_ran_gives_no_section(build):
    assert writeup.table(build.experiment(), build.three_stage_runs()) is None
    e = build.three_stage_experiment()
    assert writeup.table(e, [r for r in build.three_stage_runs() if r["variant"] == "B-side"])["baseline_stage"] == "(2) batched"


def test_the_report_shows_the_write_up_beside_perflab_and_each_direction(build):
    r = build.three_stage_result()
    md = report.markdown(r)
    assert "### The write-up beside perflab" in md
    # C-side is set against B-side: its ratios are to that stage, and a column names it
    assert "| stage | variant | metric | write-up | perflab (median) | set against | write-up / that stage | perflab / that stage |" in md
    assert "| (2) batched | B-side | p95 | 103 ms | 38.0 ms | (1) | 0.052× | 0.092× |" in md
    assert "| (3) cached | C-side | p95 | 90 ms | 40.5 ms | (2) | 0.87× | 1.07× |" in md
    assert "- direction agrees at every stage: mean" in md
    assert "- sources: seed.md, 1단계; seed.md, 2단계; seed.md, 3단계" in md
    assert "The write-up beside perflab" in html_page.html(r) and "The write-up beside perflab" in report.text(r)


def test_an_aa_report_leaves_the_write_up_out_its_twin_is_no_stage(build):
    r = build.three_stage_result()
    assert report_sections.writeup_section(r, r["cells"][0]) is not None
    r["calibration"] = [{"profile": "localhost", "metric": "p95"}]  # what an A/A's result carries
    assert report_sections.writeup_section(r, r["cells"][0]) is None


def test_a_variant_with_against_is_compared_with_that_variant_and_the_report_says_so(build):
    r = build.three_stage_result()
    c = {c["candidate"]: c for c in r["cells"][0]["comparisons"]}
    assert c["B-side"]["baseline"] == "A-side" and c["C-side"]["baseline"] == "B-side"
    assert c["C-side"]["primary"]["verdict"] == "worse"  # 40.x ms against B-side's 38 ms
    md = report.markdown(r)
    assert "- C-side against B-side: p95 (ms)" in md and "- B-side against A-side: p95 (ms)" in md


def test_against_a_variant_that_did_not_run_falls_back_to_the_baseline(build):
    e = build.three_stage_experiment()
    e["variants"] = [e["variants"][0], e["variants"][2]]  # --variant A-side --variant C-side
    assert comparison.reference(e, e["variants"][1]) == "A-side"


def test_a_control_against_another_variant_is_reported_not_claimed(build):
    r = build.three_stage_result()
    r["experiment"]["variants"][2]["expect"] = "any"
    r["verdict"] = comparison.overall(r["experiment"], r["cells"], False, None)
    assert r["verdict"]["ok"]  # C-side is worse than B-side, but a control
    assert "C-side: worse" in report.headline(r) and "a control, no claim" in report.headline(r)


def test_a_shape_metric_in_ms_is_given_in_ms_and_a_ratio_without_a_unit():
    assert [writeup.unit(k) for k in ("idle_first_ms", "first_ms", "mean", "first_over_second", "tps")] == ["ms", "ms", "ms", "", "/s"]


def test_the_docs_can_embed_the_write_up_beside_perflab_and_a_ramps_stages(build):
    table = report_views.view(build.three_stage_result(), "writeup")
    assert table.startswith("| stage | variant | metric | write-up | perflab (median) |")
    assert "\n- direction agrees at every stage: mean" in table and "./perflab ab x" in table
    assert "| A-side | 100 | 1,000 |" in report_views.view(build.ramp_result(), "ramp")
    with pytest.raises(SystemExit, match="no cell has this section"):
        report_views.view(build.ramp_result(), "writeup")


def test_a_stage_differs_when_a_figure_is_over_twice_off_and_carries_its_files_reason(build):
    e = build.three_stage_experiment()
    e["writeup"][2]["why"] = "the cache stage here reads twice"
    t = writeup.table(e, build.three_stage_runs())
    differ = {d["stage"]: d for d in t["differ"]}
    # the first stage by value: p95 412 ms against 1,966 ms is 4.8x off
    assert "p95" in differ["(1) naive"]["metrics"] and differ["(1) naive"]["why"] is None
    # a later stage by its ratio to the first: p95 38/412 = 0.092x against 103/1966 = 0.052x is 1.8x: the same shape
    assert "(2) batched" not in differ or "p95" not in differ["(2) batched"]["metrics"]
    # (3), set against (2): 40.55/38 = 1.07x against 90/103 = 0.87x, within 2x but the other way
    assert differ["(3) cached"]["metrics"] == ["p95"] and differ["(3) cached"]["why"] == "the cache stage here reads twice"


def test_a_stage_that_moves_the_other_way_differs_even_within_twice():
    e_rows = [{"stage": "(1)", "over": "(1)", "metric": "p95", "writeup": 100, "perflab": 100, "writeup_ratio": 1.0, "perflab_ratio": 1.0, "why": None},
              {"stage": "(2)", "over": "(1)", "metric": "p95", "writeup": 90, "perflab": 110, "writeup_ratio": 0.9, "perflab_ratio": 1.1, "why": "x"}]
    directions = [{"metric": "p95", "agrees": False, "stages": [{"stage": "(2)", "writeup": "lower", "perflab": "higher"}]}]
    assert writeup.differing(e_rows, directions) == [{"stage": "(2)", "metrics": ["p95"], "why": "x"}]
    assert writeup.differing(e_rows, []) == []


@pytest.mark.parametrize("perflab, written, far", [(2.01, 1.0, True), (1.0, 2.01, True), (1.99, 1.0, False),
                                                    (math.nan, 1.0, False), (0.0, 1.0, False)])
def test_far_apart_is_over_twice_either_way_and_never_for_an_unknown(perflab, written, far):
    assert writeup.far_apart(perflab, written) is far


def test_the_report_gives_each_differing_stage_its_reason_or_says_none_is_given(build):
    r = build.three_stage_result()
    r["experiment"]["writeup"][0]["why"] = "the lab's machine is slower"
    md = report.markdown(r)
    assert "- (1) naive differs in p95" in md and ": the lab's machine is slower" in md
    assert "- (3) cached differs in p95: no reason given yet ([[writeup]] why)" in md
    view = report_views.case_study_markdown(r)
    assert "- (3) cached differs in p95: no reason given yet" in view

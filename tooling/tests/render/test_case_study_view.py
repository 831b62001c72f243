"""The `case-study` view (docs/case-studies.md): the write-up's figures as it wrote them beside perflab's medians, a
row per stage, each later stage with its ratio to the stage it is set against (else the first) on both sides, and which figures move the same way."""
import copy

from perflab.render import report_views


def lines(result):
    return report_views.view(result, "case-study").splitlines()


def test_each_stage_is_a_row_of_the_write_ups_figures_as_written_beside_perflabs_with_ratios_after_the_first(build):
    r = build.three_stage_result()
    del r["experiment"]["variants"][2]["against"]  # every stage against the first
    r["experiment"]["writeup"][1]["figures"]["mean"] = 22.21
    out = lines(r)
    assert out[0] == "| stage | section | write-up | perflab (median) |"
    # one unit per stage: said once, at the end; the file named short is left out of the section
    assert out[2] == "| (1) naive | seed.md, 1단계 | p95 1,966, mean 498 ms | p95 412.0, mean 206.0 ms |"
    # 22.21 stays 22.21 (never 22.2): the page quotes only figures the write-up contains
    assert out[3] == "| (2) batched | seed.md, 2단계 | p95 103 (0.052×), mean 22.21 (0.045×) ms | p95 38.0 (0.092×), mean 19.0 (0.092×) ms |"
    # a figure the first stage lacks has no ratio
    assert out[4] == "| (3) cached | seed.md, 3단계 | p95 90 (0.046×), connection time 2.0 ms | p95 40.5 (0.098×), connection time 1 ms |"
    assert "Against (1) naive, perflab moves the write-up's way in p95, mean." in out
    assert out[-1].startswith("<sub>./perflab ab x · commit abc")


def test_one_section_for_every_stage_goes_to_the_head_and_a_figure_against_the_write_up_is_named(build):
    r = build.three_stage_result()
    del r["experiment"]["variants"][2]["against"]
    for w in r["experiment"]["writeup"]:
        w["source"] = "004_1edb7b5a2d9a318e.txt, 최종 결과 (final result)"
    r["experiment"]["writeup"][1]["figures"]["mean"] = 900  # the write-up's mean rose; perflab's fell
    out = lines(r)
    assert out[0] == "| stage | write-up: 최종 결과 (final result) | perflab (median) |"
    assert out[3].startswith("| (2) batched | p95 103 (0.052×), mean 900 (1.81×) ms |")
    assert "Against (1) naive, perflab moves the write-up's way in p95; not in mean ((2) batched: write-up higher, perflab lower)." in out


def test_a_stage_set_against_another_gives_its_ratio_to_that_stage_and_names_it(build):
    out = lines(build.three_stage_result())  # C-side is set against B-side, as route-stages' fastjson2 against Jackson
    assert out[3] == "| (2) batched | seed.md, 2단계 | p95 103 (0.052× over (1)), mean 60 (0.12× over (1)) ms | p95 38.0 (0.092× over (1)), mean 19.0 (0.092× over (1)) ms |"
    assert out[4] == "| (3) cached | seed.md, 3단계 | p95 90 (0.87× over (2)), connection time 2.0 ms | p95 40.5 (1.07× over (2)), connection time 1 ms |"
    assert "Stage over stage, perflab moves the write-up's way in mean; not in p95 ((3) cached: write-up lower, perflab higher)." in out
    assert "- (3) cached differs in p95: no reason given yet ([[writeup]] why)" in out


def test_several_cells_are_titled_and_a_result_without_writeup_says_so(build):
    r = build.three_stage_result()
    other = copy.deepcopy(r["cells"][0])
    other["network"] = "cross-zone: db 1 ms each way"
    r["cells"].append(other)
    text = report_views.view(r, "case-study")
    assert "**localhost**" in text and "**cross-zone: db 1 ms each way**" in text and text.count("| stage | section |") == 2
    del r["experiment"]["writeup"]
    bare = report_views.view(r, "case-study")
    assert bare.startswith("No write-up figures in this result") and "|" not in bare.split("<sub>")[0]

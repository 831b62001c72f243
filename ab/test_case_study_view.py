"""The `case-study` view (docs/case-studies.md): the write-up's figures as it wrote them beside perflab's medians, per
stage, each later stage with its ratio to the first on both sides, and which figures move the same way."""
import math

import report


def row(stage, metric, writeup, perflab, writeup_ratio=math.nan, perflab_ratio=math.nan, unit="ms"):
    return {"stage": stage, "variant": stage, "source": "004_1edb7b5a2d9a318e.txt, 최종 결과 (final result)",
            "metric": metric, "unit": unit, "writeup": writeup, "perflab": perflab,
            "writeup_ratio": writeup_ratio, "perflab_ratio": perflab_ratio}


def result(cells):
    return {"experiment": {"name": "wallet"}, "cells": cells, "command": "./perflab ab wallet --publish wallet", "machine": {"commit": "abc"},
            "started": "t"}


def wallet_cell(network="localhost"):
    return {"network": network, "runs": [], "writeup": {
        "baseline_stage": "(1) naive",
        "rows": [row("(1) naive", "mean", 498, 61.04), row("(1) naive", "p95", 1966, 250.0),
                 row("(2) optimized", "mean", 22.21, 70.0, 22.21 / 498, 70.0 / 61.04),
                 row("(2) optimized", "p95", 103, 30.0, 103 / 1966, 0.12)],
        "directions": [{"metric": "p95", "agrees": True, "stages": [{"stage": "(2) optimized", "writeup": "lower", "perflab": "lower"}]},
                       {"metric": "mean", "agrees": False, "stages": [{"stage": "(2) optimized", "writeup": "lower", "perflab": "higher"}]}]}}


def test_each_stage_holds_the_write_ups_figures_as_written_beside_perflabs_with_ratios_after_the_first():
    lines = report.view(result([wallet_cell()]), "case-study").splitlines()
    # one section for every stage: said once, in the head; one unit per stage: said once, at the end
    assert lines[0] == "| stage | write-up: 최종 결과 (final result) | perflab (median) |"
    assert lines[2] == "| (1) naive | mean 498, p95 1,966 ms | mean 61.0, p95 250.0 ms |"
    # 22.21 stays 22.21 (never 22.2): the page quotes only figures the write-up contains
    assert lines[3] == "| (2) optimized | mean 22.21 (×0.045), p95 103 (×0.052) ms | mean 70.0 (×1.15), p95 30.0 (×0.12) ms |"
    assert ("Against (1) naive, perflab moves the write-up's way in p95; not in mean ((2) optimized: write-up lower, "
            "perflab higher).") in lines
    assert lines[-1].startswith("<sub>./perflab ab wallet --publish wallet · commit abc")


def test_stages_from_different_sections_name_theirs_and_mixed_units_stay_with_their_figures():
    cell = wallet_cell()
    cell["writeup"]["rows"][2]["source"] = "004, 중간 결과 (interim result)"  # the file named short
    cell["writeup"]["rows"][3] = row("(2) optimized", "tps", 1000, 98.5, 1.0, 1.01, unit="/s")
    lines = report.view(result([cell]), "case-study").splitlines()
    assert lines[0] == "| stage | section | write-up | perflab (median) |"
    assert lines[3] == ("| (2) optimized | 중간 결과 (interim result) | mean 22.21 ms (×0.045), throughput 1,000 /s (×1.00) | "
                        "mean 70.0 ms (×1.15), throughput 98.5 /s (×1.01) |")


def test_several_cells_are_titled_and_a_result_without_writeup_says_so():
    text = report.view(result([wallet_cell(), wallet_cell("cross-zone")]), "case-study")
    assert "**localhost**" in text and "**cross-zone**" in text and text.count("| stage | write-up: ") == 2
    bare = report.view(result([{"network": "localhost", "runs": []}]), "case-study")
    assert bare.startswith("No write-up figures in this result") and "|" not in bare.split("<sub>")[0]


def test_an_error_rate_reads_as_a_percentage_on_both_sides():
    assert report.writeup_figure("error_rate", 0.0001, "", None, True) == "errors 0.01%"
    assert report.writeup_figure("error_rate", 0.0027, "", 0.5) == "errors 0.27% (×0.50)"

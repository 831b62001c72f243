"""What a capacity search says the app served at the rate that held: every scenario's requests, not setup()'s."""
import math

from perflab.measure import k6io
from perflab.analyse import comparison
from perflab.render import report
from perflab.render import report_views
from perflab.measure import procedures

HEAD = ("metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto,scenario,"
        "service,status,subproto,tls_version,url,extra_tags,metadata\n")


def sample(metric, value, scenario, group=""):
    return f"{metric},1795517542,{value},,,,true,{group},POST,transfer,HTTP/1.1,{scenario},,201,,,u,,\n"


def test_served_counts_every_scenarios_successful_requests_and_leaves_setup_and_failures_out(tmp_path):
    csv = tmp_path / "k6.csv"
    lines = [sample("http_req_failed", 0, "", "::setup"), sample("http_req_duration", 3.5, "", "::setup")]
    lines += [sample("http_req_failed", 0, "transfer") for _ in range(10)]
    lines += [sample("http_req_duration", 2.0, "transfer") for _ in range(10)]
    lines += [sample("http_req_failed", 0, "reverse_pairs") for _ in range(2)]
    lines += [sample("http_req_failed", 1, "reverse_pairs"), sample("dropped_iterations", 1, "transfer")]
    csv.write_text(HEAD + "".join(lines))
    assert k6io.served(csv) == 12
    assert k6io.served([csv, csv]) == 24  # a segmented run's CSVs are one run


def test_a_search_reports_what_was_served_at_the_rate_that_held_not_at_the_one_that_broke():
    steps = [{"rate": 50, "served": 55.0, "held": True}, {"rate": 100, "served": 108.0, "held": False},
             {"rate": 80, "served": 88.0, "held": True}, {"rate": 90, "served": 95.0, "held": False}]
    assert procedures.served_at(steps, 80) == 88.0
    assert procedures.served_at([{"rate": 50, "served": 20.0, "held": False}], 0.0) == 0.0


def test_served_is_compared_and_tabled_and_an_older_search_without_it_shows_a_dash(build):
    e = build.capacity_experiment()
    runs = []
    for i in range(1, 4):
        runs.append(dict(build.search("A-side", i, 400 + i, 410 + i), served=440.0 + i))
        runs.append(dict(build.search("B-side", i, 700 + i, 710 + i), served=770.0 + i))
    [compared] = comparison.compare(e, runs, 0.03)
    served = next(r for r in compared["rows"] if r["metric"] == "served")
    assert served["verdict"] == "better" and math.isclose(served["ratio"], 772.0 / 442.0, rel_tol=0.01)
    runs.append(build.search("B-side", 4, 690, 700))  # stored before the runner measured it
    result = {"experiment": e, "command": "./perflab ab x", "started": "t", "machine": {"commit": "c"},
              "cells": [{"network": "localhost", "profile": "localhost", "runs": runs, "comparisons": [compared]}]}
    table = report_views.view(result, "capacity")
    assert "| A-side | 401, 402, 403 | 411, 412, 413 | 441, 442, 443 |" in table
    assert "| B-side | 690, 701, 702, 703 | 700, 711, 712, 713 | –, 771, 772, 773 |" in table
    assert "capacity (/s) 401.0, served at capacity (/s) 441.0" in report.run_line(runs[0])

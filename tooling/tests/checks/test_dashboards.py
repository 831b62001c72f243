"""The provisioned Grafana dashboards (grafana/dashboards/*.json), without a Grafana: each is valid JSON with a unique
uid, panels with unique ids, a title and the provisioned Prometheus datasource, and PromQL that keeps the variants
apart; each case study has its dashboard with a panel saying what should move; provisioning finds them in compose.
And the rules tooling/perflab/checks/promql_check.py applies to the expressions CI's smoke cannot give data. The schema (every field
Grafana knows, by panel type), known panel types and every panel's description: stack/dashboard-check.sh."""
import json
import pathlib
import re

import pytest

from perflab.checks import promql_check

from perflab.paths import ROOT
DASHBOARDS = sorted((ROOT / "grafana" / "dashboards").glob("*.json"))
# each case study (docs/case-studies.md) and the uid of its dashboard
CASE_STUDIES = {"004 wallet": "perflab-case-wallet", "001 routes": "perflab-case-routes",
                "003 login": "perflab-case-login", "002 slow dependency": "perflab-case-slow-dependency",
                "000 cold start": "perflab-case-cold-start"}
DATASOURCE = {"type": "prometheus", "uid": "prometheus"}


def load(path):
    return json.loads(path.read_text())


def by_uid():
    return {load(p)["uid"]: load(p) for p in DASHBOARDS}


@pytest.mark.parametrize("path", DASHBOARDS, ids=lambda p: p.name)
def test_a_dashboard_is_json_with_panels_grafana_can_place(path):
    dashboard = load(path)  # a broken file fails here
    assert {"uid", "title", "schemaVersion", "panels", "templating"} <= dashboard.keys()
    ids = [p["id"] for p in dashboard["panels"]]
    assert len(ids) == len(set(ids)), f"{path.name}: panel ids repeat"
    for panel in dashboard["panels"]:
        assert panel.get("title"), f"{path.name}: panel {panel['id']} needs a title"
        assert {"x", "y", "w", "h"} <= panel["gridPos"].keys() and panel["gridPos"]["x"] + panel["gridPos"]["w"] <= 24
        if panel["type"] == "text":
            assert panel["options"]["content"].strip()
            continue
        assert panel["datasource"] == DATASOURCE, f"{path.name}: panel {panel['id']} reads another datasource"
        refs = [t["refId"] for t in panel["targets"]]
        assert refs and len(refs) == len(set(refs)) and all(t["expr"].strip() for t in panel["targets"])


def test_dashboard_uids_are_unique():
    uids = [load(p)["uid"] for p in DASHBOARDS]
    assert len(uids) == len(set(uids))


def test_the_datasource_the_panels_name_is_the_provisioned_one():
    provisioned = (ROOT / "grafana" / "provisioning" / "datasources" / "prometheus.yml").read_text()
    assert re.search(r"^\s*uid: prometheus$", provisioned, re.M) and re.search(r"^\s*type: prometheus$", provisioned, re.M)


def test_compose_mounts_the_folder_the_provisioning_reads():
    provider = (ROOT / "grafana" / "provisioning" / "dashboards" / "perflab.yml").read_text()
    folder = re.search(r"^\s*path: (\S+)$", provider, re.M).group(1)
    compose = (ROOT / "docker-compose.yml").read_text()
    assert f"./grafana/dashboards:{folder}:ro" in compose and "./grafana/provisioning:/etc/grafana/provisioning:ro" in compose


@pytest.mark.parametrize("case, uid", CASE_STUDIES.items())
def test_each_case_study_has_its_dashboard_saying_what_should_move(case, uid):
    dashboard = by_uid().get(uid)
    assert dashboard, f"case study {case}: no dashboard {uid} in grafana/dashboards/"
    assert case.split()[0] in dashboard["title"]
    texts = [p for p in dashboard["panels"] if p["type"] == "text"]
    assert texts and "should move" in texts[0]["title"].lower() + texts[0]["options"]["content"].lower()
    assert [v["name"] for v in dashboard["templating"]["list"]] == ["variant"]
    assert len([p for p in dashboard["panels"] if p["type"] != "text"]) >= 6


@pytest.mark.parametrize("uid", CASE_STUDIES.values())
def test_case_study_queries_overlay_the_variants(uid):
    """Every selector filters on the dashboard's variants, and every aggregation keeps the variant apart."""
    for panel in by_uid()[uid]["panels"]:
        for target in panel.get("targets", []):
            expr = target["expr"]
            selectors = re.findall(r"\{([^}]*)\}", expr)
            assert selectors and all('variant=~"$variant"' in s for s in selectors), expr
            assert all("variant" in by for by in re.findall(r"\bby \(([^)]*)\)", expr)), expr
            assert "{{variant}}" in target["legendFormat"], expr


# ---- tooling/perflab/checks/promql_check.py ----

def test_metric_names_are_the_selected_ones():
    expr = 'sum by (le, variant) (rate(a_seconds_bucket{variant=~"$variant"}[1m])) / sum(rate(b_total{x="1"}[1m]))'
    assert promql_check.metric_names(expr) == ["a_seconds_bucket", "b_total"]


def test_an_expression_needs_what_the_smoke_does_not_run():
    assert promql_check.needs('rate(cache_gets_total{variant=~"$variant"}[1m])').startswith("perflab.wallet.cache=redis")
    assert promql_check.needs('rate(http_server_requests_seconds_count{uri=~"/api/lab/dependency.*"}[1m])') == "k6/lab-dependency.js"
    assert promql_check.needs('rate(http_server_requests_seconds_count{uri="/api/auth/login"}[1m])') is None


def test_a_prometheus_name_belongs_to_a_declared_meter_only_with_a_meter_suffix():
    meters = {"perflab_route_phase", "perflab_login_http_requests"}
    assert promql_check.declared("perflab_route_phase_seconds_bucket", meters)
    assert promql_check.declared("perflab_login_http_requests_total", meters)
    assert not promql_check.declared("perflab_route_phases_seconds_sum", meters)
    assert not promql_check.declared("perflab_route_phase_bytes", meters)


def test_the_apps_meters_are_read_from_its_sources():
    meters = promql_check.declared_meters()
    assert {"perflab_wallet_transfer_statements", "perflab_route_codec", "perflab_login_guard_calls"} <= meters


@pytest.mark.parametrize("state, need, unknown, require_all, expected", [
    ("data", None, [], False, "ok  "),
    ("error", "x", [], False, "FAIL"),          # a parse error fails whatever it needs
    ("empty", None, [], False, "FAIL"),         # what the smoke gives must have data
    ("empty", "x", [], False, "skip"),
    ("empty", "x", ["typo_total"], False, "FAIL"),  # a metric nobody exports is a typo, not a missing variant
    ("empty", "x", [], True, "FAIL"),
])
def test_the_verdict_on_one_expression(state, need, unknown, require_all, expected):
    assert promql_check.verdict(state, 0, need, unknown, require_all)[1] == expected


def test_every_metric_a_dashboard_names_exists_somewhere_promql_check_can_prove():
    """The app's own meters must be declared in src/main/java; a library's meter in an expression the smoke cannot
    fill must be in LIBRARY_METERS or in an expression CI fills (where a typo fails for want of data)."""
    meters = promql_check.declared_meters()
    filled = {n for _, e in promql_check.expressions() if promql_check.needs(e) is None for n in promql_check.metric_names(e)}
    for name, expr in promql_check.expressions():
        for metric in promql_check.metric_names(expr):
            if metric.startswith("perflab_"):
                assert promql_check.declared(metric, meters), f"{name}: {metric} is no meter of src/main/java"
            elif promql_check.needs(expr):
                assert metric in promql_check.LIBRARY_METERS | filled, f"{name}: {metric} is never checked for data"

from perflab.measure import prom

TEXT = """# HELP perflab_login_http_requests_total Calls to the auth API
# TYPE perflab_login_http_requests_total counter
perflab_login_http_requests_total{outcome="ok",variant="a"} 7.0
perflab_login_http_requests_total{outcome="error",variant="a"} 2.0
# HELP hikaricp_connections_pending Pending threads
# TYPE hikaricp_connections_pending gauge
hikaricp_connections_pending{pool="perflab"} 3.0
# TYPE perflab_variant_info gauge
perflab_variant_info{feature="login",knob="client",value="pooled"} 1.0
perflab_variant_info{feature="server",knob="threads",value="virtual"} 1.0
"""


def test_totals_sum_the_series_that_match_the_labels():
    samples = prom.parse(TEXT)
    assert prom.total(samples, "perflab_login_http_requests_total") == 9.0
    assert prom.total(samples, "perflab_login_http_requests_total", {"outcome": "ok"}) == 7.0
    assert prom.total(samples, "perflab_login_http_requests_total", {"outcome": "nope"}) == 0.0
    assert prom.total(samples, "hikaricp_connections_pending") == 3.0


def test_knobs_come_from_the_variant_info_series():
    assert prom.knobs(prom.parse(TEXT)) == ["login.client=pooled", "server.threads=virtual"]

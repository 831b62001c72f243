"""Network profiles: the Toxiproxy toxics a profile's link becomes (the runner adds and removes the same ones)."""
import network


def test_a_half_millisecond_mean_is_one_ms_with_one_ms_of_jitter_both_ways():
    toxics = network.profile_toxics({"latency_ms": 0.5})
    assert [t["name"] for t in toxics] == ["latency_upstream", "latency_downstream"]
    assert {t["stream"] for t in toxics} == {"upstream", "downstream"}
    assert all(t["attributes"] == {"latency": 1, "jitter": 1} for t in toxics)


def test_bandwidth_limits_the_downstream_only_and_no_delay_adds_no_latency_toxic():
    toxics = network.profile_toxics({"bandwidth_kbps": 1000})
    assert toxics == [{"name": "bandwidth", "type": "bandwidth", "stream": "downstream", "attributes": {"rate": 1000}}]
    assert network.profile_toxics({}) == []

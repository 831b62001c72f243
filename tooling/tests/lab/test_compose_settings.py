"""compose/'s override files: the same settings as experiments/machine.toml and network.toml, and what each holds."""
import json

from perflab.lab import compose_settings
from perflab.lab import machine
from perflab.lab import network


def test_committed_files_match_the_tables():
    assert compose_settings.main(["--check"]) == 0


def test_every_limiting_machine_profile_has_a_file_with_its_cpus():
    files = compose_settings.files()
    for name, table in machine.profiles().items():
        profile = machine.parse(name, table)
        text = files.get(f"machine-{name}.yml")
        if profile["app"]["cpus"] is None:
            assert text is None
            continue
        assert f"    cpus: {profile['app']['cpus']:g}\n" in text
        if profile["mariadb"]["cpus"] is not None:
            assert text.endswith(f"  mariadb:\n    cpus: {profile['mariadb']['cpus']:g}\n")


def test_memory_flags_replace_the_heap_preset_and_set_the_memory_limit():
    text = compose_settings.machine_file({"app": {"cpus": 0.5, "jvm": ["-XX:ActiveProcessorCount=2", "-Xmx256m",
                                                                       "-XX:MaxRAM=768m"]},
                                          "mariadb": {"cpus": None}})
    assert 'PERFLAB_HEAP: "-Xmx256m -XX:MaxRAM=768m"' in text
    assert 'PERFLAB_JVM_OPTS: "-XX:ActiveProcessorCount=2"' in text
    assert "mem_limit: 768m" in text
    assert "mariadb" not in text


def test_a_profile_that_limits_nothing_has_no_file():
    assert compose_settings.machine_file({"app": {"cpus": None, "jvm": []}, "mariadb": {"cpus": None}}) is None
    assert compose_settings.network_file({}) is None
    assert compose_settings.network_file({"auth": {"latency_ms": 10}}) is None


def test_network_file_routes_the_app_through_the_proxies_with_the_runners_toxics():
    text = compose_settings.network_file({"db": {"latency_ms": 0.5}})
    assert "PERFLAB_DB_HOST: toxiproxy" in text and 'PERFLAB_DB_PORT: "13306"' in text
    assert "REDIS" not in text
    encoded = text.split("PERFLAB_DB_TOXICS: ", 1)[1].splitlines()[0]
    toxics = [json.loads(line) for line in json.loads(encoded).splitlines()]
    assert toxics == network.profile_toxics({"latency_ms": 0.5})
    assert toxics[0]["attributes"] == {"latency": 1, "jitter": 1}


def test_proxy_ports_come_from_compose_toxiproxy_config():
    assert compose_settings.proxy_ports()["redis"] == "16379"

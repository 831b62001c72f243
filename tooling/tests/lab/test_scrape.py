"""tooling/perflab/lab/scrape.py: a running variant as a Prometheus file_sd target, and gone when it stops."""
import json

from perflab.lab import scrape


def test_a_variant_is_a_target_while_it_runs_and_not_after(tmp_path, monkeypatch):
    monkeypatch.setenv(scrape.ENV, str(tmp_path / "ab-targets"))
    assert scrape.register("ab-8091", "perflab-ab-8091:8080")
    written = json.loads((tmp_path / "ab-targets" / "ab-8091.json").read_text())
    assert written == [{"targets": ["perflab-ab-8091:8080"], "labels": {"app_instance": "ab-8091"}}]
    assert [p.name for p in (tmp_path / "ab-targets").iterdir()] == ["ab-8091.json"]  # no partial file left
    scrape.unregister("ab-8091")
    scrape.unregister("ab-8091")  # twice: no error
    assert not (tmp_path / "ab-targets" / "ab-8091.json").exists()


def test_without_a_folder_it_can_write_the_run_goes_on_unscraped(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv(scrape.ENV, str(blocker / "ab-targets"))  # under a file: cannot be made
    assert not scrape.register("ab-8091", "127.0.0.1:8091")
    scrape.unregister("ab-8091")
    monkeypatch.delenv(scrape.ENV)
    monkeypatch.setattr(scrape, "native_folder", lambda: None)
    assert scrape.folder() is None and not scrape.register("ab-8091", "127.0.0.1:8091")


def test_both_labs_prometheus_read_the_folder_the_runner_writes():
    from perflab.paths import ROOT
    assert '"/etc/prometheus/ab-targets/*.json"' in (ROOT / "prometheus" / "prometheus.yml").read_text()
    assert '"__AB_TARGETS__/*.json"' in (ROOT / "prometheus" / "prometheus-native.yml").read_text()
    assert 's|__AB_TARGETS__|$RUN/ab-targets|' in (ROOT / "stack" / "native.sh").read_text()
    assert scrape.native_folder() is None or scrape.native_folder().name == "ab-targets"

"""What the compose lab costs (tooling/perflab/checks/compose_resources.py), read from docker's output as
stack/docker/compose-ci.sh captures it: samples in tooling/tests/testdata/compose_lab, no Docker needed."""
import datetime
import json

import pytest

from perflab.checks import compose_resources as costs
from perflab.paths import ROOT

CAPTURE = ROOT / "tooling" / "tests" / "testdata" / "compose_lab"
STARTED = datetime.datetime(2026, 11, 29, 10, 40, tzinfo=datetime.timezone.utc)
PUBLISHED = ROOT / "docs" / "results" / "compose-lab"
MIB = 2**20


@pytest.fixture
def result():
    return costs.document(CAPTURE, STARTED, "0123456789abcdef", "2026-11-29T10:40:00+00:00")


@pytest.mark.parametrize("text, expected", [("301.5MiB", round(301.5 * MIB)), ("1.25GiB", round(1.25 * 2**30)),
                                            ("0B", 0), ("2.915GB", 2_915_000_000), ("512kB", 512_000), (" 48MiB ", 48 * MIB)])
def test_docker_sizes_read_as_bytes_binary_and_decimal(text, expected):
    assert costs.bytes_of(text) == expected


@pytest.mark.parametrize("text", ["12 parsecs", "", "MiB", "1.2XB"])
def test_a_size_docker_does_not_print_is_refused(text):
    with pytest.raises(ValueError, match="not a size"):
        costs.bytes_of(text)


@pytest.mark.parametrize("name, service", [("perflab-app-1", "app"), ("perflab-toxiproxy-config-1", "toxiproxy-config"),
                                           ("perflab-k6-run-3f2a1b4c5d6e", "k6"), ("perflab_mariadb_1", "mariadb"),
                                           ("someone-else", None), ("perflab-app", None)])
def test_a_container_s_service_comes_from_compose_s_naming(name, service):
    assert costs.service_of(name) == service


def test_docker_timestamps_keep_their_nanoseconds_to_the_microsecond():
    assert costs.moment("2026-11-29T10:45:01.123456789Z") == datetime.datetime(
        2026, 11, 29, 10, 45, 1, 123456, tzinfo=datetime.timezone.utc)
    assert costs.moment("2026-11-20T08:00:00Z").tzinfo is not None


def test_peak_memory_is_each_service_s_largest_sample_largest_first_others_and_stopping_ones_left_out(result):
    assert result["memory_peak_bytes"] == {"mariadb": round(1.25 * 2**30), "app": 712 * MIB, "seed": round(301.5 * MIB),
                                           "k6": round(48.2 * MIB), "secrets": 0}
    assert result["memory_samples"] == 8
    assert result["memory_peak_sum_bytes"] == sum(result["memory_peak_bytes"].values())


def test_the_memory_to_give_is_the_sum_with_headroom_up_to_a_whole_gib():
    assert costs.memory_to_give({"app": 700 * MIB, "mariadb": 600 * MIB}) == 2 * 2**30  # 1.9 GiB
    assert costs.memory_to_give({"app": 1024 * MIB}) == 2 * 2**30  # 1.5 GiB


def test_the_seed_lasts_from_its_start_to_its_finish_and_not_at_all_while_it_runs(result):
    assert result["seed_seconds"] == 122.9
    running = [{"State": {"StartedAt": "2026-11-29T10:45:01Z", "FinishedAt": "0001-01-01T00:00:00Z"}}]
    assert costs.container_seconds(running) is None
    assert costs.container_seconds([]) is None and result["seed_next_seconds"] is None  # no seed-next.json here


def test_an_image_created_after_the_run_started_was_built_by_it(result):
    assert [(i["name"], i["bytes"], i["built_during_run"]) for i in result["images"]] == [
        ("mariadb:11.4", 402_000_000, False), ("perflab-app:latest", 655_000_000, True)]
    assert result["cache"] == {"images_present_before_run": ["mariadb:11.4", "redis:7-alpine"],
                               "app_images_present_before_run": []}


def test_the_disk_counts_every_layer_once_the_volumes_and_writes_of_the_project_s_containers_and_the_build_cache(result):
    """An anonymous volume (MariaDB's image VOLUME) counts by the container that mounts it, not by a label."""
    assert result["disk"] == {"images_bytes": 2_915_000_000, "volumes_bytes": 612_004_096,
                              "volumes": {"mariadb:/var/lib/mysql": 612_000_000, "perflab-secrets": 4096},
                              "containers_bytes": 322_080_977, "build_cache_bytes": 402_100_000,
                              "total_bytes": 2_915_000_000 + 612_004_096 + 322_080_977 + 402_100_000}
    assert result["system_df"][0] == {"type": "Images", "total": "14", "active": "9", "size": "2.915GB",
                                      "reclaimable": "1.02GB (35%)", "size_bytes": 2_915_000_000}


def test_the_first_up_adds_the_build_without_cache_and_the_next_up_is_its_own_phase(result):
    assert (result["first_up_seconds"], result["next_up_seconds"]) == (150 + 140, 40)
    assert [p["name"] for p in result["phases"]][:3] == ["engine", "compose plugin", "stand-in images"]


def test_a_capture_without_the_publish_phases_says_so_and_leaves_them_out(tmp_path):
    (tmp_path / "phases.jsonl").write_text('{"name": "compose up --wait --build", "seconds": 95}\n')
    result = costs.document(tmp_path, STARTED, "0123456789abcdef", "2026-11-29T10:40:00+00:00")
    assert (result["first_up_seconds"], result["next_up_seconds"], result["disk"]) == (95, None, {})
    assert "first `up` of a fresh project" in costs.view(result, "time")
    assert result["memory_to_give_bytes"] is None and "no samples" in costs.summary(result)


def test_the_views_are_tables_with_the_source_line_and_an_unknown_view_is_refused(result):
    memory = costs.view(result, "memory")
    assert "| `mariadb` | 1.2 GiB |" in memory and "| to give Docker (the sum × 1.5, up to a whole GiB) | 4.0 GiB |" in memory
    assert "| first `up`: app images built (no cache), then started with the data sets loaded | 4.8 min |" in costs.view(result, "time")
    assert "| together | 4.0 GiB |" in costs.view(result, "disk")
    assert all(costs.view(result, v).endswith("on stand-ins built here from Debian packages (stack/docker/standins.sh), "
                                              "not Docker Hub.\n") for v in costs.VIEWS)
    with pytest.raises(ValueError, match="views time, memory, disk"):
        costs.view(result, None)


def test_the_result_records_no_path_of_the_machine(result):
    text = json.dumps(result)
    assert "/var/lib/docker" not in text and str(ROOT) not in text


def test_main_writes_the_result_and_its_report(tmp_path, capsys):
    assert costs.main(["--capture", str(CAPTURE), "--started", str(int(STARTED.timestamp())), "--out", str(tmp_path),
                       "--commit", "0123456789abcdef"]) == 0
    written = json.loads((tmp_path / "result.json").read_text())
    assert written["kind"] == "compose-lab" and written["date"] == "2026-11-29T10:40:00+00:00"
    assert (tmp_path / "REPORT.md").read_text() == costs.report_markdown(written)
    assert "peak memory: mariadb 1.2 GiB, app 712 MiB" in capsys.readouterr().out



def test_a_docs_block_naming_a_compose_lab_result_renders_its_view(tmp_path, monkeypatch, result):
    from perflab.render import publishing
    from perflab.results import store
    monkeypatch.setattr(store, "PUBLISHED", tmp_path)
    costs.write(result, tmp_path / "compose-lab")
    assert publishing.render_block("compose-lab", "disk") == costs.view(result, "disk")


def test_the_committed_report_is_what_its_result_renders():
    result = json.loads((PUBLISHED / "result.json").read_text())
    assert costs.is_compose_lab(result)
    assert (PUBLISHED / "REPORT.md").read_text() == costs.report_markdown(result), (
        "docs/results/compose-lab/REPORT.md: ./perflab python -m perflab.checks.compose_resources rewrites it "
        "from a capture")

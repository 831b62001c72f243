"""The A/B runner's variants as Prometheus targets, so that Grafana's dashboards show each variant's own meters while
a run measures: while a variant's app runs, a file_sd target file names it (FOLDER/<instance>.json: its address and
its app_instance label), which the lab's Prometheus reads into its `perflab` job (prometheus/prometheus.yml,
prometheus/prometheus-native.yml); the file goes when the app stops.

The folder: PERFLAB_SCRAPE_TARGETS (compose's runner: the volume it shares with compose's Prometheus), else the
native stack's run directory's ab-targets (stack/native.sh makes it and points its Prometheus there). Without a
folder nothing is written: the run goes on, its variants unscraped.
"""
import functools
import json
import os
import pathlib
import subprocess

from perflab.lab import labenv

ENV = "PERFLAB_SCRAPE_TARGETS"


@functools.cache
def native_folder() -> pathlib.Path | None:
    """The native stack's ab-targets folder (beside its run files), or None when stack/native.sh cannot say."""
    try:
        return labenv.native_run_dir() / "ab-targets"
    except (OSError, subprocess.CalledProcessError):  # no native stack script to ask: no folder
        return None


def folder() -> pathlib.Path | None:
    given = os.environ.get(ENV)
    return pathlib.Path(given) if given else native_folder()


def target_file(instance: str) -> pathlib.Path | None:
    where = folder()
    return None if where is None else where / f"{instance}.json"


def register(instance: str, address: str) -> bool:
    """The app `instance` at `address` (host:port) becomes a target (written whole, then renamed: Prometheus never
    reads half a file); whether it was written."""
    path = target_file(instance)
    if path is None:
        return False
    entry = [{"targets": [address], "labels": {"app_instance": instance}}]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f".{path.name}.partial")
        partial.write_text(json.dumps(entry) + "\n")
        partial.replace(path)
    except OSError:
        return False
    return True


def unregister(instance: str) -> None:
    """The app `instance` is no longer a target (nothing to do when it was not one)."""
    path = target_file(instance)
    if path is not None:
        try:
            path.unlink(missing_ok=True)
        except OSError:
            pass

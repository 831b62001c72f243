"""What the compose lab costs, from what stack/docker/compose-ci.sh captured of a run (docker's own JSON output, into a
capture folder): each phase's seconds, whether the project's images were built before the run (the image cache), the
seed service's duration, each service's peak memory while the lab ran and k6 loaded it, and the disk its images,
volumes and build cache take. Prints it; with --out, writes result.json and REPORT.md there
(docs/results/compose-lab: `PERFLAB_COMPOSE_PUBLISH=docs/results/compose-lab stack/docker/compose-ci.sh`), whose
figures docs/docker.md shows in blocks that `./perflab ab --tables` regenerates (render/publishing.py).

./perflab python -m perflab.checks.compose_resources --capture DIR --started EPOCH [--out DIR] [--commit SHA]
"""
import argparse
import datetime
import json
import math
import pathlib
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from perflab.lab import labenv, refs
from perflab.render import report

KIND = "compose-lab"
VERSION = 1
PROJECT = "perflab"  # docker-compose.yml's name: containers are perflab-<service>-<n> or perflab-<service>-run-<id>
HEADROOM = 1.5       # the memory to give Docker: the sum of the services' peaks times this, up to a whole GiB
GIB = 2**30
COMMAND = "PERFLAB_COMPOSE_PUBLISH=docs/results/compose-lab stack/docker/compose-ci.sh"
NO_CACHE_BUILD = "app images built, no cache"
FIRST_UP = "compose up --wait --build"
NEXT_UP = "next up --wait (volumes kept)"
UNITS = {"B": 1, "kB": 10**3, "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12,
         "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}
SIZE = re.compile(r"^\s*([0-9.]+)\s*([A-Za-z]+)\s*$")
FRACTION = re.compile(r"(\.\d{6})\d+")  # docker's nanoseconds: Python reads six digits
Document = dict[str, Any]


# ---- docker's output, one reader per file of the capture ----

def json_lines(path: pathlib.Path) -> list[Any]:
    """The JSON values of a file written one per line (`--format '{{json .}}'`); [] when it is missing."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def json_file(path: pathlib.Path) -> Any:
    """The JSON value of a file (`docker inspect`, the Engine API); None when it is missing or empty."""
    if not path.exists() or not path.read_text().strip():
        return None
    return json.loads(path.read_text())


def bytes_of(size: str) -> int:
    """Docker's human sizes as bytes: `512.5MiB` (stats, binary), `1.2GB`, `0B` (df, decimal)."""
    match = SIZE.match(size)
    if not match or match.group(2) not in UNITS:
        raise ValueError(f"not a size docker prints: {size!r}")
    return round(float(match.group(1)) * UNITS[match.group(2)])


def moment(text: str) -> datetime.datetime:
    """A timestamp as docker prints it (RFC 3339, nanoseconds, `Z`)."""
    return datetime.datetime.fromisoformat(FRACTION.sub(r"\1", text).replace("Z", "+00:00"))


def service_of(container: str, project: str = PROJECT) -> str | None:
    """The compose service of a container's name (perflab-app-1, perflab-k6-run-1a2b3c4d5e6f); None for another's."""
    match = re.match(rf"^{re.escape(project)}[-_](?P<service>.+?)(?:[-_]run[-_][0-9a-f]+|[-_]\d+)$", container)
    return match.group("service") if match else None


# ---- the figures ----

def phases(records: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The phases the script timed, in their order ({"name", "seconds"} lines)."""
    return [{"name": str(r["name"]), "seconds": int(r["seconds"])} for r in records]


def phase_seconds(timed: Sequence[Mapping[str, Any]], name: str) -> int | None:
    return next((int(p["seconds"]) for p in timed if p["name"] == name), None)


def peak_memory(samples: Iterable[Mapping[str, Any]], project: str = PROJECT) -> dict[str, int]:
    """Each service's largest memory use over the `docker stats` samples, in bytes, largest first (a container
    stopping reads `-- / --`: no sample)."""
    peaks: dict[str, int] = {}
    for sample in samples:
        service = service_of(str(sample["Name"]), project)
        used = str(sample["MemUsage"]).split("/")[0]
        if service is not None and SIZE.match(used):
            peaks[service] = max(peaks.get(service, 0), bytes_of(used))
    return dict(sorted(peaks.items(), key=lambda item: (-item[1], item[0])))


def memory_to_give(peaks: Mapping[str, int]) -> int:
    """Bytes of memory to give Docker: the sum of the peaks with HEADROOM, rounded up to a whole GiB."""
    return math.ceil(sum(peaks.values()) * HEADROOM / GIB) * GIB


def container_seconds(inspected: Sequence[Mapping[str, Any]] | None) -> float | None:
    """Seconds from a one-shot container's start to its finish (`docker inspect`); None when it has not finished."""
    if not inspected:
        return None
    state = inspected[0]["State"]
    started, finished = moment(state["StartedAt"]), moment(state["FinishedAt"])
    return round((finished - started).total_seconds(), 1) if finished > started else None


def images(inspected: Sequence[Mapping[str, Any]] | None, started: datetime.datetime) -> list[dict[str, Any]]:
    """Each image of the project (`docker image inspect`, an image named twice once): its name, size, creation
    time and whether this run built it (created after the run started)."""
    unique = {image["Id"]: image for image in inspected or []}.values()
    return [{"name": (image.get("RepoTags") or [image["Id"][:19]])[0], "bytes": int(image["Size"]),
             "created": str(image["Created"]), "built_during_run": moment(str(image["Created"])) >= started}
            for image in unique]


def cache(before: Sequence[Mapping[str, Any]] | None, project: str = PROJECT) -> dict[str, Any]:
    """The image cache as the run found it: which of the compose file's images existed before anything was built
    (the project's own builds, app and seed, are `<project>-<service>`)."""
    names = sorted({(image.get("RepoTags") or [""])[0] for image in before or []})
    own = [n for n in names if n.startswith(f"{project}-")]
    return {"images_present_before_run": names, "app_images_present_before_run": own}


def project_containers(engine_df: Mapping[str, Any], project: str = PROJECT) -> list[Mapping[str, Any]]:
    return [c for c in engine_df.get("Containers") or []
            if (c.get("Labels") or {}).get("com.docker.compose.project") == project]


def project_volumes(engine_df: Mapping[str, Any], project: str = PROJECT) -> dict[str, int]:
    """Bytes of each volume the project's containers mount: a named one by its compose name, an anonymous one (an
    image's VOLUME, e.g. MariaDB's /var/lib/mysql) as service:path."""
    sizes = {v["Name"]: int(v["UsageData"]["Size"]) for v in engine_df.get("Volumes") or []}
    named = {v["Name"]: v["Labels"]["com.docker.compose.volume"] for v in engine_df.get("Volumes") or []
             if "com.docker.compose.volume" in (v.get("Labels") or {})}
    found: dict[str, int] = {}
    for container in project_containers(engine_df, project):
        service = container["Labels"].get("com.docker.compose.service", "?")
        for mount in container.get("Mounts") or []:
            if mount.get("Type") == "volume" and mount.get("Name") in sizes:
                found[named.get(mount["Name"], f"{service}:{mount['Destination']}")] = sizes[mount["Name"]]
    return dict(sorted(found.items()))


def disk(engine_df: Mapping[str, Any] | None, project: str = PROJECT) -> dict[str, Any]:
    """Bytes on the engine's disk (the Engine API's /system/df, what `docker system df` reads): every image's
    layers (shared ones once), the volumes and writable layers of the project's containers, the build cache."""
    if not engine_df:
        return {}
    volumes = project_volumes(engine_df, project)
    layers = int(engine_df.get("LayersSize", 0))
    written = sum(int(c.get("SizeRw") or 0) for c in project_containers(engine_df, project))
    cached = sum(int(c.get("Size", 0)) for c in engine_df.get("BuildCache") or [])
    return {"images_bytes": layers, "volumes_bytes": sum(volumes.values()), "volumes": volumes,
            "containers_bytes": written, "build_cache_bytes": cached,
            "total_bytes": layers + sum(volumes.values()) + written + cached}


def system_df(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """`docker system df --format '{{json .}}'` as docker printed it, with the size in bytes."""
    return [{"type": r["Type"], "total": r["TotalCount"], "active": r["Active"], "size": r["Size"],
             "reclaimable": r["Reclaimable"], "size_bytes": bytes_of(str(r["Size"]))} for r in rows]


def document(capture: pathlib.Path, started: datetime.datetime, commit: str, date: str) -> Document:
    """result.json from a capture folder (what compose-ci.sh wrote: phases.jsonl, stats.jsonl, images-before.json,
    images.json, seed.json, seed-next.json, system-df.jsonl, engine-df.json)."""
    timed = phases(json_lines(capture / "phases.jsonl"))
    samples = json_lines(capture / "stats.jsonl")
    peaks = peak_memory(samples)
    build, up, next_up = (phase_seconds(timed, n) for n in (NO_CACHE_BUILD, FIRST_UP, NEXT_UP))
    return {
        "kind": KIND, "version": VERSION, "commit": commit, "date": date, "machine": labenv.machine(), "command": COMMAND,
        "images_from": "stand-ins built here from Debian packages (stack/docker/standins.sh), not Docker Hub",
        "phases": timed,
        "first_up_seconds": None if up is None else up + (build or 0),
        "next_up_seconds": next_up,
        "seed_seconds": container_seconds(json_file(capture / "seed.json")),
        "seed_next_seconds": container_seconds(json_file(capture / "seed-next.json")),
        "cache": cache(json_file(capture / "images-before.json")),
        "images": images(json_file(capture / "images.json"), started),
        "memory_samples": len(samples),
        "memory_peak_bytes": peaks,
        "memory_peak_sum_bytes": sum(peaks.values()),
        "memory_to_give_bytes": memory_to_give(peaks) if peaks else None,
        "disk": disk(json_file(capture / "engine-df.json")),
        "system_df": system_df(json_lines(capture / "system-df.jsonl")),
    }


# ---- rendering: the summary, REPORT.md and docs/docker.md's blocks ----

def size(value: int | None) -> str:
    if value is None:
        return "–"
    return f"{value / GIB:.1f} GiB" if value >= GIB else f"{value / 2**20:.0f} MiB"


def duration(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:.0f} s" if value < 120 else f"{value / 60:.1f} min"


def time_view(result: Mapping[str, Any], full: bool = True) -> list[str]:
    """The first and the next `up`, with their seed; in REPORT.md (full) every phase the script timed too."""
    built = [i["name"] for i in result["images"] if i["built_during_run"]]
    built_first = any(p["name"] == NO_CACHE_BUILD for p in result["phases"])
    first = ("first `up`: app images built (no cache), then started with the data sets loaded" if built_first
             else "first `up` of a fresh project: started with the data sets loaded")
    rows = [(first, duration(result["first_up_seconds"])),
            ("of which the seed service (migrations and data sets)", duration(result["seed_seconds"])),
            ("next `up`, after `docker compose down` (no `-v`): images built, a new database",
             duration(result["next_up_seconds"])),
            ("of which the seed service (loads the data sets again)", duration(result["seed_next_seconds"]))]
    rows += [(f"phase: {p['name']}", duration(p["seconds"])) for p in result["phases"] if full]
    return [report.md_table(("step", "time"), rows), "",
            f"Built during the run: {', '.join(f'`{n}`' for n in built) or 'none'}; present before it: "
            f"{', '.join(f'`{n}`' for n in result['cache']['images_present_before_run']) or 'none'}."]


def memory_view(result: Mapping[str, Any], full: bool = True) -> list[str]:
    rows = [(f"`{service}`", size(peak)) for service, peak in result["memory_peak_bytes"].items()]
    rows += [("all services together", size(result["memory_peak_sum_bytes"])),
             (f"to give Docker (the sum × {HEADROOM:g}, up to a whole GiB)", size(result["memory_to_give_bytes"]))]
    return [report.md_table(("service", "peak memory"), rows), "",
            f"From {result['memory_samples']} `docker stats` samples, from `up` to the end of the k6 loads."]


def disk_view(result: Mapping[str, Any], full: bool = True) -> list[str]:
    """The engine's disk by kind; in REPORT.md (full) each image's too."""
    used = result["disk"]
    rows = [("images (every layer once)", size(used.get("images_bytes"))),
            ("the project's volumes (MariaDB's data sets, Prometheus' metrics)", size(used.get("volumes_bytes"))),
            ("the containers' own writes", size(used.get("containers_bytes"))),
            ("build cache", size(used.get("build_cache_bytes"))),
            ("together", size(used.get("total_bytes")))]
    rows += [(f"image `{i['name']}` (with the layers it shares)", size(i["bytes"])) for i in result["images"] if full]
    return [report.md_table(("what", "disk"), rows)]


VIEWS = {"time": time_view, "memory": memory_view, "disk": disk_view}


def source_line(result: Mapping[str, Any]) -> str:
    cores = result["machine"].get("cores")
    return (f"Measured by `{result['command']}` at commit {result['commit'][:12]}, {result['date']}, {cores} cores, "
            f"on {result['images_from']}.")


def view(result: Mapping[str, Any], name: str | None) -> str:
    """A docs block's body (`<!-- results:compose-lab view=time|memory|disk -->`): the summary rows (each phase and
    image are in REPORT.md)."""
    if name not in VIEWS:
        raise ValueError(f"compose-lab has the views {', '.join(VIEWS)}, not {name!r}")
    return "\n".join([*VIEWS[name](result, False), "", source_line(result)]) + "\n"


def report_markdown(result: Mapping[str, Any]) -> str:
    sections = [("Time", time_view), ("Memory", memory_view), ("Disk", disk_view)]
    lines = ["# compose-lab: what the Docker lab costs", "", source_line(result), ""]
    for title, render in sections:
        lines += [f"## {title}", "", *render(result), ""]
    return "\n".join(lines)


def is_compose_lab(result: Mapping[str, Any]) -> bool:
    return result.get("kind") == KIND


def summary(result: Mapping[str, Any]) -> str:
    """The figures in a few lines, for the CI log."""
    peaks = ", ".join(f"{s} {size(b)}" for s, b in result["memory_peak_bytes"].items())
    return "\n".join([f"first up {duration(result['first_up_seconds'])}, seed {duration(result['seed_seconds'])}, "
                      f"next up {duration(result['next_up_seconds'])}",
                      f"peak memory: {peaks or 'no samples'}; together {size(result['memory_peak_sum_bytes'])}",
                      f"disk: {', '.join(f'{k} {size(v)}' for k, v in result['disk'].items() if k.endswith('_bytes'))}"])


def write(result: Document, out: pathlib.Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "result.json").write_text(json.dumps(result, indent=1) + "\n")
    (out / "REPORT.md").write_text(report_markdown(result))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--capture", type=pathlib.Path, required=True, help="the folder compose-ci.sh captured into")
    parser.add_argument("--started", type=int, required=True, help="the run's start (seconds since the epoch)")
    parser.add_argument("--out", type=pathlib.Path, help="write result.json and REPORT.md there")
    parser.add_argument("--commit", help="the commit measured (default: HEAD)")
    args = parser.parse_args(argv)
    started = datetime.datetime.fromtimestamp(args.started, datetime.timezone.utc)
    result = document(args.capture, started, args.commit or refs.resolve("HEAD").sha, started.isoformat(timespec="seconds"))
    print(summary(result))
    if args.out:
        write(result, args.out)
        print(f"wrote {args.out / 'result.json'} and REPORT.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

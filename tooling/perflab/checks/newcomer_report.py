"""The newcomer check's results (tooling/perflab/checks/newcomer.py): the first insight and the exit code from the steps' records,
whether a stated duration agrees with a measurement, docs/results/newcomer/result.json (an --only run merged into
the committed one) and its REPORT.md."""
import datetime
import json
import pathlib
from typing import Any

from perflab.checks.newcomer_steps import FIRST_INSIGHT_PAGE, README, WALKTHROUGHS
from perflab.lab import labenv
from perflab.paths import ROOT

RESULT_DIR = ROOT / "docs" / "results" / "newcomer"
VERSION = 1
FIRST_INSIGHT_LIMIT = 600
NEWCOMER_PATH = "/usr/local/bin:/usr/bin:/bin"
Record = dict[str, Any]    # a step's or a one-time install's record, as result.json holds it
Document = dict[str, Any]  # result.json: the run, its machine, its one-time installs and its steps' records


def first_insight(records: list[Record]) -> float | None:
    """Seconds from the README's first timed step's start to the wallet walkthrough's last step's end; None unless
    both pages ran and every one of those steps passed."""
    readme = [r for r in records if r["page"] == README and r["timed"]]
    wallet = [r for r in records if r["page"] == FIRST_INSIGHT_PAGE]
    if not readme or not wallet or not all(r["passed"] for r in readme + wallet):
        return None
    started: float = readme[0]["started"]
    ended: float = wallet[-1]["ended"]
    return round(ended - started, 1)


def exit_code(records: list[Record], insight: float | None, needs_insight: bool) -> int:
    """1 when a step failed or was skipped, or when the first insight (if this run measures it) was not reached or
    took longer than FIRST_INSIGHT_LIMIT; else 0."""
    if not all(r["passed"] for r in records):
        return 1
    if needs_insight and (insight is None or insight > FIRST_INSIGHT_LIMIT):
        return 1
    return 0


def consistent(stated: float, measured: float) -> bool:
    """A stated duration agrees with a measurement: measured <= 1.5 x stated and stated <= 3 x measured + 30 s."""
    return measured <= 1.5 * stated and stated <= 3 * measured + 30


def fmt_seconds(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:.0f} s" if value < 120 else f"{value / 60:.1f} min"


def result_document(commit: str, one_time: list[Record], records: list[Record], insight: float | None,
                    data: list[str], only: str | None = None, date: str | None = None) -> Document:
    document: Document = {
        "version": VERSION,
        "commit": commit,
        "date": date or datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "machine": labenv.machine(),
        "path": NEWCOMER_PATH,
        "one_time_seconds": round(sum(r["measured_seconds"] for r in one_time), 1) if one_time else None,
        "first_insight_seconds": insight,
        "first_insight_limit_seconds": FIRST_INSIGHT_LIMIT,
        "data": data,
        "one_time": one_time,
        # started and ended: seconds since the README's first step began
        "steps": records,
    }
    if only:
        document["only"] = only
    return document


def merge_only(previous: Document | None, document: Document, page: str) -> Document:
    """--only PAGE: the committed result with that page's steps replaced by this run's; the rest kept as measured."""
    if not previous or previous.get("version") != VERSION:
        return document
    merged = dict(previous)
    kept = [s for s in previous["steps"] if s["page"] != page]
    order = [README] + WALKTHROUGHS
    rank = {p: i for i, p in enumerate(order)}
    merged["steps"] = sorted(kept + document["steps"], key=lambda s: rank.get(s["page"], len(order)))
    merged.setdefault("reruns", []).append({"page": page, "commit": document["commit"], "date": document["date"],
                                            "one_time_seconds": document["one_time_seconds"]})
    merged.pop("only", None)
    if page in (README, FIRST_INSIGHT_PAGE):
        merged["first_insight_seconds"] = first_insight_of_steps(merged["steps"])
    return merged


def merge_docker(previous: Document | None, document: Document) -> Document:
    """--docker: the committed result with this run as its Docker record (`docker`: the run's commit, date, one-time
    installs, data, steps and first insight); the native record kept as measured. Without a committed result of
    this version, the Docker record alone."""
    docker = {key: document[key] for key in ("commit", "date", "one_time_seconds", "first_insight_seconds", "data",
                                             "one_time", "steps")}
    if not previous or previous.get("version") != VERSION:
        return {**document, "steps": [], "one_time": [], "one_time_seconds": None, "first_insight_seconds": None,
                "data": [], "docker": docker}
    return {**previous, "docker": docker}


def docker_cell(docker: Document | None, step: Record) -> str | None:
    """The Docker column's cell of a native step: the Docker run's time for the same page and title (with what went
    wrong), '–' where it did not run; None without a Docker record."""
    if docker is None:
        return None
    for s in docker["steps"]:
        if s["page"] == step["page"] and s["title"] == step["title"]:
            if s.get("skipped"):
                return "skipped"
            if s.get("refused"):
                return "refused"
            if s["passed"]:
                return fmt_seconds(s["measured_seconds"])
            return f"{fmt_seconds(s['measured_seconds'])}, failed (exit {s['exit_code']}, line " \
                   f"{'found' if s['found'] else 'missing'})"
    return "–"


def docker_lines(docker: Document, limit: float) -> list[str]:
    """The header's lines on the Docker record."""
    insight = docker.get("first_insight_seconds")
    installs = ", ".join(f"{r['title']} {fmt_seconds(r['measured_seconds'])}" for r in docker.get("one_time", []))
    return [f"- on Docker (`./perflab newcomer --docker`: `./perflab up` takes docker compose, `./perflab ab` its "
            f"runner service): commit {docker['commit'][:12]}, {docker['date']}; first insight "
            + ("not reached" if insight is None else
               f"{fmt_seconds(insight)} ({'within' if insight <= limit else 'OVER'} the {limit} s limit)")
            + f"; one-time installs {fmt_seconds(docker.get('one_time_seconds'))} ({installs}); data: "
            + "; ".join(docker.get("data", []))]


def is_newcomer(result: dict[str, Any]) -> bool:
    """Whether a published result.json is the newcomer check's (a results block of the docs may show it)."""
    return "first_insight_limit_seconds" in result and "steps" in result


def docker_view(document: Document) -> str:
    """A results block (`<!-- results:newcomer view=docker -->`): the first insight's steps on Docker beside the
    same steps natively, then the first insight and the one-time installs of each, from the committed result."""
    docker = document.get("docker")
    if not docker:
        return "No Docker record yet: `./perflab newcomer --docker` on a machine with a Docker engine.\n"
    native = {(s["page"], s["title"]): s for s in document["steps"]}
    lines = ["| step | on Docker | natively |", "|---|---|---|"]
    for step in docker["steps"]:
        here = native.get((step["page"], step["title"]))
        lines.append(f"| {step['page']}: {step['title']} | {docker_cell(docker, step)} | "
                     f"{fmt_seconds(here['measured_seconds']) if here else '–'} |")
    lines.append(f"| **first insight** (README's first step to the wallet's last) | "
                 f"{fmt_seconds(docker.get('first_insight_seconds'))} | "
                 f"{fmt_seconds(document.get('first_insight_seconds'))} |")
    lines.append(f"| one-time installs (before the first step) | {fmt_seconds(docker.get('one_time_seconds'))} | "
                 f"{fmt_seconds(document.get('one_time_seconds'))} |")
    lines += ["", f"On Docker: commit {docker['commit'][:12]}, {docker['date']}; natively: commit "
                  f"{document['commit'][:12]}, {document['date']}."]
    return "\n".join(lines) + "\n"


def first_insight_of_steps(steps: list[Record]) -> float | None:
    """The first insight from steps measured in different runs (after --only): the sum of the README's timed steps
    and the wallet walkthrough's, None unless every one of them passed."""
    path = [s for s in steps if (s["page"] == README and s["timed"]) or s["page"] == FIRST_INSIGHT_PAGE]
    if not path or not all(s["passed"] for s in path):
        return None
    total: float = sum(s["measured_seconds"] for s in path)
    return round(total, 1)


def report_markdown(document: Document) -> str:
    """REPORT.md: the first insight and the one-time installs, then one table per page."""
    insight = document.get("first_insight_seconds")
    limit = document.get("first_insight_limit_seconds", FIRST_INSIGHT_LIMIT)
    lines = ["# Newcomer check", "",
             "A fresh clone followed the README's Quick start and each walkthrough's quick path literally "
             f"(`./perflab newcomer`), with PATH={document.get('path', NEWCOMER_PATH)}.", "",
             f"- commit {document['commit'][:12]}, {document['date']}, {document['machine'].get('cores')} cores",
             f"- one-time installs: {fmt_seconds(document.get('one_time_seconds'))}",
             "- first insight (README's first step to the wallet walkthrough's last): "
             + ("not reached" if insight is None else
                f"{fmt_seconds(insight)} ({'within' if insight <= limit else 'OVER'} the {limit} s limit)"),
             f"- data: {'; '.join(document['data']) if isinstance(document['data'], list) else document['data']}"]
    docker = document.get("docker")
    if docker:
        lines += docker_lines(docker, limit)
    for rerun in document.get("reruns", []):
        lines.append(f"- {rerun['page']} measured again: commit {rerun['commit'][:12]}, {rerun['date']}")
    if document.get("one_time"):
        lines += ["", "## One-time installs", "", "| step | command | measured | exit |", "|---|---|---|---|"]
        for r in document["one_time"]:
            lines.append(f"| {r['title']} | `{r['command']}` | {fmt_seconds(r['measured_seconds'])} | {r['exit_code']} |")
    pages = list(dict.fromkeys(s["page"] for s in document["steps"]))
    for page in pages:
        column = " on Docker |" if docker else ""
        lines += ["", f"## {page}", "", f"| step | stated | measured | expected line | exit |{column}",
                  "|---|---|---|---|---|" + ("---|" if docker else "")]
        for s in (s for s in document["steps"] if s["page"] == page):
            if s.get("skipped"):
                found = "skipped"
            elif s["found"]:
                found = "found"
            else:
                found = "missing: " + ", ".join(f"`{m}`" for m in s.get("missing", []))
            timed = "" if s.get("timed", True) else " (not timed)"
            lines.append(f"| {s['title']}{timed} | {fmt_seconds(s['stated_seconds'])} | "
                         f"{fmt_seconds(s['measured_seconds'])} | {found} | "
                         f"{'–' if s['exit_code'] is None else s['exit_code']} |"
                         + (f" {docker_cell(docker, s)} |" if docker else ""))
    failed = [s for s in document["steps"] if s.get("output_tail")]
    failed += [dict(s, page=f"{s['page']} on Docker") for s in (docker or {}).get("steps", [])
               if s.get("output_tail") and not s.get("refused")]
    refused = [s for s in (docker or {}).get("steps", []) if s.get("refused")]
    if refused:
        lines += ["", "## Refused on Docker", ""] + [f"- {s['page']}: {s['title']}: {s['refused']}" for s in refused]
    for s in failed:
        lines += ["", f"### {s['page']}: {s['title']}: the last lines", "", "```text", *s["output_tail"], "```"]
    return "\n".join(lines) + "\n"


def write_results(document: Document, directory: pathlib.Path = RESULT_DIR) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "result.json").write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n")
    (directory / "REPORT.md").write_text(report_markdown(document))

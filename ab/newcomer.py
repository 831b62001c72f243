"""The newcomer check (`./perflab newcomer [--keep] [--keep-data] [--only PAGE]`): a fresh clone of this checkout's
HEAD follows the README's Quick start and each walkthrough's quick path literally, on a Debian user's default PATH,
and records how long each step took and whether its expected line appeared.

The format it reads. In README.md under `## Quick start`, and in docs/walkthroughs/NAME.md under `## Quick path`, a
step is a `### ` heading ending in `— about N s` or `— about N min` (em dash; N may be decimal), then exactly one
fenced block with the info string `sh`, then (after blank lines only) a paragraph starting `Expect:` that holds one
or more `backticked` strings. The step passes when its block, run in one `bash -e` from the clone's root, exits 0
and every backticked string occurs in its combined stdout and stderr (an `…` inside a string stands for anything
on the same line: `app ready at … ms`). A README step whose heading carries `(not timed for the first insight)`
runs after the wallet walkthrough. Other `### ` headings in the section are prose, unless an `sh` block follows them.

The run: (1) clone HEAD into a temporary directory (the clone knows nothing outside itself);
(2) the environment of a new Debian user: PATH=/usr/local/bin:/usr/bin:/bin, HOME kept, LANG=C.UTF-8, no JAVA_HOME,
no CI, no PERFLAB_*; (3) the one-time installs, timed on their own (ONE_TIME); (4) the data sets dropped (DATABASES,
and the REDIS_PATTERNS keys in every Redis db), so that loading them counts; --keep-data skips that; (5) the
README's timed steps, the wallet walkthrough (the first insight: from the README's first step's start to the
wallet's last step's end), the README's other steps, the other walkthroughs; a page stops at its first failing
step; (6) docs/results/newcomer/result.json and REPORT.md; the clone's app stopped and the clone removed (--keep
keeps both). Exit 1 when a step failed or the first insight took more than FIRST_INSIGHT_LIMIT seconds.

It takes the machine's lab over: it drops the data sets, and the clone's stack restarts WireMock with the clone's
TLS key pair. Run it where nobody else uses the lab; the app's port must be free."""
import argparse
import dataclasses
import datetime
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import labenv
import labsecrets

ROOT = pathlib.Path(__file__).resolve().parent.parent
RESULT_DIR = ROOT / "docs" / "results" / "newcomer"
VERSION = 1
README = "README"
WALKTHROUGHS = ["wallet", "routes", "login", "slow-dependency", "cold-start"]
FIRST_INSIGHT_PAGE = "wallet"
FIRST_INSIGHT_LIMIT = 600
NOT_TIMED = "(not timed for the first insight)"
NEWCOMER_PATH = "/usr/local/bin:/usr/bin:/bin"
# what a login shell on Debian carries besides PATH, HOME and LANG; proxies are the machine's, not the user's
KEPT_ENV = ("USER", "LOGNAME", "SHELL", "TERM", "XDG_STATE_HOME", "http_proxy", "https_proxy", "no_proxy",
            "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY")
# the data sets' databases: the app's (wallet and route data sets), the wallet A/B's two, cold-start's (the wallet
# A/B's `after`, or PERFLAB_COLD_DB); the route experiment reads the app's
DATABASES = ["perflab", "perflab_wallet_before", "perflab_wallet_after"]
# the Redis keys the data sets leave: the wallet cache, the route cache, the PIN and login guards' counts
REDIS_PATTERNS = ["wallet:*", "route:*", "guess:*", "pin:*"]
REDIS_DBS = range(16)
TAIL_LINES = 20

DURATION = re.compile(r"\s+—\s+about\s+(\d+(?:\.\d+)?)\s*(s|min)\s*$")
LOOSE_DURATION = re.compile(r"about\s+\d+(?:\.\d+)?\s*(?:s|secs?|seconds?|mins?|minutes?)\s*$", re.I)
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)")
CODE_SPAN = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
STARTS_APP = re.compile(r"\./perflab\s+(?:up|app\s+(?:start|restart))\b")


class DocFormatError(Exception):
    """A page whose quick steps do not follow the format: the message names the page and the heading."""


@dataclasses.dataclass
class Step:
    page: str
    title: str
    command: str
    stated: float  # seconds
    expect: list
    timed: bool = True
    line: int = 0


# ---- reading the pages ----

def seconds(number, unit):
    return float(number) * (60 if unit == "min" else 1)


def section_lines(text, section):
    """(line number, line) of `## SECTION` up to the next heading of level 1 or 2, code blocks kept whole; None when
    the page has no such section."""
    lines = text.splitlines()
    fence, start = None, None
    for index, line in enumerate(lines):
        opener = FENCE.match(line)
        if fence:
            if opener and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence) and not opener.group(2):
                fence = None
            continue
        if opener:
            fence = opener.group(1)
            continue
        if re.match(r"^#{1,2}\s", line):
            if start is not None:
                return [(n + 1, lines[n]) for n in range(start, index)]
            if line.strip() == f"## {section}":
                start = index + 1
    return None if start is None else [(n + 1, lines[n]) for n in range(start, len(lines))]


def backticked(paragraph):
    """The code spans of a paragraph, as CommonMark reads them (one space trimmed each side of a padded span)."""
    spans = []
    for match in CODE_SPAN.finditer(paragraph):
        body = match.group(2)
        if len(body) > 2 and body.startswith(" ") and body.endswith(" ") and body.strip():
            body = body[1:-1]
        spans.append(body)
    return spans


def parse_steps(text, page, section):
    """The steps of `## SECTION` in a page, in order; DocFormatError naming the page and the heading when a step
    misses its duration, its one `sh` block or its Expect: line, or when the page has no step at all."""
    lines = section_lines(text, section)
    if lines is None:
        raise DocFormatError(f"{page}: no '## {section}' section")
    steps, current, stage, heading = [], None, None, None

    def fail(why):
        raise DocFormatError(f"{page}: step '{heading}': {why}")

    def close():
        if stage == "block":
            fail("no ```sh block after its heading")
        if stage == "expect":
            fail("no 'Expect:' line after its ```sh block (one or more `backticked` strings the output must hold)")

    i = 0
    while i < len(lines):
        number, line = lines[i]
        opener = FENCE.match(line)
        if line.startswith("### "):
            close()
            heading = line[4:].strip()
            bare = heading.replace(NOT_TIMED, " ").strip()
            duration = DURATION.search(bare)
            if duration:
                current = Step(page=page, title=re.sub(r"\s+", " ", bare[:duration.start()]).strip(), command="",
                               stated=seconds(*duration.groups()), expect=[], timed=NOT_TIMED not in heading,
                               line=number)
                stage = "block"
            else:
                if LOOSE_DURATION.search(bare):
                    fail("write its duration as ' — about N s' or ' — about N min', with an em dash")
                current, stage = None, "prose"
            i += 1
            continue
        if opener:
            info, body, i = opener.group(2), [], i + 1
            while i < len(lines):
                closer = FENCE.match(lines[i][1])
                if closer and closer.group(1)[0] == opener.group(1)[0] and len(closer.group(1)) >= len(opener.group(1)) \
                        and not closer.group(2):
                    break
                body.append(lines[i][1])
                i += 1
            else:
                raise DocFormatError(f"{page}: the code block at line {number} is not closed")
            i += 1
            if stage == "block":
                if info != "sh":
                    fail(f"its block must be ```sh (one bash -e from the clone's root), not ```{info}")
                assert current is not None  # stage "block" follows a step's heading
                current.command, stage = "\n".join(body).strip("\n"), "expect"
            elif stage == "expect":
                fail("more than one code block; a step has exactly one ```sh block")
            elif info == "sh" and stage == "done":
                fail("a second ```sh block after its Expect: line")
            elif info == "sh":
                raise DocFormatError(f"{page}: the ```sh block at line {number} belongs to no step: give it its own "
                                     "'### ' heading ending in ' — about N s'")
            continue
        if not line.strip():
            i += 1
            continue
        if stage == "expect":
            if not line.startswith("Expect:"):
                fail(f"the line after its ```sh block must start with 'Expect:', not {line.strip()[:60]!r}")
            paragraph = [line]
            i += 1
            while i < len(lines) and lines[i][1].strip() and not lines[i][1].startswith("#") \
                    and not FENCE.match(lines[i][1]):
                paragraph.append(lines[i][1])
                i += 1
            assert current is not None  # stage "expect" follows a step's block
            current.expect = backticked(" ".join(paragraph))
            if not current.expect:
                fail("its Expect: line holds no `backticked` string")
            steps.append(current)
            stage = "done"
            continue
        if stage == "block" and line.startswith("Expect:"):
            fail("an Expect: line before its ```sh block")
        i += 1
    close()
    if not steps:
        raise DocFormatError(f"{page}: '## {section}' holds no step (a '### ' heading ending in ' — about N s')")
    return steps


def page_files(root):
    """[(page, path, section)]: the README first, then the walkthroughs (WALKTHROUGHS' order, any other after)."""
    root = pathlib.Path(root)
    folder = root / "docs" / "walkthroughs"
    names = [n for n in WALKTHROUGHS if (folder / f"{n}.md").exists()]
    names += sorted(p.stem for p in folder.glob("*.md") if p.stem not in WALKTHROUGHS)
    return [(README, root / "README.md", "Quick start")] + [(n, folder / f"{n}.md", "Quick path") for n in names]


def load_pages(root, only=None):
    """{page: [Step]} in page_files' order; --only keeps one page."""
    pages = {}
    for page, path, section in page_files(root):
        if only and page != only:
            continue
        pages[page] = parse_steps(path.read_text(), page, section)
    if only and only not in pages:
        raise SystemExit(f"no page {only!r}; pages: {', '.join(p for p, _, _ in page_files(root))}")
    return pages


def plan(pages):
    """The order the steps run in: the README's timed steps, the wallet walkthrough (the first insight), the
    README's other steps, then every other walkthrough."""
    readme = pages.get(README, [])
    order = [s for s in readme if s.timed] + pages.get(FIRST_INSIGHT_PAGE, []) + [s for s in readme if not s.timed]
    for page, steps in pages.items():
        if page not in (README, FIRST_INSIGHT_PAGE):
            order += steps
    return order


# ---- judging a step ----

def clean_output(raw):
    """A step's output as lines a reader would see: ANSI colours removed, carriage returns as line breaks."""
    return ANSI.sub("", raw).replace("\r\n", "\n").replace("\r", "\n")


def occurs(expected, output):
    """Whether an expected string occurs in the output; an `…` in it stands for anything on the same line."""
    if expected in output:
        return True
    parts = [p.strip() for p in expected.split("…")]
    if len(parts) < 2:
        return False
    for line in output.splitlines():
        at = 0
        for part in parts:
            at = line.find(part, at)
            if at < 0:
                break
            at += len(part)
        else:
            return True
    return False


def missing(expect, output):
    """The expected strings the output lacks (empty: the step's expected lines appeared)."""
    return [e for e in expect if not occurs(e, output)]


def first_insight(records):
    """Seconds from the README's first timed step's start to the wallet walkthrough's last step's end; None unless
    both pages ran and every one of those steps passed."""
    readme = [r for r in records if r["page"] == README and r["timed"]]
    wallet = [r for r in records if r["page"] == FIRST_INSIGHT_PAGE]
    if not readme or not wallet or not all(r["passed"] for r in readme + wallet):
        return None
    return round(wallet[-1]["ended"] - readme[0]["started"], 1)


def exit_code(records, insight, needs_insight):
    """1 when a step failed or was skipped, or when the first insight (if this run measures it) was not reached or
    took longer than FIRST_INSIGHT_LIMIT; else 0."""
    if not all(r["passed"] for r in records):
        return 1
    if needs_insight and (insight is None or insight > FIRST_INSIGHT_LIMIT):
        return 1
    return 0


def consistent(stated, measured):
    """A stated duration agrees with a measurement: measured <= 1.5 x stated and stated <= 3 x measured + 30 s."""
    return measured <= 1.5 * stated and stated <= 3 * measured + 30


def step_timeout(stated):
    """How long a step may run before it is stopped: five times its stated duration, at least ten minutes."""
    return max(600.0, 5 * stated)


# ---- the environment and the lab ----

# set for the steps of a run: the README's `./perflab test` then skips the check that the committed result passed,
# since this run is the one that replaces it (and judges its own steps)
IN_RUN = "PERFLAB_NEWCOMER_RUN"


def newcomer_env(base, tmpdir):
    """A new Debian user's environment: the default PATH, HOME kept, LANG=C.UTF-8, no JAVA_HOME, no CI, no PERFLAB_*
    (only what a login shell carries, KEPT_ENV); TMPDIR is the run's own, so no cached seed files are found."""
    env = {"PATH": NEWCOMER_PATH, "HOME": base.get("HOME", str(pathlib.Path.home())), "LANG": "C.UTF-8",
           "TMPDIR": str(tmpdir), IN_RUN: "1"}
    env.update({k: base[k] for k in KEPT_ENV if k in base})
    return env


def find_jdk25():
    """The JDK 25 ./perflab finds for a user without JAVA_HOME (the entry script's lookup, PERFLAB_JDK), or None."""
    env = {k: v for k, v in os.environ.items() if k not in ("JAVA_HOME", "PERFLAB_JDK")}
    found = subprocess.run([str(ROOT / "perflab"), "python", "-c", "import os; print(os.environ['PERFLAB_JDK'])"],
                           env=env, capture_output=True, text=True)
    return found.stdout.strip() or None


def one_time_steps(docker, jdk):
    """(title, command) of what the lab installs once per machine or checkout, through its own entry points. The
    Python environment comes first: every ./perflab command runs in it, so the first one to run prepares it."""
    steps = [("the Python environment (.perflab/venv)", "./perflab python -c 'import sys; print(sys.prefix)'")]
    if not docker:
        steps.append(("system packages, the k6 and Toxiproxy builds, WireMock; the services started",
                      "./perflab stack up"))
    steps.append(("Maven, its plugins and the dependencies",
                  (f"JAVA_HOME={jdk} " if jdk else "") + "./mvnw -q -B dependency:go-offline"))
    return steps


REDIS_DELETE = """local deleted = 0
for _, pattern in ipairs(ARGV) do
  local cursor = "0"
  repeat
    local page = redis.call("SCAN", cursor, "MATCH", pattern, "COUNT", 1000)
    cursor = page[1]
    for _, key in ipairs(page[2]) do redis.call("DEL", key); deleted = deleted + 1 end
  until cursor == "0"
end
return deleted"""


def clone_secret(clone, name):
    """A secret of the clone's install (its stack/secrets.sh ran in the one-time steps, and its `stack up` gave the
    running MariaDB and Redis its passwords), or '' before it has one: the services are then this checkout's."""
    path = pathlib.Path(clone) / ".perflab" / "secrets" / name
    return path.read_text().strip() if path.is_file() else ""


def empty_data(clone, env, say):
    """Drop the data sets' databases and delete their Redis keys; returns what was done, one line each."""
    values = {**labenv.read_env(clone / ".env")}
    done = []
    databases = DATABASES + [values.get("PERFLAB_COLD_DB", "perflab_wallet_after")]
    databases = list(dict.fromkeys(databases))
    db_port = values.get("PERFLAB_DB_PORT", "3306")
    if labenv.port_open(db_port):
        sql = "".join(f"DROP DATABASE IF EXISTS `{name}`;" for name in databases)
        user = values.get("PERFLAB_DB_USER", "perflab")
        result = subprocess.run(["mariadb", "-h127.0.0.1", f"-P{db_port}", f"-u{user}", "-e", sql],
                                env={**env, "MYSQL_PWD": clone_secret(clone, "mariadb-password")
                                     or labenv.env("PERFLAB_DB_PASSWORD", "perflab")},
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise SystemExit(f"could not drop the data sets' databases: {result.stderr.strip()}")
        done.append(f"dropped the databases {', '.join(databases)}")
    else:
        raise SystemExit(f"MariaDB is not running on port {db_port}: the data sets cannot be dropped "
                         "(./perflab stack up mariadb, or --keep-data)")
    redis_port = values.get("PERFLAB_REDIS_PORT", "6379")
    if labenv.port_open(redis_port):
        password = clone_secret(clone, "spring.data.redis.password") or labsecrets.redis_password()
        redis_env = {**env, "REDISCLI_AUTH": password} if password else env
        deleted = 0
        for db in REDIS_DBS:
            result = subprocess.run(["redis-cli", "-h", "127.0.0.1", "-p", redis_port, "-n", str(db), "EVAL",
                                     REDIS_DELETE, "0", *REDIS_PATTERNS], env=redis_env, capture_output=True, text=True)
            count = re.fullmatch(r"(?:\(integer\) )?(\d+)", result.stdout.strip())
            if result.returncode != 0 or not count:
                raise SystemExit(f"could not delete the data sets' Redis keys in db {db}: "
                                 f"{(result.stderr or result.stdout).strip()}")
            deleted += int(count.group(1))
        done.append(f"deleted {deleted} Redis keys ({' '.join(REDIS_PATTERNS)}) in dbs 0-{max(REDIS_DBS)}")
    else:
        done.append("Redis is not running: it keeps no keys across a restart")
    for line in done:
        say(f"data: {line}")
    return done


# ---- running ----

def run_command(command, cwd, env, log, timeout):
    """Run a step's block in one `bash -e` from cwd, stdout and stderr into the log file; (exit code, seconds).
    A step still running after `timeout` seconds is stopped with its process group (exit code None)."""
    began = time.monotonic()
    with open(log, "wb") as out:
        proc = subprocess.Popen(["bash", "-e", "-c", command], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            code = proc.wait(timeout=timeout)
        except (subprocess.TimeoutExpired, KeyboardInterrupt) as stop:
            for sig, grace in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
                try:
                    os.killpg(proc.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    proc.wait(timeout=grace)
                    break
                except subprocess.TimeoutExpired:
                    continue
            if isinstance(stop, KeyboardInterrupt):
                raise
            code = None
    return code, time.monotonic() - began


def tail(text, lines=TAIL_LINES):
    return text.rstrip("\n").splitlines()[-lines:]


def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40]


def stop_clone_processes(clone, say):
    """Stop what the clone started and recorded in its .perflab/*.pid (its app instances, its load balancer), each
    by its pid, only when that process still runs from the clone."""
    for pid_file in sorted((clone / ".perflab").glob("*.pid")):
        try:
            pid = int(pid_file.read_text().strip())
            cmdline = pathlib.Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (ValueError, OSError):
            continue
        if str(clone) not in cmdline:
            continue
        os.kill(pid, signal.SIGTERM)
        for _ in range(300):
            if not pathlib.Path(f"/proc/{pid}").exists():
                break
            time.sleep(0.1)
        else:
            os.kill(pid, signal.SIGKILL)
        say(f"stopped the clone's {pid_file.stem} (pid {pid})")


def machine():
    info: dict[str, float | None] = {"cores": os.cpu_count()}
    try:
        info["memory_gb"] = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    except (ValueError, OSError):
        pass
    try:
        info["os"] = dict(re.findall(r'^(\w+)="?([^"\n]*)"?$', pathlib.Path("/etc/os-release").read_text(), re.M)) \
            .get("PRETTY_NAME", "")
    except OSError:
        pass
    return info


def fmt_seconds(value):
    if value is None:
        return "–"
    return f"{value:.0f} s" if value < 120 else f"{value / 60:.1f} min"


def progress_end(record):
    measured = f"{record['measured_seconds']:.0f} s"
    if record["exit_code"] is None:
        return f"{measured}, stopped: it ran longer than {step_timeout(record['stated_seconds']):.0f} s"
    if record["exit_code"] != 0:
        return f"{measured}, FAILED: exit code {record['exit_code']}" + (
            "" if record["found"] else f", expected line missing: {', '.join(record['missing'])}")
    if not record["found"]:
        return f"{measured}, FAILED: expected line missing: {', '.join(record['missing'])}"
    note = "" if consistent(record["stated_seconds"], record["measured_seconds"]) else \
        f" (the page says about {fmt_seconds(record['stated_seconds'])})"
    return f"{measured}, expected line found{note}"


def run_steps(steps, clone, env, logs, say, offset=0, total=None, clock=time.monotonic, t0=None):
    """Run the planned steps, a page stopping at its first failing step; one record each (skipped ones too)."""
    t0 = clock() if t0 is None else t0
    total = total or len(steps)
    records, failed_pages = [], set()
    for index, step in enumerate(steps, offset + 1):
        record = {"page": step.page, "title": step.title, "command": step.command, "stated_seconds": step.stated,
                  "timed": step.timed, "expected": step.expect}
        label = f"[{index}/{total}] {step.page}: {step.title}"
        if step.page in failed_pages:
            record.update(measured_seconds=None, found=False, missing=step.expect, exit_code=None, passed=False,
                          skipped=True, started=None, ended=None)
            say(f"{label} … skipped (an earlier step of {step.page} failed)")
            records.append(record)
            continue
        print(f"{label} …", end=" ", flush=True)
        log = logs / f"{index:02d}-{step.page}-{slug(step.title)}.log"
        started = clock() - t0
        code, took = run_command(step.command, clone, env, log, step_timeout(step.stated))
        output = clean_output(log.read_bytes().decode(errors="replace"))
        lost = missing(step.expect, output)
        record.update(measured_seconds=round(took, 1), found=not lost, missing=lost, exit_code=code,
                      passed=code == 0 and not lost, skipped=False, started=round(started, 1),
                      ended=round(started + took, 1))
        if not record["passed"]:
            record["output_tail"] = tail(output)
            failed_pages.add(step.page)
        print(progress_end(record), flush=True)
        records.append(record)
    return records


# ---- results ----

def result_document(commit, one_time, records, insight, data, only=None, date=None):
    document = {
        "version": VERSION,
        "commit": commit,
        "date": date or datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "machine": machine(),
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


def merge_only(previous, document, page):
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


def first_insight_of_steps(steps):
    """The first insight from steps measured in different runs (after --only): the sum of the README's timed steps
    and the wallet walkthrough's, None unless every one of them passed."""
    path = [s for s in steps if (s["page"] == README and s["timed"]) or s["page"] == FIRST_INSIGHT_PAGE]
    if not path or not all(s["passed"] for s in path):
        return None
    return round(sum(s["measured_seconds"] for s in path), 1)


def report_markdown(document):
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
    for rerun in document.get("reruns", []):
        lines.append(f"- {rerun['page']} measured again: commit {rerun['commit'][:12]}, {rerun['date']}")
    if document.get("one_time"):
        lines += ["", "## One-time installs", "", "| step | command | measured | exit |", "|---|---|---|---|"]
        for r in document["one_time"]:
            lines.append(f"| {r['title']} | `{r['command']}` | {fmt_seconds(r['measured_seconds'])} | {r['exit_code']} |")
    pages = list(dict.fromkeys(s["page"] for s in document["steps"]))
    for page in pages:
        lines += ["", f"## {page}", "", "| step | stated | measured | expected line | exit |", "|---|---|---|---|---|"]
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
                         f"{'–' if s['exit_code'] is None else s['exit_code']} |")
    failed = [s for s in document["steps"] if s.get("output_tail")]
    for s in failed:
        lines += ["", f"### {s['page']}: {s['title']}: the last lines", "", "```text", *s["output_tail"], "```"]
    return "\n".join(lines) + "\n"


def write_results(document, directory=RESULT_DIR):
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "result.json").write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n")
    (directory / "REPORT.md").write_text(report_markdown(document))


# ---- the command ----

def git(*args, cwd=ROOT):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def restore_services(say):
    """The clone's `stack up` gave the shared services its own secrets (Redis' and MariaDB's passwords, WireMock's
    key pair and credentials); this checkout's `stack/native.sh up` gives them back this checkout's, so that its apps
    and suites work again. A line that names the command when it fails."""
    done = subprocess.run(["bash", "stack/native.sh", "up"], cwd=ROOT, capture_output=True, text=True)
    if done.returncode == 0:
        say("the shared services have this checkout's passwords and TLS key pair again (stack/native.sh up)")
    else:
        say("note: the shared services still have the clone's passwords and TLS key pair: run ./perflab stack up "
            f"in this checkout ({(done.stderr or done.stdout).strip().splitlines()[-1:]})")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="./perflab newcomer", description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep the clone (and its app running) and the step logs")
    parser.add_argument("--keep-data", action="store_true", help="do not drop the data sets before the run")
    parser.add_argument("--only", metavar="PAGE",
                        help=f"run one page's steps (after the one-time installs): {README}, {', '.join(WALKTHROUGHS)}; "
                             "its steps replace that page's in the committed result")
    args = parser.parse_args(argv)

    def say(line):
        print(line, flush=True)

    commit = git("rev-parse", "HEAD")
    if git("status", "--porcelain", "--untracked-files=no"):
        say("note: this checkout has uncommitted changes; the clone has HEAD only")
    work = pathlib.Path(tempfile.mkdtemp(prefix="perflab-newcomer-"))
    clone, tmp, logs = work / "perflab", work / "tmp", work / "logs"
    tmp.mkdir()
    logs.mkdir()
    code = 2
    try:
        say(f"cloning {commit[:12]} into {clone}")
        git("clone", "--quiet", "--no-checkout", str(ROOT), str(clone), cwd=work)
        git("checkout", "--quiet", "--detach", commit, cwd=clone)
        try:
            pages = load_pages(clone, args.only)
        except DocFormatError as error:
            raise SystemExit(f"perflab newcomer: {error}")
        steps = plan(pages)
        env = newcomer_env(os.environ, tmp)
        app_port = labenv.read_env(clone / ".env").get("PERFLAB_APP_PORT", "8080")
        if any(STARTS_APP.search(s.command) for s in steps) and labenv.port_open(app_port):
            raise SystemExit(f"perflab newcomer: port {app_port} is taken (an app or a load balancer runs), and the "
                             "steps start the app there: stop it first (./perflab down in its checkout)")

        jdk = find_jdk25()
        one_time = []
        installs = one_time_steps(labenv.docker_engine(env), jdk)
        total = len(installs) + len(steps)
        for index, (title, command) in enumerate(installs, 1):
            print(f"[{index}/{total}] one-time: {title} …", end=" ", flush=True)
            log = logs / f"00-one-time-{index}.log"
            rc, took = run_command(command, clone, env, log, 3600)
            output = clean_output(log.read_bytes().decode(errors="replace"))
            entry = {"title": title, "command": command, "measured_seconds": round(took, 1), "exit_code": rc}
            if rc != 0:
                entry["output_tail"] = tail(output)
            one_time.append(entry)
            print(f"{took:.0f} s" + ("" if rc == 0 else f", FAILED: exit code {rc}"), flush=True)
        data = ["kept (--keep-data)"] if args.keep_data else empty_data(clone, env, say)

        records = run_steps(steps, clone, env, logs, say, offset=len(installs), total=total)
        needs_insight = args.only is None
        insight = first_insight(records) if needs_insight else None
        document = result_document(commit, one_time, records, insight, data, only=args.only)
        if args.only:
            previous_path = RESULT_DIR / "result.json"
            previous = json.loads(previous_path.read_text()) if previous_path.exists() else None
            document = merge_only(previous, document, args.only)
        write_results(document)
        code = exit_code(records, insight, needs_insight)
        if any(r["exit_code"] != 0 for r in one_time):
            code = 1
        say(f"one-time installs: {fmt_seconds(document['one_time_seconds'])}")
        if needs_insight:
            say("first insight: " + ("not reached" if insight is None else
                                     f"{fmt_seconds(insight)} (limit {FIRST_INSIGHT_LIMIT} s)"))
        say(f"wrote {RESULT_DIR.relative_to(ROOT)}/result.json and REPORT.md: "
            + ("every step passed" if code == 0 else "FAILED"))
    finally:
        if args.keep:
            print(f"kept the clone {clone} and the step logs {logs}", flush=True)
        else:
            if clone.exists():
                stop_clone_processes(clone, lambda line: print(line, flush=True))
            shutil.rmtree(work, ignore_errors=True)
            restore_services(say)  # the kept clone's app (--keep) needs the clone's secrets: only when it is gone
    return code


if __name__ == "__main__":
    sys.exit(main())

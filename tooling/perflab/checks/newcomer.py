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
TLS key pair. Run it where nobody else uses the lab; the app's port must be free.

--docker measures the Docker column: the same clone, on the Docker engine the caller's DOCKER_HOST (or the default
socket) names, runs the README's timed steps and every walkthrough (not the README's tests), where ./perflab takes
compose: `up` is `docker compose up --wait`, `ab` hands the run to compose's runner service; a step the compose lab
refuses by name is recorded as refused, with the reason. Its
one-time install is the Python environment ./perflab itself runs in (with PERFLAB_PIP_WHEELS, also the wheels the
runner's image installs from, for an engine without PyPI); compose's project is removed with its volumes first, so
that the images' builds and the data sets' loads count; the clone's compose lab is stopped at the end. Its record
is result.json's `docker`, a column of REPORT.md; the native record stays, and a native run keeps it."""
import argparse
import json
import os
import pathlib
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from typing import Callable, Mapping

from perflab.lab import labenv
from perflab.lab import labsecrets
from perflab.lab import seam
from perflab.checks.newcomer_report import (FIRST_INSIGHT_LIMIT, NEWCOMER_PATH, RESULT_DIR, Record, consistent, exit_code,
                             first_insight, fmt_seconds, merge_docker, merge_only, result_document, write_results)
from perflab.checks.newcomer_steps import (README, WALKTHROUGHS, DocFormatError, Step, docker_plan, load_pages,
                                           plan)

from perflab.paths import ROOT
Say = Callable[[str], None]  # where a line for the user goes
# what a login shell on Debian carries besides PATH, HOME and LANG; proxies are the machine's, not the user's
KEPT_ENV = ("USER", "LOGNAME", "SHELL", "TERM", "XDG_STATE_HOME", "http_proxy", "https_proxy", "no_proxy",
            "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY")
# the data sets' databases: the app's (wallet and route data sets), the wallet A/B's two, cold-start's (the wallet
# A/B's `after`, or PERFLAB_COLD_DB); the route experiment reads the app's
DATABASES = ["perflab", "perflab_wallet_before", "perflab_wallet_after"]
# the Redis keys the data sets leave: the wallet cache, the route cache, the PIN and login guards' counts
REDIS_PATTERNS = ["wallet:*", "route:*", "guess:*", "pin:*"]
REDIS_DBS = range(16)
# --docker: what names the engine and its compose plugin (DOCKER_*), and the two facts of a machine's engine that
# ./perflab reads from PERFLAB_*: the services it has images for, and a wheel folder for an engine without PyPI
DOCKER_ENV = ("DOCKER_HOST", "DOCKER_CONFIG", "DOCKER_CONTEXT", "DOCKER_CERT_PATH", "DOCKER_TLS_VERIFY",
              "PERFLAB_COMPOSE_SERVICES", "PERFLAB_PIP_WHEELS")
TAIL_LINES = 20

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
STARTS_APP = re.compile(r"\./perflab\s+(?:up|app\s+(?:start|restart))\b")


# ---- judging a step ----

def clean_output(raw: str) -> str:
    """A step's output as lines a reader would see: ANSI colours removed, carriage returns as line breaks."""
    return ANSI.sub("", raw).replace("\r\n", "\n").replace("\r", "\n")


def occurs(expected: str, output: str) -> bool:
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


def missing(expect: list[str], output: str) -> list[str]:
    """The expected strings the output lacks (empty: the step's expected lines appeared)."""
    return [e for e in expect if not occurs(e, output)]


def step_timeout(stated: float) -> float:
    """How long a step may run before it is stopped: five times its stated duration, at least ten minutes."""
    return max(600.0, 5 * stated)


# ---- the environment and the lab ----

# set for the steps of a run: the README's `./perflab test` then skips the check that the committed result passed,
# since this run is the one that replaces it (and judges its own steps)
IN_RUN = "PERFLAB_NEWCOMER_RUN"


def newcomer_env(base: Mapping[str, str], tmpdir: pathlib.Path, docker: bool = False) -> dict[str, str]:
    """A new Debian user's environment: the default PATH, HOME kept, LANG=C.UTF-8, no JAVA_HOME, no CI, no PERFLAB_*
    (only what a login shell carries, KEPT_ENV; with docker, DOCKER_ENV too); TMPDIR is the run's own, so no cached
    seed files are found."""
    env = {"PATH": NEWCOMER_PATH, "HOME": base.get("HOME", str(pathlib.Path.home())), "LANG": "C.UTF-8",
           "TMPDIR": str(tmpdir), IN_RUN: "1"}
    env.update({k: base[k] for k in KEPT_ENV + (DOCKER_ENV if docker else ()) if k in base})
    return env


def find_jdk25() -> str | None:
    """The JDK 25 ./perflab finds for a user without JAVA_HOME (the entry script's lookup, PERFLAB_JDK), or None."""
    env = {k: v for k, v in os.environ.items() if k not in ("JAVA_HOME", "PERFLAB_JDK")}
    found = subprocess.run([str(ROOT / "perflab"), "python", "-c", "import os; print(os.environ['PERFLAB_JDK'])"],
                           env=env, capture_output=True, text=True)
    return found.stdout.strip() or None


def one_time_steps(docker: bool, jdk: str | None) -> list[tuple[str, str]]:
    """(title, command) of what the lab installs once per machine or checkout, through its own entry points. The
    Python environment comes first: every ./perflab command runs in it, so the first one to run prepares it."""
    steps = [("the Python environment (.perflab/venv)", "./perflab python -c 'import sys; print(sys.prefix)'")]
    if not docker:
        steps.append(("system packages, the k6 and Toxiproxy builds, WireMock; the services started",
                      "./perflab stack up"))
    steps.append(("Maven, its plugins and the dependencies",
                  (f"JAVA_HOME={jdk} " if jdk else "") + "./mvnw -q -B dependency:go-offline"))
    return steps


def docker_one_time_steps(env: Mapping[str, str]) -> list[tuple[str, str]]:
    """(title, command) of what the Docker path installs on the host: the Python environment ./perflab runs in, and,
    when the engine has no PyPI (PERFLAB_PIP_WHEELS names a folder of the build context), the wheels its runner
    image installs from, fetched on the host by stack/docker/wheels.sh, as compose-ci.sh does."""
    steps = [("the Python environment (.perflab/venv)", "./perflab python -c 'import sys; print(sys.prefix)'")]
    wheels = env.get("PERFLAB_PIP_WHEELS")
    if wheels:
        steps.append((f"the runner image's Python wheels, fetched on the host ({wheels}: the engine has no PyPI)",
                      f"bash stack/docker/wheels.sh {shlex.quote(wheels)}"))
    return steps


def compose_down(clone: pathlib.Path, env: dict[str, str], why: str, say: Say) -> str:
    """Remove compose's project (every profile's containers) with its volumes, from the clone; the line that says
    so. SystemExit naming the engine when docker compose fails."""
    command = labenv.compose("--profile", "load", "--profile", "runner", "down", "--volumes", "--remove-orphans",
                             "--timeout", "20", root=clone)
    done = subprocess.run(command, cwd=clone, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"perflab newcomer --docker: docker compose down failed on the engine at "
                         f"{env.get('DOCKER_HOST', 'the default socket')}: {done.stderr.strip()[-400:]}")
    line = f"compose's project removed with its volumes (docker compose down --volumes): {why}"
    say(f"data: {line}")
    return line


REFUSED = seam.REFUSAL  # the compose lab's refusal by name (ComposeLab.cannot_run)


def mark_refusals(records: list[Record]) -> None:
    """A failed step whose output is the compose lab's refusal gets `refused`: the refusal's line, with its reason."""
    for record in records:
        said = [line for line in record.get("output_tail", []) if REFUSED in line]
        if said:
            record["refused"] = said[-1].strip()


def judged(records: list[Record]) -> list[Record]:
    """The records the exit code stands on: a page the compose lab refused by name (the refused step and those
    skipped after it) is an answer, not a failure."""
    refused = {r["page"] for r in records if r.get("refused")}
    return [r for r in records if r["page"] not in refused]


def stop_compose_lab(clone: pathlib.Path, env: dict[str, str]) -> None:
    """The clone's compose lab stopped and removed (its bind mounts are in the clone), or a line naming why not."""
    try:
        compose_down(clone, env, "the clone's lab stopped", lambda line: print(line, flush=True))
    except SystemExit as failed:
        print(f"note: {failed.code} (docker compose down in another checkout stops it)", flush=True)


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


def clone_secret(clone: pathlib.Path | str, name: str) -> str:
    """A secret of the clone's install (its stack/secrets.sh ran in the one-time steps, and its `stack up` gave the
    running MariaDB and Redis its passwords), or '' before it has one: the services are then this checkout's."""
    path = pathlib.Path(clone) / ".perflab" / "secrets" / name
    return path.read_text().strip() if path.is_file() else ""


def empty_data(clone: pathlib.Path, env: dict[str, str], say: Say) -> list[str]:
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

def run_command(command: str, cwd: pathlib.Path, env: dict[str, str], log: pathlib.Path,
                timeout: float) -> tuple[int | None, float]:
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


def tail(text: str, lines: int = TAIL_LINES) -> list[str]:
    return text.rstrip("\n").splitlines()[-lines:]


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40]


def stop_clone_processes(clone: pathlib.Path, say: Say) -> None:
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


def progress_end(record: Record) -> str:
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


def run_steps(steps: list[Step], clone: pathlib.Path, env: dict[str, str], logs: pathlib.Path, say: Say,
              offset: int = 0, total: int | None = None, clock: Callable[[], float] = time.monotonic,
              t0: float | None = None) -> list[Record]:
    """Run the planned steps, a page stopping at its first failing step; one record each (skipped ones too)."""
    t0 = clock() if t0 is None else t0
    total = total or len(steps)
    records: list[Record] = []
    failed_pages: set[str] = set()
    for index, step in enumerate(steps, offset + 1):
        record: Record = {"page": step.page, "title": step.title, "command": step.command,
                          "stated_seconds": step.stated, "timed": step.timed, "expected": step.expect}
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


# ---- the command ----

def git(*args: str, cwd: pathlib.Path = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def restore_services(say: Say) -> None:
    """The clone's `stack up` gave the shared services its own secrets (Redis' and MariaDB's passwords, WireMock's
    key pair and credentials); this checkout's `stack/native.sh up` gives them back this checkout's, so that its apps
    and suites work again. A line that names the command when it fails."""
    done = subprocess.run(["bash", "stack/native.sh", "up"], cwd=ROOT, capture_output=True, text=True)
    if done.returncode == 0:
        say("the shared services have this checkout's passwords and TLS key pair again (stack/native.sh up)")
    else:
        say("note: the shared services still have the clone's passwords and TLS key pair: run ./perflab stack up "
            f"in this checkout ({(done.stderr or done.stdout).strip().splitlines()[-1:]})")


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="./perflab newcomer", description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep the clone (and its app running) and the step logs")
    parser.add_argument("--keep-data", action="store_true", help="do not drop the data sets before the run")
    parser.add_argument("--docker", action="store_true",
                        help="the Docker column: the README's timed steps and every walkthrough on the Docker engine "
                             "DOCKER_HOST (or the default socket) names, ./perflab taking compose")
    parser.add_argument("--only", metavar="PAGE",
                        help=f"run one page's steps (after the one-time installs): {README}, {', '.join(WALKTHROUGHS)}; "
                             "its steps replace that page's in the committed result")
    args = parser.parse_args(argv)
    if args.docker and (args.only or args.keep_data):
        parser.error("--docker runs every page on fresh volumes: without --only and --keep-data")
    return args


def say(line: str) -> None:
    print(line, flush=True)


def planned_steps(clone: pathlib.Path, only: str | None, docker: bool = False) -> list[Step]:
    """The clone's steps in the order they run (with docker, all but the README's untimed tests); SystemExit when a page breaks
    the format, or when the steps start the app on a port that is taken."""
    try:
        pages = load_pages(clone, only)
    except DocFormatError as error:
        raise SystemExit(f"perflab newcomer: {error}")
    steps = docker_plan(pages) if docker else plan(pages)
    app_port = labenv.read_env(clone / ".env").get("PERFLAB_APP_PORT", "8080")
    if any(STARTS_APP.search(s.command) for s in steps) and labenv.port_open(app_port):
        raise SystemExit(f"perflab newcomer: port {app_port} is taken (an app or a load balancer runs), and the "
                         "steps start the app there: stop it first (./perflab down in its checkout)")
    return steps


def run_one_time(installs: list[tuple[str, str]], clone: pathlib.Path, env: dict[str, str], logs: pathlib.Path,
                 total: int) -> list[Record]:
    """Run the one-time installs, each timed on its own; one entry each (its output's tail when it failed)."""
    one_time = []
    for index, (title, command) in enumerate(installs, 1):
        print(f"[{index}/{total}] one-time: {title} …", end=" ", flush=True)
        log = logs / f"00-one-time-{index}.log"
        rc, took = run_command(command, clone, env, log, 3600)
        output = clean_output(log.read_bytes().decode(errors="replace"))
        entry: Record = {"title": title, "command": command, "measured_seconds": round(took, 1), "exit_code": rc}
        if rc != 0:
            entry["output_tail"] = tail(output)
        one_time.append(entry)
        print(f"{took:.0f} s" + ("" if rc == 0 else f", FAILED: exit code {rc}"), flush=True)
    return one_time


def record_results(commit: str, one_time: list[Record], records: list[Record], data: list[str],
                   only: str | None, docker: bool = False) -> int:
    """Write result.json and REPORT.md (an --only run merged into the committed result, a --docker run as its Docker
    record, a native run keeping the committed Docker record) and say the figures; the exit code."""
    needs_insight = only is None
    insight = first_insight(records) if needs_insight else None
    document = result_document(commit, one_time, records, insight, data, only=only)
    previous_path = RESULT_DIR / "result.json"
    previous = json.loads(previous_path.read_text()) if previous_path.exists() else None
    if docker:
        document = merge_docker(previous, document)
    elif only:
        document = merge_only(previous, document, only)
    elif previous and "docker" in previous:
        document["docker"] = previous["docker"]
    write_results(document)
    code = exit_code(judged(records), insight, needs_insight)
    if any(r["exit_code"] != 0 for r in one_time):
        code = 1
    if docker:
        document = document["docker"]
    say(f"one-time installs: {fmt_seconds(document['one_time_seconds'])}")
    if needs_insight:
        say(f"first insight{' on Docker' if docker else ''}: " + ("not reached" if insight is None else
                                 f"{fmt_seconds(insight)} (limit {FIRST_INSIGHT_LIMIT} s)"))
    say(f"wrote {RESULT_DIR.relative_to(ROOT)}/result.json and REPORT.md: "
        + ("every step passed" if code == 0 else "FAILED"))
    return code


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    commit = git("rev-parse", "HEAD")
    if git("status", "--porcelain", "--untracked-files=no"):
        say("note: this checkout has uncommitted changes; the clone has HEAD only")
    work = pathlib.Path(tempfile.mkdtemp(prefix="perflab-newcomer-"))
    clone, tmp, logs = work / "perflab", work / "tmp", work / "logs"
    tmp.mkdir()
    logs.mkdir()
    code = 2
    env: dict[str, str] = {}
    try:
        say(f"cloning {commit[:12]} into {clone}")
        git("clone", "--quiet", "--no-checkout", str(ROOT), str(clone), cwd=work)
        git("checkout", "--quiet", "--detach", commit, cwd=clone)
        steps = planned_steps(clone, args.only, args.docker)
        env = newcomer_env(os.environ, tmp, args.docker)
        if args.docker:
            if not labenv.docker_engine(env):
                raise SystemExit("perflab newcomer --docker: no Docker engine answers `docker info` at "
                                 f"{env.get('DOCKER_HOST', 'the default socket')}: start Docker, or set DOCKER_HOST")
            installs = docker_one_time_steps(env)
        else:
            installs = one_time_steps(labenv.docker_engine(env), find_jdk25())
        total = len(installs) + len(steps)
        one_time = run_one_time(installs, clone, env, logs, total)
        if args.docker:
            data = [compose_down(clone, env, "the first up builds the images and loads the data sets", say)]
        else:
            data = ["kept (--keep-data)"] if args.keep_data else empty_data(clone, env, say)
        records = run_steps(steps, clone, env, logs, say, offset=len(installs), total=total)
        if args.docker:
            mark_refusals(records)
        code = record_results(commit, one_time, records, data, args.only, args.docker)
    finally:
        if args.keep:
            print(f"kept the clone {clone} and the step logs {logs}", flush=True)
        else:
            if clone.exists():
                if args.docker and env:
                    stop_compose_lab(clone, env)
                stop_clone_processes(clone, lambda line: print(line, flush=True))
            shutil.rmtree(work, ignore_errors=True)
            if not args.docker:  # the Docker path left the native services alone
                restore_services(say)  # the kept clone's app (--keep) needs the clone's secrets: only when it is gone
    return code


if __name__ == "__main__":
    sys.exit(main())

"""Commits as variants: `[[variant]] ref = "<git ref>"`, and `./perflab ab <experiment> --baseline REF --candidate REF`.
A ref is resolved to a commit; the commit is checked out in its own git worktree, .perflab/refs/<sha>/, and its jar
built there once (kept as .perflab/refs/<sha>.jar: a later run of the same commit reuses it). The variant runs that
jar with that commit's db/migrations on a database of its own: the variant's (else PERFLAB_DB_NAME) suffixed with
the short sha, e.g. perflab_wallet_before_1a2b3c4d. The runner, the experiment file and the k6 scripts stay the
working tree's. Stdlib only."""
import copy
import os
import re
import shutil
import subprocess
import pathlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from perflab.lab import labenv
from perflab.lab.labenv import STATE, die
from perflab.paths import ROOT

REFS = STATE / "refs"
SHORT = 8  # hex digits of a sha in labels and database names
MAVEN_STEP = re.compile(r"^\[INFO\] --- (?:[\w.-]+:)?([\w.-]+):[\w.-]+:([\w.-]+) .*@")


@dataclass(frozen=True)
class Commit:
    ref: str
    sha: str
    subject: str

    @property
    def short(self) -> str:
        return self.sha[:SHORT]

    @property
    def worktree(self) -> pathlib.Path:
        return REFS / self.sha

    @property
    def jar(self) -> pathlib.Path:
        return REFS / f"{self.sha}.jar"

    @property
    def migrations(self) -> pathlib.Path:
        return self.worktree / "db" / "migrations"

    @classmethod
    def of(cls, record: dict[str, Any]) -> "Commit":
        return cls(record["ref"], record["sha"], record["subject"])

    def record(self) -> dict[str, str]:
        """What a variant and result.json keep of it."""
        return {"ref": self.ref, "sha": self.sha, "short": self.short, "subject": self.subject}


def git(*args: str, cwd: str | os.PathLike[str] = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)


def resolve(ref: str) -> Commit:
    """The commit a ref names here (a branch, a tag, HEAD~1, a sha); a readable error naming the ref otherwise."""
    if not ref or ref.startswith("-"):
        die(f"ref {ref!r}: name a commit (a branch, a tag, HEAD~1, a sha)")
    found = git("rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}")
    if found.returncode != 0:
        die(f"ref {ref!r} names no commit in {ROOT} (git rev-parse --verify {ref}); "
            f"fetch it first, or give a branch, tag or sha that exists here")
    sha = found.stdout.strip()
    return Commit(ref, sha, git("log", "-1", "--format=%s", sha).stdout.strip())


def database(name: str, commit: Commit) -> str:
    """The commit's own database: the variant's name suffixed with the short sha."""
    return f"{name}_{commit.short}"


def with_database(command: str, old: str, new: str) -> str:
    """A seed or reset command with `--db OLD` (or --db=OLD) rewritten to the commit's database."""
    return re.sub(rf"(--db[= ]){re.escape(old)}(?=\s|;|&|\||$)", lambda m: m.group(1) + new, command)


def app_options(variant: dict[str, Any]) -> list[str]:
    """`./perflab app start` options that run the variant's commit: its jar and its db/migrations; none for a
    working-tree variant."""
    c = variant.get("commit") and Commit.of(variant["commit"])
    return ["--jar", str(c.jar), "--migrations", str(c.migrations)] if c else []


def env(variant: dict[str, Any]) -> dict[str, str]:
    """The same for ./perflab migrate and seed (the variables those options set)."""
    c = variant.get("commit") and Commit.of(variant["commit"])
    return {"PERFLAB_APP_JAR": str(c.jar), "PERFLAB_MIGRATIONS": f"filesystem:{c.migrations}"} if c else {}


def maven_step(line: str) -> str | None:
    """'compiler:compile' for Maven's '[INFO] --- compiler:3.14.0:compile (default-compile) @ perflab ---', else
    None: the progress shown while a commit builds."""
    m = MAVEN_STEP.match(line)
    return f"{m.group(1).removeprefix('maven-').removesuffix('-plugin')}:{m.group(2)}" if m else None


def checkout(commit: Commit) -> None:
    """The commit in its own worktree (.perflab/refs/<sha>/), made once."""
    if (commit.worktree / "pom.xml").is_file():
        return
    REFS.mkdir(parents=True, exist_ok=True)
    # --force: also when an earlier worktree there was deleted by hand (git still lists it)
    made = git("worktree", "add", "--detach", "--force", str(commit.worktree), commit.sha)
    if made.returncode != 0:
        die(f"ref {commit.ref!r} ({commit.short}): git worktree add {commit.worktree} failed: {made.stderr.strip()}")


def build(commit: Commit, say: Callable[[str], None] = labenv.say) -> pathlib.Path:
    """The commit's jar: from the cache when built before, else built in its worktree (./mvnw package, tests
    skipped), with a line per Maven step; a failed build stops the run naming the ref and the log's last lines."""
    if commit.jar.is_file():
        say(f"  {commit.ref} = {commit.short}: jar from the cache ({commit.jar.relative_to(ROOT)})")
        return commit.jar
    checkout(commit)
    log_file = REFS / f"{commit.sha}.build.log"
    say(f"  {commit.ref} = {commit.short}: building its jar in {commit.worktree.relative_to(ROOT)} "
        f"(./mvnw package, tests skipped; log {log_file.relative_to(ROOT)})")
    started = time.monotonic()
    with open(log_file, "w") as log:
        maven = subprocess.Popen(["./mvnw", "-B", "-Dmaven.test.skip=true", "-Dperflab.python.skip=true", "package"],
                                 cwd=commit.worktree, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                 env=dict(os.environ, JAVA_HOME=labenv.jdk()))
        for line in maven.stdout or ():
            log.write(line)
            step = maven_step(line)
            if step:
                say(f"    [{commit.short} {time.monotonic() - started:.0f}s] {step}")
        code = maven.wait()
    built = commit.worktree / "target" / "perflab.jar"
    if code != 0 or not built.is_file():
        die(f"building ref {commit.ref!r} ({commit.short} {commit.subject}) failed: ./mvnw package exited {code}"
            f"{'' if code else ', no target/perflab.jar'}; the log's end:\n{labenv.tail(log_file, 25)}")
    partial = commit.jar.with_suffix(".jar.partial")
    shutil.copyfile(built, partial)
    partial.replace(commit.jar)
    say(f"  {commit.ref} = {commit.short}: built in {time.monotonic() - started:.0f} s")
    return commit.jar


def prepare(e: dict[str, Any], default_database: str, resolve: Callable[[str], Commit] = resolve,
            build: Callable[[Commit], object] = build) -> dict[str, Commit]:
    """Every variant with a `ref`: its commit resolved and recorded, its database and its seed and reset commands moved
    to the commit's database (a variant without a seed gets `./perflab migrate` of it, under its profile), and its
    jar built or taken from the cache. Returns the commits, by label."""
    commits: dict[str, Commit] = {}
    for v in (v for v in e["variants"] if v.get("ref")):
        if v.get("aot"):
            die(f"variant {v['label']!r}: aot = true runs the working tree's AOT cache; a ref runs its own jar")
        commit = Commit.of(v["commit"]) if v.get("commit") else resolve(v["ref"])
        old = v.get("database", default_database)
        v["commit"] = commit.record()
        v["database"] = database(old, commit)
        for key in ("seed", "reset"):
            if v.get(key):
                v[key] = with_database(v[key], old, v["database"])
        if not v.get("seed"):
            profile = f"SPRING_PROFILES_ACTIVE={v['profile']} " if v.get("profile") else ""
            v["seed"] = f"{profile}./perflab migrate --db {v['database']}"
        commits[v["label"]] = commit
    for commit in {c.sha: c for c in commits.values()}.values():
        build(commit)
    return commits


def two_commits(e: dict[str, Any], baseline: Commit, candidate: Commit) -> dict[str, Any]:
    """--baseline REF --candidate REF: the experiment's first variant's settings (profile, args, database, seed,
    reset) twice, one side per commit, labelled `baseline <short>` and `candidate <short>`; the checks of that
    variant hold for both sides, the file's other variants, their checks and its write-up tables go, and the
    candidate is expected to be no worse (better or no difference)."""
    first = e["variants"][0]
    checks = [c for c in e.get("check", []) if c.get("side") == "baseline" or c.get("variant") == first["label"]]
    e["variants"], e["check"] = [], []
    for side, commit in (("baseline", baseline), ("candidate", candidate)):
        v = copy.deepcopy(first)
        for key in ("expect", "against"):
            v.pop(key, None)
        v.update(label=f"{side} {commit.short}", ref=commit.ref, commit=commit.record())
        e["variants"].append(v)
        e["check"] += [dict({k: x for k, x in c.items() if k != "variant"}, side=side) for c in checks]
    e["writeup"] = []
    e["primary"] = dict(e["primary"], expect="not worse")
    e["variants_chosen"] = True  # a [smoke] `only` list names the file's variants, not these
    return e

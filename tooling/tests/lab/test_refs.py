"""Commits as variants (tooling/perflab/lab/refs.py): resolving a ref, the jar cache, the commit's database and commands, the two-commit
comparison's variants and checks, and how the launcher, app start, migrate and the report carry a commit."""
import subprocess

import pytest

from perflab.lab import appctl
from perflab.plan import experiment
from perflab.lab import labenv
from perflab.lab import launcher
from perflab.results import schema
from perflab.lab import refs
from perflab.render import report
from perflab import runner

HEAD = subprocess.run(["git", "rev-parse", "HEAD"], cwd=refs.ROOT, capture_output=True, text=True).stdout.strip()


def commit(sha="1a2b3c4d5e6f" + "0" * 28, ref="HEAD", subject="Faster transfers"):
    return refs.Commit(ref, sha, subject)


def test_a_ref_resolves_to_its_commit_and_its_subject():
    c = refs.resolve("HEAD")
    assert (c.ref, c.sha, c.short) == ("HEAD", HEAD, HEAD[:8])
    assert c.subject == subprocess.run(["git", "log", "-1", "--format=%s"], cwd=refs.ROOT, capture_output=True,
                                       text=True).stdout.strip()


@pytest.mark.parametrize("ref", ["no-such-branch-anywhere", "HEAD~100000", "-n", ""])
def test_a_ref_that_names_no_commit_stops_with_the_ref_named(ref):
    with pytest.raises(SystemExit) as stopped:
        refs.resolve(ref)
    assert repr(ref) in str(stopped.value)


def test_a_commit_is_cached_by_its_sha_and_runs_on_its_own_database():
    c = commit()
    assert c.worktree == refs.REFS / c.sha and c.jar == refs.REFS / f"{c.sha}.jar"
    assert c.migrations == refs.REFS / c.sha / "db" / "migrations"
    assert refs.database("perflab_wallet_before", c) == "perflab_wallet_before_1a2b3c4d"


def test_a_jar_built_before_is_taken_from_the_cache_without_maven(tmp_path, monkeypatch):
    monkeypatch.setattr(refs, "REFS", tmp_path)
    monkeypatch.setattr(refs, "ROOT", tmp_path)
    c = commit()
    c.jar.write_bytes(b"jar")
    said = []
    assert refs.build(c, say=said.append) == tmp_path / f"{c.sha}.jar"
    assert said == [f"  HEAD = 1a2b3c4d: jar from the cache ({c.sha}.jar)"]
    assert not c.worktree.exists()  # no checkout, no build


def test_the_commands_move_to_the_commits_database_and_nothing_else():
    assert refs.with_database("./perflab seed wallet --db perflab_w --index unique ensure", "perflab_w", "perflab_w_1a") == \
        "./perflab seed wallet --db perflab_w_1a --index unique ensure"
    assert refs.with_database("x --db=perflab_w && y --db perflab_w", "perflab_w", "n") == "x --db=n && y --db n"
    assert refs.with_database("x --db perflab_w_other --name perflab_w", "perflab_w", "n") == \
        "x --db perflab_w_other --name perflab_w"


def test_maven_steps_are_the_progress_shown_while_a_commit_builds():
    assert refs.maven_step("[INFO] --- compiler:3.14.0:compile (default-compile) @ perflab ---\n") == "compiler:compile"
    assert refs.maven_step("[INFO] --- spring-boot:4.0.0:repackage (repackage) @ perflab ---") == "spring-boot:repackage"
    assert refs.maven_step("[INFO] --- maven-jar-plugin:3.4.1:jar (default-jar) @ perflab ---") == "jar:jar"
    assert refs.maven_step("[INFO] Building perflab 0.0.1-SNAPSHOT") is None


def wallet():
    return experiment.load("wallet")


def test_two_commits_run_the_first_variants_settings_on_both_sides():
    e = wallet()
    first = e["variants"][0]
    refs.two_commits(e, commit(ref="origin/main"), commit("9" * 40, "HEAD", "Lean writer"))
    base, cand = e["variants"]
    assert [base["label"], cand["label"]] == ["baseline 1a2b3c4d", "candidate 99999999"]
    assert [base["ref"], cand["ref"]] == ["origin/main", "HEAD"]
    assert cand["commit"] == {"ref": "HEAD", "sha": "9" * 40, "short": "99999999", "subject": "Lean writer"}
    for v in (base, cand):
        assert (v["profile"], v["args"], v["database"], v["seed"]) == (first["profile"], first["args"], first["database"], first["seed"])
    assert e["primary"]["expect"] == "not worse" and e["writeup"] == [] and e["variants_chosen"]


def test_the_first_variants_checks_hold_for_both_commits_and_the_others_go():
    e = experiment.load("login")
    refs.two_commits(e, commit(), commit("9" * 40))
    assert [(c["side"], c["op"], c["value"]) for c in e["check"]] == [("baseline", "==", 1.0), ("candidate", "==", 1.0)]


def test_preparing_moves_each_commit_to_its_database_and_builds_each_commit_once():
    e = wallet()
    refs.two_commits(e, commit(), commit())
    built = []
    commits = refs.prepare(e, "perflab", resolve=pytest.fail, build=built.append)
    assert list(commits) == ["baseline 1a2b3c4d", "candidate 1a2b3c4d"] and len(built) == 1
    v = e["variants"][0]
    assert v["database"] == "perflab_wallet_before_1a2b3c4d"
    assert v["seed"] == "./perflab seed wallet --db perflab_wallet_before_1a2b3c4d --index non-unique ensure"
    assert v["reset"] == "./perflab seed wallet --db perflab_wallet_before_1a2b3c4d reset"


def test_a_ref_variant_without_a_seed_is_migrated_under_its_profile_and_a_file_ref_is_resolved():
    e = {"variants": [{"label": "old", "ref": "HEAD~1", "profile": "wallet-after", "args": []},
                      {"label": "now", "args": []}]}
    refs.prepare(e, "perflab", resolve=lambda ref: commit(ref=ref), build=lambda c: None)
    old, now = e["variants"]
    assert old["commit"]["ref"] == "HEAD~1" and old["database"] == "perflab_1a2b3c4d"
    assert old["seed"] == "SPRING_PROFILES_ACTIVE=wallet-after ./perflab migrate --db perflab_1a2b3c4d"
    assert now == {"label": "now", "args": []}


def test_a_ref_cannot_take_the_working_trees_aot_cache():
    with pytest.raises(SystemExit, match="aot"):
        refs.prepare({"variants": [{"label": "a", "ref": "HEAD", "aot": True}]}, "perflab", resolve=commit, build=print)


def test_a_commit_variant_starts_its_jar_with_its_migrations_and_seeds_with_them():
    c = commit()
    v = {"label": "candidate 1a2b3c4d", "args": [], "redis_db": 11, "database": "perflab_1a2b3c4d", "commit": c.record()}
    app = launcher.App({}, v, 1, {})
    at = app.options.index("--jar")
    assert app.options[at:at + 4] == ["--jar", str(c.jar), "--migrations", str(c.migrations)]
    options = appctl.parse(app.options)
    assert options.env["PERFLAB_APP_JAR"] == str(c.jar)
    assert labenv.migrations_dir(options.env) == c.migrations
    data = launcher.variant_env(v, {})
    assert (data["PERFLAB_APP_JAR"], data["PERFLAB_DB_NAME"]) == (str(c.jar), "perflab_1a2b3c4d")
    assert appctl.app_jar(data) == c.jar and labenv.migrations_dir(data) == c.migrations
    assert "--jar" not in launcher.App({}, dict(v, commit=None), 1, {}).options


def test_without_a_commit_the_working_trees_jar_and_migrations_run():
    assert appctl.app_jar({}) == appctl.APP_JAR
    assert labenv.migrations_dir({}) == refs.ROOT / "db" / "migrations"


def test_not_worse_is_met_by_better_and_no_difference_only():
    assert [schema.meets(v, "not worse") for v in ("better", "no difference", "worse", "inconclusive")] == \
        [True, True, False, False]


def test_the_report_names_each_commit_where_it_names_the_variants():
    c = commit()
    e = {"variants": [{"label": "baseline 1a2b3c4d", "commit": c.record()}, {"label": "plain"}]}
    assert report.commit_lines(e) == ['baseline 1a2b3c4d: commit 1a2b3c4d "Faster transfers" (HEAD)']


@pytest.mark.parametrize("argv, why", [
    (["login", "--baseline", "HEAD"], "give both --baseline and --candidate"),
    (["login", "--baseline", "HEAD", "--candidate", "HEAD", "--aa"], "not with --aa"),
    (["parsing-jmh", "--baseline", "HEAD", "--candidate", "HEAD"], "parsing-jmh runs one command"),
])
def test_two_commits_need_both_refs_and_an_app(argv, why, capsys):
    with pytest.raises(SystemExit) as stopped:
        runner.main(argv)
    assert stopped.value.code == 2 and why in capsys.readouterr().out


def test_a_variants_ref_must_be_a_git_ref(tmp_path, monkeypatch):
    monkeypatch.setattr(experiment, "DIR", tmp_path)
    (tmp_path / "x.toml").write_text('[[variant]]\nlabel = "a"\nref = 3\n[[variant]]\nlabel = "b"\n')
    with pytest.raises(SystemExit, match="variant 'a' ref = 3"):
        experiment.load("x")


def fake_maven(worktree, script):
    """A commit's worktree whose ./mvnw is `script` (the build's steps stand in for Maven's)."""
    worktree.mkdir(parents=True)
    (worktree / "pom.xml").write_text("<project/>")
    (worktree / "mvnw").write_text("#!/bin/sh\n" + script)
    (worktree / "mvnw").chmod(0o755)


def test_a_commit_builds_once_with_its_steps_shown_and_the_next_run_reuses_its_jar(tmp_path, monkeypatch):
    monkeypatch.setattr(refs, "REFS", tmp_path)
    monkeypatch.setattr(refs, "ROOT", tmp_path)
    monkeypatch.setenv("PERFLAB_JDK", "/nonexistent-jdk")
    c = commit()
    fake_maven(c.worktree, "echo '[INFO] --- compiler:3.14.0:compile (default-compile) @ perflab ---'\n"
                           "mkdir -p target && echo built > target/perflab.jar\n")
    said = []
    assert refs.build(c, say=said.append).read_text() == "built\n"
    assert any(line.endswith("] compiler:compile") for line in said) and said[-1].startswith("  HEAD = 1a2b3c4d: built in")
    (c.worktree / "mvnw").write_text("#!/bin/sh\nexit 1\n")  # a second build would fail
    said.clear()
    refs.build(c, say=said.append)
    assert said == [f"  HEAD = 1a2b3c4d: jar from the cache ({c.sha}.jar)"]


def test_a_failed_build_stops_naming_the_ref_with_the_logs_end_and_caches_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(refs, "REFS", tmp_path)
    monkeypatch.setattr(refs, "ROOT", tmp_path)
    monkeypatch.setenv("PERFLAB_JDK", "/nonexistent-jdk")
    c = commit(ref="feature/x")
    fake_maven(c.worktree, "echo '[ERROR] cannot find symbol Transfer'\nexit 1\n")
    with pytest.raises(SystemExit) as stopped:
        refs.build(c, say=lambda line: None)
    assert "building ref 'feature/x' (1a2b3c4d Faster transfers) failed" in str(stopped.value)
    assert "cannot find symbol Transfer" in str(stopped.value)
    assert not c.jar.exists()

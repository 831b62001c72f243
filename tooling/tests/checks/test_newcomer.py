"""The newcomer check (tooling/perflab/checks/newcomer.py), without running anything: how steps are read from the pages, how a step's
output is judged, the order the pages run in, the first-insight arithmetic, and whether the committed result
(docs/results/newcomer/result.json) backs the durations the docs state."""
import json
import os
import subprocess

import pytest

from perflab.checks import newcomer
from perflab.checks import newcomer_report
from perflab.checks import newcomer_steps

ROOT = newcomer.ROOT
WALKTHROUGHS = ROOT / "docs" / "walkthroughs"
RESULT = newcomer_report.RESULT_DIR / "result.json"

README = """# perflab

Intro.

## Quick start

Prose before the first step.

### 1. Start the lab — about 4 min

It installs what is missing.

```sh
./perflab up
```

Expect: `app ready at` and `variant`

### 2. Run the tests (not timed for the first insight) — about 6.5 min

```sh
./perflab test
```

Expect: `./perflab test: passed`

### What you see

Prose with a `code span` and a block that is no step:

```text
SERVICE PORT STATE
```

## Next

### 9. Not a quick step — about 1 s

```sh
echo no
```
"""

WALLET = """# Wallet

## Quick path

### 1. Load the data sets — about 40 s

```sh
./perflab seed wallet --db perflab_wallet_before --index non-unique
./perflab seed wallet --db perflab_wallet_after --index unique
```

Expect: `wallet data set: loaded`
`money is conserved`

### 2. Compare before and after — about 1.5 min

```sh
./perflab ab wallet --smoke
```

Expect: `verdict: better`

## Reading the result
"""


def steps(text, page="wallet", section="Quick path"):
    return newcomer_steps.parse_steps(text, page, section)


# ---- reading the pages ----

def test_steps_are_read_with_their_durations_commands_and_expected_strings():
    readme = steps(README, "README", "Quick start")
    assert [(s.title, s.stated, s.timed) for s in readme] == [
        ("1. Start the lab", 240, True), ("2. Run the tests", 390, False)]
    assert readme[0].command == "./perflab up"
    assert readme[0].expect == ["app ready at", "variant"]
    wallet = steps(WALLET)
    assert [(s.title, s.stated) for s in wallet] == [("1. Load the data sets", 40), ("2. Compare before and after", 90)]
    assert wallet[0].command == ("./perflab seed wallet --db perflab_wallet_before --index non-unique\n"
                                 "./perflab seed wallet --db perflab_wallet_after --index unique")
    assert wallet[0].expect == ["wallet data set: loaded", "money is conserved"]  # the paragraph's next line too


def test_a_step_without_expect_fails_loudly_naming_the_page_and_the_heading():
    text = WALLET.replace("Expect: `verdict: better`\n", "It prints a verdict.\n")
    with pytest.raises(newcomer_steps.DocFormatError, match=r"^wallet: step '2\. Compare before and after — about 1\.5 min': "
                                                      r"the line after its ```sh block must start with 'Expect:'"):
        steps(text)
    with pytest.raises(newcomer_steps.DocFormatError, match=r"wallet: step '2\. Compare before and after .*': no 'Expect:'"):
        steps(WALLET.replace("Expect: `verdict: better`\n", ""))


STEP_2 = "### 2. Compare before and after — about 1.5 min\n\n```sh\n./perflab ab wallet --smoke\n```\n\nExpect: `verdict: better`\n"


@pytest.mark.parametrize("broken, why", [
    (STEP_2.replace("—", "-"), "write its duration as ' — about N s' or ' — about N min', with an em dash"),
    ("### 2. Compare before and after — about 1.5 min\n\nIt compares.\n", "no ```sh block after its heading"),
    (STEP_2.replace("`verdict: better`", "verdict better"), "its Expect: line holds no `backticked` string"),
    (STEP_2.replace("```sh", "```bash"), "its block must be ```sh"),
    (STEP_2.replace("Expect:", "It prints:"), "the line after its ```sh block must start with 'Expect:'"),
])
def test_each_format_mistake_is_named(broken, why):
    assert STEP_2 in WALLET
    with pytest.raises(newcomer_steps.DocFormatError) as error:
        steps(WALLET.replace(STEP_2, broken))
    assert str(error.value).startswith("wallet: step '2. Compare before and after")
    assert why in str(error.value)


def test_a_second_block_or_a_missing_section_or_no_step_is_an_error():
    with pytest.raises(newcomer_steps.DocFormatError, match="more than one code block"):
        steps(WALLET.replace("```sh\n./perflab ab wallet --smoke\n```", "```sh\necho a\n```\n\n```sh\necho b\n```"))
    with pytest.raises(newcomer_steps.DocFormatError, match=r"^README: the ```sh block at line \d+ belongs to no step"):
        steps(README.replace("```text", "```sh"), "README", "Quick start")
    with pytest.raises(newcomer_steps.DocFormatError, match=r"^README: the ```sh block at line 7 belongs to no step"):
        steps(README.replace("Prose before the first step.", "```sh\n./perflab up\n```"), "README", "Quick start")
    with pytest.raises(newcomer_steps.DocFormatError, match="^routes: no '## Quick path' section"):
        steps("# Routes\n", "routes")
    with pytest.raises(newcomer_steps.DocFormatError, match="^routes: '## Quick path' holds no step"):
        steps("# Routes\n\n## Quick path\n\nSoon.\n", "routes")


def test_a_heading_inside_a_code_block_is_no_heading():
    text = WALLET.replace("./perflab ab wallet --smoke", "cat <<'EOF'\n## not a section\n### not a step\nEOF")
    assert steps(text)[1].command == "cat <<'EOF'\n## not a section\n### not a step\nEOF"


# ---- judging a step ----

def test_a_step_passes_when_every_expected_string_occurs_in_its_output():
    output = newcomer.clean_output("building\r\x1b[32mapp ready at http://127.0.0.1:8080 in 5123 ms\x1b[0m\nvariant 'after'\n")
    assert newcomer.missing(["app ready at http://127.0.0.1:8080", "variant 'after'"], output) == []
    assert newcomer.missing(["app ready at", "verdict: better"], output) == ["verdict: better"]
    # an ellipsis stands for anything on one line, never across lines
    assert newcomer.missing(["app ready at … ms"], output) == []
    assert newcomer.missing(["building … variant"], output) == ["building … variant"]


def test_the_consistency_rule_of_stated_and_measured_durations():
    assert newcomer_report.consistent(40, 41) and newcomer_report.consistent(40, 60) and not newcomer_report.consistent(40, 61)
    assert newcomer_report.consistent(60, 10) and not newcomer_report.consistent(61, 10)  # stated <= 3 x measured + 30 s
    assert newcomer.step_timeout(10) == 600 and newcomer.step_timeout(600) == 3000


# ---- order and arithmetic ----

def test_the_readme_runs_first_then_the_wallet_then_the_readme_untimed_steps_then_the_other_walkthroughs():
    def step(page, title, timed=True):
        return newcomer_steps.Step(page=page, title=title, command="true", stated=1, expect=["x"], timed=timed)
    pages = {"README": [step("README", "up"), step("README", "test", False), step("README", "status")],
             "wallet": [step("wallet", "seed"), step("wallet", "ab")],
             "routes": [step("routes", "ab")], "login": [step("login", "ab")]}
    assert [(s.page, s.title) for s in newcomer_steps.plan(pages)] == [
        ("README", "up"), ("README", "status"), ("wallet", "seed"), ("wallet", "ab"), ("README", "test"),
        ("routes", "ab"), ("login", "ab")]


def test_page_files_put_the_readme_first_and_the_wallet_next(tmp_path):
    (tmp_path / "docs" / "walkthroughs").mkdir(parents=True)
    (tmp_path / "README.md").write_text("x")
    for name in ("cold-start", "routes", "wallet", "extra", "login"):
        (tmp_path / "docs" / "walkthroughs" / f"{name}.md").write_text("x")
    assert [(p, s) for p, _, s in newcomer_steps.page_files(tmp_path)] == [
        ("README", "Quick start"), ("wallet", "Quick path"), ("routes", "Quick path"), ("login", "Quick path"),
        ("cold-start", "Quick path"), ("extra", "Quick path")]


def record(page, started, ended, timed=True, passed=True):
    return {"page": page, "started": started, "ended": ended, "timed": timed, "passed": passed}


def test_the_first_insight_runs_from_the_readmes_first_step_to_the_wallets_last():
    records = [record("README", 0, 250), record("README", 251, 260), record("wallet", 261, 300),
               record("wallet", 301, 395.5), record("README", 396, 800, timed=False), record("routes", 801, 900)]
    assert newcomer_report.first_insight(records) == 395.5
    assert newcomer_report.exit_code(records, 395.5, needs_insight=True) == 0
    assert newcomer_report.exit_code(records, 600.1, needs_insight=True) == 1  # over ten minutes
    assert newcomer_report.exit_code(records, None, needs_insight=False) == 0  # --only routes measures no insight


def test_no_first_insight_when_a_step_on_the_way_failed_or_a_page_is_missing():
    assert newcomer_report.first_insight([record("README", 0, 250), record("wallet", 251, 300, passed=False)]) is None
    assert newcomer_report.first_insight([record("README", 0, 250)]) is None
    failed = [record("README", 0, 250), record("wallet", 251, 300), record("routes", 301, 310, passed=False)]
    assert newcomer_report.first_insight(failed) == 300
    assert newcomer_report.exit_code(failed, 300, needs_insight=True) == 1  # a failed step fails the check anyway


def test_the_environment_is_a_new_debian_users():
    env = newcomer.newcomer_env({"PATH": "/opt/x:/usr/sbin", "HOME": "/home/n", "JAVA_HOME": "/jdk", "CI": "true",
                                 "PERFLAB_APP_PORT": "8082", "USER": "n", "LANG": "de_DE.UTF-8"}, "/tmp/run")
    assert env == {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/home/n", "LANG": "C.UTF-8", "TMPDIR": "/tmp/run",
                   "USER": "n", newcomer.IN_RUN: "1"}


def test_the_one_time_installs_use_the_labs_own_entry_points():
    native = newcomer.one_time_steps(docker=False, jdk="/usr/lib/jvm/temurin-25-jdk-amd64")
    assert [c for _, c in native] == ["./perflab python -c 'import sys; print(sys.prefix)'", "./perflab stack up",
                                      "JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 ./mvnw -q -B dependency:go-offline"]
    assert [c for _, c in newcomer.one_time_steps(docker=True, jdk=None)][-1] == "./mvnw -q -B dependency:go-offline"


def test_a_step_runs_in_bash_e_from_the_clone_and_a_failure_keeps_its_output(tmp_path):
    step = newcomer_steps.Step(page="wallet", title="1. Fail", command="echo one\nfalse\necho never", stated=1,
                         expect=["one"])
    good = newcomer_steps.Step(page="wallet", title="2. Skipped", command="true", stated=1, expect=["x"])
    other = newcomer_steps.Step(page="routes", title="1. Pass", command="pwd; echo \"$PATH\"", stated=1,
                          expect=[str(tmp_path), "/usr/local/bin:/usr/bin:/bin"])
    logs = tmp_path / "logs"
    logs.mkdir()
    records = newcomer.run_steps([step, good, other], tmp_path, newcomer.newcomer_env({}, tmp_path), logs,
                                 lambda line: None)
    assert [(r["exit_code"], r["found"], r["passed"], r["skipped"]) for r in records] == [
        (1, True, False, False), (None, False, False, True), (0, True, True, False)]
    assert records[0]["output_tail"] == ["one"]
    assert "output_tail" not in records[2]


def test_a_step_that_outlives_its_timeout_is_stopped(tmp_path):
    code, took = newcomer.run_command("echo begun; sleep 30", tmp_path, newcomer.newcomer_env({}, tmp_path),
                                      tmp_path / "log", timeout=0.5)
    assert code is None and took < 10
    assert (tmp_path / "log").read_text() == "begun\n"


def test_emptying_the_data_drops_the_data_sets_databases_and_their_redis_keys(tmp_path, monkeypatch):
    """Against fake mariadb and redis-cli clients and ports of the test's own: nothing real is touched. The password
    is the running stack's (./perflab's PERFLAB_DB_PASSWORD), not the clone's .env."""
    import socket
    monkeypatch.setenv("PERFLAB_DB_PASSWORD", "secret")
    with socket.create_server(("127.0.0.1", 0)) as db, socket.create_server(("127.0.0.1", 0)) as redis:
        (tmp_path / ".env").write_text(f"PERFLAB_DB_PORT={db.getsockname()[1]}\nPERFLAB_DB_USER=perflab\n"
                                       f"PERFLAB_DB_PASSWORD=perflab\nPERFLAB_REDIS_PORT={redis.getsockname()[1]}\n")
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        for name, reply in (("mariadb", ""), ("redis-cli", "2")):
            (bin_dir / name).write_text(f"#!/bin/sh\necho \"$MYSQL_PWD $*\" >>{tmp_path}/{name}.calls\necho {reply}\n")
            (bin_dir / name).chmod(0o755)
        done = newcomer.empty_data(tmp_path, {"PATH": str(bin_dir)}, lambda line: None)
    sql = (tmp_path / "mariadb.calls").read_text()
    assert sql.startswith("secret -h127.0.0.1 ")
    assert "DROP DATABASE IF EXISTS `perflab`;DROP DATABASE IF EXISTS `perflab_wallet_before`;" \
           "DROP DATABASE IF EXISTS `perflab_wallet_after`;" in sql
    calls = (tmp_path / "redis-cli.calls").read_text().splitlines()  # the Lua script spans lines
    assert [c.split(" -n ")[1].split()[0] for c in calls if " -n " in c] == [str(n) for n in range(16)]
    assert calls.count("return deleted 0 wallet:* route:* guess:* pin:*") == 16
    assert done == ["dropped the databases perflab, perflab_wallet_before, perflab_wallet_after",
                    "deleted 32 Redis keys (wallet:* route:* guess:* pin:*) in dbs 0-15"]


def test_the_report_has_a_table_per_page(tmp_path):
    records = [dict(record("README", 0, 250), title="1. Start the lab", command="./perflab up", stated_seconds=240,
                    measured_seconds=250, expected=["app ready at"], found=True, missing=[], exit_code=0),
               dict(record("wallet", 251, 300, passed=False), title="1. Load", command="./perflab seed wallet",
                    stated_seconds=40, measured_seconds=49, expected=["loaded"], found=False, missing=["loaded"],
                    exit_code=1, output_tail=["perflab: boom"])]
    document = newcomer_report.result_document("0123456789abcdef", [], records, None, ["kept (--keep-data)"],
                                        date="2026-01-01T00:00:00+00:00")
    newcomer_report.write_results(document, tmp_path)
    report = (tmp_path / "REPORT.md").read_text()
    assert "## README" in report and "## wallet" in report and "first insight (README's first step to the " \
        "wallet walkthrough's last): not reached" in report
    assert "| 1. Load | 40 s | 49 s | missing: `loaded` | 1 |" in report and "perflab: boom" in report
    assert json.loads((tmp_path / "result.json").read_text())["steps"][1]["output_tail"] == ["perflab: boom"]


def test_only_one_page_replaces_that_pages_steps_in_the_committed_result():
    previous = {"version": newcomer_report.VERSION, "commit": "a", "date": "d1", "first_insight_seconds": 300,
                "steps": [{"page": "README", "title": "1"}, {"page": "wallet", "title": "1"},
                          {"page": "routes", "title": "old"}, {"page": "login", "title": "1"}]}
    run = {"commit": "b", "date": "d2", "one_time_seconds": 20, "steps": [{"page": "routes", "title": "new"}]}
    merged = newcomer_report.merge_only(previous, run, "routes")
    assert [(s["page"], s["title"]) for s in merged["steps"]] == [
        ("README", "1"), ("wallet", "1"), ("routes", "new"), ("login", "1")]
    assert merged["first_insight_seconds"] == 300 and merged["reruns"][0]["commit"] == "b"


def test_a_wallet_rerun_recomputes_the_first_insight_from_the_steps_it_now_holds():
    step = lambda page, seconds, timed=True, passed=True: {"page": page, "title": "t", "timed": timed,  # noqa: E731
                                                          "passed": passed, "measured_seconds": seconds}
    previous = {"version": newcomer_report.VERSION, "first_insight_seconds": 263.3,
                "steps": [step("README", 41.4), step("README", 170.0, timed=False), step("wallet", 200.0)]}
    run = {"commit": "b", "date": "d2", "one_time_seconds": 20, "steps": [step("wallet", 441.3), step("wallet", 0.0)]}
    assert newcomer_report.merge_only(previous, run, "wallet")["first_insight_seconds"] == 482.7
    run["steps"][0]["passed"] = False
    assert newcomer_report.merge_only(previous, run, "wallet")["first_insight_seconds"] is None


def docker_step(page, title, seconds, passed=True):
    return {"page": page, "title": title, "timed": True, "passed": passed, "found": passed, "exit_code": 0 if passed else 1,
            "measured_seconds": seconds, "stated_seconds": 60, "missing": [] if passed else ["x"], "skipped": False}


def test_a_docker_run_becomes_the_docker_record_beside_the_native_steps_and_a_native_run_keeps_it(tmp_path,
                                                                                                 monkeypatch):
    native = newcomer_report.result_document("a" * 40, [], [docker_step("README", "1. Start the lab", 46),
                                                            docker_step("routes", "1. Compare", 74)],
                                             300.0, ["dropped"], date="d1")
    run = newcomer_report.result_document("b" * 40, [{"title": "venv", "command": "x", "measured_seconds": 20,
                                                     "exit_code": 0}],
                                          [docker_step("README", "1. Start the lab", 100),
                                           docker_step("wallet", "1. Compare", 400, passed=False)],
                                          None, ["compose's project removed"], date="d2")
    merged = newcomer_report.merge_docker(native, run)
    assert merged["steps"] == native["steps"] and merged["first_insight_seconds"] == 300.0
    assert merged["docker"]["commit"] == "b" * 40 and merged["docker"]["steps"] == run["steps"]
    report = newcomer_report.report_markdown(merged)
    assert "| step | stated | measured | expected line | exit | on Docker |" in report
    assert "| 1. Start the lab | 60 s | 46 s | found | 0 | 100 s |" in report
    assert "| 1. Compare | 60 s | 74 s | found | 0 | – |" in report  # routes: not on the Docker path
    assert "first insight not reached; one-time installs 20 s (venv 20 s); data: compose's project removed" in report
    # a native run afterwards keeps the Docker record
    monkeypatch.setattr(newcomer, "RESULT_DIR", tmp_path)
    monkeypatch.setattr(newcomer, "ROOT", tmp_path.parent)
    newcomer_report.write_results(merged, tmp_path)
    monkeypatch.setattr(newcomer, "write_results", lambda document: newcomer_report.write_results(document, tmp_path))
    newcomer.record_results("c" * 40, [], native["steps"], ["dropped"], None)
    assert json.loads((tmp_path / "result.json").read_text())["docker"]["commit"] == "b" * 40


def test_the_docs_docker_block_sets_each_first_insight_step_on_docker_beside_the_same_step_natively():
    native = newcomer_report.result_document("a" * 40, [{"title": "venv", "command": "x", "measured_seconds": 27,
                                                        "exit_code": 0}],
                                             [docker_step("README", "1. Start the lab", 46),
                                              docker_step("wallet", "1. Compare", 111)], 157.0, ["dropped"], date="d1")
    assert newcomer_report.is_newcomer(native)
    assert "./perflab newcomer --docker" in newcomer_report.docker_view(native)  # no Docker record yet
    run = newcomer_report.result_document("b" * 40, [], [docker_step("README", "1. Start the lab", 100),
                                                         docker_step("wallet", "1. Compare", 420)],
                                          520.0, ["removed"], date="d2")
    view = newcomer_report.docker_view(newcomer_report.merge_docker(native, run))
    assert "| README: 1. Start the lab | 100 s | 46 s |" in view and "| wallet: 1. Compare | 7.0 min | 111 s |" in view
    assert "| **first insight** (README's first step to the wallet's last) | 8.7 min | 2.6 min |" in view
    assert "| one-time installs (before the first step) | – | 27 s |" in view


def test_the_docker_run_keeps_what_names_the_engine_and_runs_the_first_insight_only():
    env = newcomer.newcomer_env({"DOCKER_HOST": "unix:///run/x.sock", "DOCKER_CONFIG": "/c", "PERFLAB_PIP_WHEELS": "w",
                                 "PERFLAB_DB_PORT": "1", "JAVA_HOME": "/j"}, ROOT, docker=True)
    assert env["DOCKER_HOST"] == "unix:///run/x.sock" and env["PERFLAB_PIP_WHEELS"] == "w"
    assert "PERFLAB_DB_PORT" not in env and "JAVA_HOME" not in env
    assert "DOCKER_HOST" not in newcomer.newcomer_env({"DOCKER_HOST": "unix:///run/x.sock"}, ROOT)
    assert [t for t, _ in newcomer.docker_one_time_steps({})] == ["the Python environment (.perflab/venv)"]
    wheels = newcomer.docker_one_time_steps({"PERFLAB_PIP_WHEELS": "stack/docker/wheels"})[1][1]
    assert wheels == "bash stack/docker/wheels.sh stack/docker/wheels"
    assert "pip download" in (ROOT / "stack/docker/wheels.sh").read_text()
    pages = newcomer_steps.load_pages(ROOT)
    steps = newcomer_steps.docker_plan(pages)
    assert {s.page for s in steps} == {"README", *newcomer_steps.WALKTHROUGHS} and all(s.timed for s in steps)
    assert [s.page for s in steps][:2] == ["README", "wallet"]  # the first insight first
    refused = [{"output_tail": ["x", "cold-start-parser cannot run on the compose lab: JFR from launch. Run it"]}, {}]
    newcomer.mark_refusals(refused)
    assert refused[0]["refused"].startswith("cold-start-parser cannot run") and "refused" not in refused[1]
    pages = [dict(docker_step("wallet", "1", 100)), dict(docker_step("cold-start", "1", 8, passed=False),
                                                         refused="cold-start-parser cannot run on the compose lab"),
             dict(docker_step("cold-start", "2", 0, passed=False), skipped=True)]
    assert [r["page"] for r in newcomer.judged(pages)] == ["wallet"]  # a refusal by name is not a failure
    pages[1].pop("refused")
    assert len(newcomer.judged(pages)) == 3
    with pytest.raises(SystemExit):
        newcomer.parse(["--docker", "--only", "wallet"])


def test_the_docker_run_removes_composes_project_with_its_volumes_and_names_the_engine_when_it_fails(tmp_path,
                                                                                                       fake_docker):
    log = fake_docker()
    line = newcomer.compose_down(tmp_path, dict(os.environ), "fresh", lambda said: None)
    assert "--volumes" in log.read_text() and "--profile runner" in log.read_text() and line.endswith(": fresh")
    (tmp_path / "docker").write_text("#!/bin/sh\necho 'Cannot connect to the Docker daemon' >&2\nexit 1\n")
    with pytest.raises(SystemExit, match="docker compose down failed on the engine at unix:///nowhere.*Cannot connect"):
        newcomer.compose_down(tmp_path, dict(os.environ, DOCKER_HOST="unix:///nowhere"), "fresh", lambda said: None)


def test_perflab_lists_dispatches_and_suggests_the_newcomer_command():
    from perflab import cli
    assert "newcomer" in cli.COMMANDS and cli.module("newcomer").main.__module__ == "perflab.commands.newcomer"
    help_text = subprocess.run([str(ROOT / "perflab"), "help"], capture_output=True, text=True).stdout
    assert "  newcomer [--keep] [--keep-data] [--only PAGE] [--docker]\n" in help_text
    typo = subprocess.run([str(ROOT / "perflab"), "newcomr"], capture_output=True, text=True)
    assert "did you mean 'newcomer'?" in typo.stderr


# ---- the real pages and the committed result ----

def real_pages():
    assert WALKTHROUGHS.is_dir(), "docs/walkthroughs/ is missing: every walkthrough page is checked here"
    return newcomer_steps.page_files(ROOT)


def test_the_readme_and_every_walkthrough_have_quick_steps():
    pages = real_pages()
    assert {p for p, _, _ in pages} >= {"README", *newcomer_steps.WALKTHROUGHS}, "a walkthrough page is missing"
    for page, path, section in pages:
        assert newcomer_steps.parse_steps(path.read_text(), page, section), f"{page}: no step"


def committed_result():
    if os.environ.get(newcomer.IN_RUN):
        pytest.skip("inside ./perflab newcomer: this run replaces the committed result and judges its steps itself")
    assert RESULT.exists(), "no committed newcomer result (./perflab newcomer writes docs/results/newcomer/result.json)"
    return json.loads(RESULT.read_text())


def doc_steps():
    return {(s.page, s.command): s for s in newcomer_steps.plan(newcomer_steps.load_pages(ROOT))}


def test_every_measured_step_is_a_step_of_the_docs_and_its_stated_duration_agrees():
    real_pages()
    result = committed_result()
    documented = doc_steps()
    for measured in result["steps"]:
        key = (measured["page"], measured["command"])
        assert key in documented, (f"{measured['page']}: '{measured['title']}' was measured with a command the docs no "
                                   "longer have: ./perflab newcomer again")
        if not measured.get("passed"):
            continue
        stated = documented[key].stated
        assert newcomer_report.consistent(stated, measured["measured_seconds"]), (
            f"{measured['page']}: '{documented[key].title}' says about {stated:g} s, the committed result measured "
            f"{measured['measured_seconds']:g} s (measured <= 1.5 x stated and stated <= 3 x measured + 30 s)")


def test_every_step_of_the_docs_has_a_passing_measurement_behind_its_duration():
    real_pages()
    result = committed_result()
    passed = {(s["page"], s["command"]) for s in result["steps"] if s.get("passed")}
    unbacked = [f"{s.page}: {s.title}" for key, s in doc_steps().items() if key not in passed]
    assert unbacked == [], "steps whose stated duration no committed measurement backs: ./perflab newcomer"


def test_the_data_is_emptied_with_the_clones_passwords_once_its_stack_has_them(tmp_path):
    """The clone's one-time `stack up` gives the running MariaDB and Redis its own passwords: emptying uses them."""
    assert newcomer.clone_secret(tmp_path, "mariadb-password") == ""
    (tmp_path / ".perflab" / "secrets").mkdir(parents=True)
    (tmp_path / ".perflab" / "secrets" / "mariadb-password").write_text("clones\n")
    assert newcomer.clone_secret(tmp_path, "mariadb-password") == "clones"

"""The data sets' loaders (tooling/perflab/lab/datasets/seedlib.py, seed_wallet.py, seed_route.py): their command lines, SQL, generators and
PIN-key fingerprint without a database; then the real thing against MariaDB and Redis on this machine, in a database
of its own (PERFLAB_SEEDTEST_DB, default perflab_seedtest, dropped afterwards) and Redis db PERFLAB_SEEDTEST_REDIS_DB
(default 9, flushed), with a small data set. That part is skipped when MariaDB is not reachable, or when there is no
current target/perflab.jar (the migration runs the app; building it inside ./mvnw verify is not a test's job).
Run: ./perflab python -m pytest tooling/tests/lab/test_seeding.py"""
import hashlib
import hmac
import os
import pathlib
import re
import shutil
import subprocess
import time

import pytest

from perflab.lab import labsecrets
from perflab.lab.datasets import seed_route
from perflab.lab.datasets import seed_wallet
from perflab.lab.datasets import seedclone
from perflab.lab.datasets import seeding
from perflab.lab.datasets import seedlib

ROOT = seedlib.ROOT


def exit_code(fn, *args):
    with pytest.raises(seedlib.Exit) as stopped:
        fn(*args)
    return stopped.value.code


# ---- the command lines ----

def test_parse_takes_options_both_ways_and_the_last_action():
    values, action, forwarded = seedlib.parse(["--db=one", "load", "--index", "unique", "verify"],
                                              seed_wallet.OPTIONS, "usage")
    assert values == {"--db": "one", "--index": "unique"} and action == "verify" and forwarded == []
    assert seedlib.parse([], seed_wallet.OPTIONS, "usage") == ({}, "ensure", [])


def test_parse_stops_on_a_missing_value_with_1_and_an_unknown_word_with_the_usage_and_2(capsys):
    assert exit_code(seedlib.parse, ["--db"], seed_wallet.OPTIONS, "usage!") == 1
    assert exit_code(seedlib.parse, ["--db", "", "load"], seed_wallet.OPTIONS, "usage!") == 1
    assert capsys.readouterr().err == "perflab: --db needs a name\n" * 2
    assert exit_code(seedlib.parse, ["--db", "x", "--bogus"], seed_wallet.OPTIONS, "usage!") == 2
    assert capsys.readouterr().err == "usage!\n"


def test_parse_forwards_the_options_it_is_told_to_in_their_form_and_order():
    values, action, forwarded = seedlib.parse(["--redis-db", "4", "--db", "d", "--members=10", "status"],
                                              seed_route.COLD_OPTIONS, "usage", forward=seed_route.COLD_WALLET_OPTIONS)
    assert values == {"--db": "d"} and action == "status" and forwarded == ["--redis-db", "4", "--members=10"]


def test_main_names_the_kinds_when_the_kind_is_missing_or_unknown(capsys):
    assert seeding.main([]) == 1
    assert seeding.main(["nosuch", "ensure"]) == 1
    assert capsys.readouterr().err == "perflab: usage: ./perflab seed <name>; available: coldstart route wallet \n" * 2


@pytest.mark.parametrize("argv, code, err", [
    (["wallet", "--index", "middle"], 2, "perflab: --index must be unique or non-unique, not 'middle'\n"),
    (["wallet", "--bogus"], 2, seed_wallet.USAGE + "\n"),
    (["wallet", "--members", "1"], 2, "perflab: --members must be a number of at least 2, not '1'\n"),
    (["wallet", "--transfers", "x"], 2, "perflab: --transfers must be a number, not 'x'\n"),
    (["wallet", "locks", "--transfer", "fast"], 2, "perflab: --transfer must be naive or optimized, not 'fast'\n"),
    (["wallet", "locks", "--member", "m1"], 2, "perflab: --member must be a number, not 'm1'\n"),
    (["route", "--univs", "a,b"], 2, seed_route.USAGE + "\n"),
    (["route", "--univs", "1,"], 2, seed_route.USAGE + "\n"),
    (["route", "12x"], 2, seed_route.USAGE + "\n"),
    (["route", "--routes"], 1, "perflab: --routes needs a number\n"),
    (["coldstart", "--what"], 2, seed_route.COLD_USAGE + "\n"),
    (["coldstart", "--db="], 1, "perflab: --db needs a name\n"),
])
def test_bad_arguments_stop_before_any_service_is_asked(argv, code, err, capsys, monkeypatch):
    monkeypatch.setattr(seedlib, "require_services", lambda *s: pytest.fail("asked a service"))
    assert seeding.main(argv) == code
    assert capsys.readouterr().err == err


def test_a_service_that_is_down_is_named_with_how_to_start_it(capsys, monkeypatch):
    monkeypatch.setenv("PERFLAB_DB_HOST", "127.0.0.1")
    monkeypatch.setenv("PERFLAB_DB_PORT", "1")
    assert seeding.main(["wallet", "--db", "perflab_seedtest", "status"]) == 1
    assert seeding.main(["route", "--db", "perflab_seedtest", "verify"]) == 1
    assert capsys.readouterr().err == \
        "perflab: MariaDB is not running on 127.0.0.1:1: start it with ./perflab stack up mariadb\n" * 2


def test_route_reads_a_bare_number_as_routes_and_its_defaults_from_the_environment(monkeypatch):
    seen = []
    monkeypatch.setattr(seedlib, "require_services", lambda *s: None)
    monkeypatch.setattr(seed_route.Route, "status", lambda self: seen.append((self.lab.db, self.univs, self.routes)))
    monkeypatch.setenv("PERFLAB_DB_NAME", "perflab_x")
    monkeypatch.setenv("PERFLAB_ROUTE_UNIVS", "7,8")
    assert seed_route.main(["300", "status"]) == 0
    monkeypatch.delenv("PERFLAB_ROUTE_UNIVS")
    assert seed_route.main(["--db", "d", "--routes=5", "status"]) == 0
    assert seen == [("perflab_x", "7,8", "300"), ("d", "1,2,3", "5")]


def test_wallet_takes_its_redis_db_seed_dir_and_database_from_the_environment(monkeypatch):
    seen = []
    monkeypatch.setattr(seedlib, "require_services", lambda *s: None)
    monkeypatch.setattr(seed_wallet.Wallet, "status", lambda self: seen.append(
        (self.lab.db, self.redis.db, self.seed_dir, self.index, self.members, self.transfers)))
    monkeypatch.setenv("PERFLAB_DB_NAME", "perflab_x")
    monkeypatch.setenv("PERFLAB_REDIS_DB", "3")
    monkeypatch.delenv("WALLET_REDIS_DB", raising=False)
    monkeypatch.setenv("WALLET_SEED_DIR", "/tmp/somewhere")
    assert seed_wallet.main(["status"]) == 0
    monkeypatch.setenv("WALLET_REDIS_DB", "4")
    monkeypatch.delenv("WALLET_SEED_DIR")
    monkeypatch.setenv("TMPDIR", "/tmp/t")
    assert seed_wallet.main(["--db=", "--index", "unique", "--members", "10", "--transfers", "0", "status"]) == 0
    assert seed_wallet.main(["--redis-db", "6", "status"]) == 0
    assert seen == [("perflab_x", "3", "/tmp/somewhere", "", 100000, 500000),
                    ("perflab_x", "4", "/tmp/t/perflab-wallet-seed", "unique", 10, 0),
                    ("perflab_x", "6", "/tmp/t/perflab-wallet-seed", "", 100000, 500000)]


def test_coldstart_runs_the_wallet_part_with_the_unique_index_then_the_small_universities(monkeypatch):
    calls = []
    monkeypatch.setattr(seed_wallet, "main", lambda argv: calls.append(("wallet", argv)) or 0)
    monkeypatch.setattr(seed_route, "main", lambda argv: calls.append(("route", argv)) or 0)
    monkeypatch.delenv("PERFLAB_COLD_DB", raising=False)
    monkeypatch.setenv("COLD_ROUTES", "300")
    assert seed_route.coldstart(["--redis-db=9", "reset"]) == 0
    assert calls == [("wallet", ["--db", "perflab_wallet_after", "--index", "unique", "--redis-db=9", "reset"]),
                     ("route", ["--db", "perflab_wallet_after", "--univs", "11,12", "--routes", "300", "reset"])]


def test_coldstart_stops_with_the_wallet_parts_code(monkeypatch):
    calls = []
    monkeypatch.setattr(seed_wallet, "main", lambda argv: seedlib.fail("no", 3))
    monkeypatch.setattr(seed_route, "main", lambda argv: calls.append(argv))
    assert seed_route.coldstart(["--db", "d"]) == 3 and calls == []


def test_defaults_ensures_each_default_data_set_in_order_and_stops_at_the_first_failure(monkeypatch, capsys):
    calls = []
    monkeypatch.setitem(seeding.KINDS, "wallet", lambda argv: calls.append(("wallet", argv)) or 0)
    monkeypatch.setitem(seeding.KINDS, "route", lambda argv: calls.append(("route", argv)) or (4 if "11,12" in argv else 0))
    assert seeding.main(["defaults", "--db", "perflab_x"]) == 4
    assert calls == [("wallet", ["--db", "perflab_x", "ensure"]), ("route", ["--db", "perflab_x", "ensure"]),
                     ("route", ["--univs", "11,12", "--routes", "500", "--db", "perflab_x", "ensure"])]
    assert "[data set 3/3] route --univs 11,12 --routes 500" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["--db"], ["--db", ""], ["ensure"], ["--db", "x", "load"]])
def test_defaults_takes_only_a_database(argv, capsys):
    assert seeding.main(["defaults", *argv]) == 2
    assert "usage: ./perflab python -m perflab.lab.datasets.seeding defaults [--db NAME]" in capsys.readouterr().err


def test_the_seed_image_migrates_from_the_extracted_jar_and_the_host_through_the_launcher(monkeypatch):
    monkeypatch.setenv("PERFLAB_APP_CLASSPATH", "/app/perflab.jar")
    image = seedlib.migrate_command("java", "unique")
    assert image[:4] == ["java", "-Dsun.misc.unsafe.memory.access=allow", "-cp", "/app/perflab.jar"]
    assert image[4] == seedlib.MIGRATE_ONLY and "--perflab.wallet.index=unique" in image
    host = seedlib.migrate_command("/jdk/bin/java", jar="target/perflab.jar")
    assert host[2:6] == ["-Dloader.main=" + seedlib.MIGRATE_ONLY, "-cp", "target/perflab.jar",
                         "org.springframework.boot.loader.launch.PropertiesLauncher"]
    assert not any(arg.startswith("--perflab.wallet.index") for arg in host)


def test_redis_password_is_the_config_trees_when_there_is_one(tmp_path, monkeypatch):
    monkeypatch.setenv("PERFLAB_SECRETS_DIR", str(tmp_path))
    assert labsecrets.redis_password() == ""
    (tmp_path / "spring.data.redis.password").write_text("s3cret\n")
    assert labsecrets.redis_password() == "s3cret"


def test_run_turns_a_systemexit_message_into_1(capsys):
    def stops(argv):
        raise SystemExit("perflab: too few")
    assert seedlib.run(stops, []) == 1
    assert capsys.readouterr().err == "perflab: too few\n"


# ---- the shared parts ----

def test_load_env_fills_only_what_the_environment_lacks(tmp_path, monkeypatch):
    (tmp_path / ".env").write_text("# a comment=1\nSEEDTEST_A=from-env-file\nSEEDTEST_B=x\nSEEDTEST_C=a=b\nlower=1\n")
    monkeypatch.delenv("SEEDTEST_A", raising=False)
    monkeypatch.setenv("SEEDTEST_B", "")
    monkeypatch.delenv("SEEDTEST_C", raising=False)
    try:
        seedlib.load_env(tmp_path)
        assert (os.environ["SEEDTEST_A"], os.environ["SEEDTEST_B"], os.environ["SEEDTEST_C"]) == ("from-env-file", "", "a=b")
        assert "lower" not in os.environ
    finally:
        for name in ("SEEDTEST_A", "SEEDTEST_C"):
            os.environ.pop(name, None)


def test_progress_lines_are_timed_from_the_start_and_quiet_when_asked(capsys):
    lab = seedlib.Lab("db")
    lab.started -= 12.34
    lab.say("[3/5] loading")
    lab.quiet = True
    lab.say("hidden")
    assert capsys.readouterr().out == "[  12.3s] [3/5] loading\n"


def test_migration_versions_and_what_is_pending(monkeypatch):
    assert seedlib.migration_version("db/migrations/V3_1__wallet_member_index.sql") == "3.1"
    assert seedlib.migration_version("V12__x__y.sql") == "12"
    versions = sorted(map(seedlib.migration_version, (ROOT / "db" / "migrations").glob("V*__*.sql")))
    lab = seedlib.Lab("db")
    monkeypatch.setattr(lab, "value", lambda query: "")
    assert sorted(lab.pending_migrations()) == versions
    monkeypatch.setattr(lab, "value", lambda query: " ".join(versions[1:]))
    assert lab.pending_migrations() == [versions[0]]


def test_sql_strings_escape_quotes_and_backslashes():
    assert seedlib.sql_string("/tmp/it's\\x") == "'/tmp/it\\'s\\\\x'"


def test_count_lines_counts_newlines_like_wc(tmp_path):
    (tmp_path / "f").write_bytes(b"a\nb\nc")
    assert seedlib.count_lines(tmp_path / "f") == 2


# ---- the wallet: SQL, PIN key, generator ----

def test_the_cheap_check_and_the_reset_follow_the_seed_size():
    present = seed_wallet.present_sql(100_000, 500_000)
    assert "member WHERE id = 100000" in present and "wallet_transaction WHERE id = 1000000" in present
    assert "ledger_entry WHERE id = 2000000" in present
    reset = seed_wallet.reset_sql(1000, 2000)
    assert "DELETE FROM ledger_entry WHERE id > 8000;" in reset and "wallet_transaction WHERE id > 4000;" in reset
    assert "DELETE FROM wallet WHERE id > 1000 OR member_id > 1000;" in reset
    assert "DELETE FROM member WHERE id > 1000;" in reset and "DELETE FROM idempotency_key;" in reset


def test_the_members_load_keys_student_ids_and_pin_hashes(tmp_path):
    text = seed_wallet.members_sql(tmp_path, "PIN_EXPR")
    assert f"LOAD DATA LOCAL INFILE '{tmp_path}/member.tsv' INTO TABLE member (id, login_id, name, phone)" in text
    assert "SET student_id = CONCAT('S-', login_id);" in text and text.endswith("SET pin_hash = PIN_EXPR;")


KEY = b"a-hash-secret-of-this-checkout"


@pytest.fixture
def pin_4821(monkeypatch):
    """This install's PIN, as stack/secrets.sh writes it: 4821 here."""
    monkeypatch.setattr(labsecrets, "member_pin", lambda: "4821")


def test_the_seeds_pin_is_the_installs(tmp_path, monkeypatch):
    (tmp_path / "member-pin").write_text("5307")
    monkeypatch.setenv("PERFLAB_SECRETS_DIR", str(tmp_path))
    assert seed_wallet.pin() == "5307"
    assert "':5307'" in seed_wallet.pin_expression(KEY)


def test_the_fingerprint_is_member_0s_keyed_pin_hash(pin_4821):
    message = hashlib.sha256(b"perflab-pin:0:4821").hexdigest().encode()
    assert seed_wallet.fingerprint(KEY) == hmac.new(KEY, message, hashlib.sha256).hexdigest()[:16]
    assert seed_wallet.fingerprint(KEY) != seed_wallet.fingerprint(KEY + b"!")


def test_rekeying_writes_the_seeds_hashes_and_records_the_fingerprint(pin_4821):
    text = seed_wallet.rekey_sql(KEY, 1000)
    assert text.startswith(f"UPDATE wallet SET pin_hash = {seed_wallet.pin_expression(KEY)} WHERE id <= 1000;")
    assert text.count(f"'{seed_wallet.fingerprint(KEY)}'") == 2
    assert "SHA2(CONCAT('perflab-pin:', member_id, ':4821'), 256)" in seed_wallet.pin_expression(KEY)


class FakeLab(seedlib.Lab):
    def __init__(self, values=None):
        super().__init__("db")
        self.values, self.statements = values or {}, []

    def value(self, query):
        return self.values.get(query, "")

    def sql(self, *args, script=None, output=True):
        self.statements.append(args[-1] if script is None else script)


def wallet_on(lab, members=1000, transfers=2000, seed_dir="/tmp/x"):
    return seed_wallet.Wallet(lab, "", "9", members, transfers, seed_dir)


def test_keyed_pins_rewrites_the_hashes_only_when_the_recorded_key_differs(capsys, pin_4821):
    meta = "SELECT value FROM perflab_meta WHERE name = 'pin_key'"
    current = FakeLab({meta: seed_wallet.fingerprint(KEY)})
    wallet_on(current).keyed_pins(KEY)
    assert current.statements == [] and capsys.readouterr().out == ""
    stale = FakeLab({meta: "0123456789abcdef"})
    wallet_on(stale).keyed_pins(KEY)
    assert stale.statements == [seed_wallet.rekey_sql(KEY, 1000)]
    assert capsys.readouterr().out.endswith("] keying the wallets' PIN hashes with this checkout's hash secret and PIN\n")


def test_present_needs_all_four_of_the_seeds_last_rows():
    assert wallet_on(FakeLab({seed_wallet.present_sql(1000, 2000): "4"})).present()
    assert not wallet_on(FakeLab({seed_wallet.present_sql(1000, 2000): "3"})).present()
    assert not wallet_on(FakeLab({seed_wallet.present_sql(100000, 500000): "4"})).present()


def test_index_of_reads_null_as_none():
    assert wallet_on(FakeLab({seed_wallet.INDEX_SQL: "NULL"})).index_of() == ""
    assert wallet_on(FakeLab({seed_wallet.INDEX_SQL: "unique"})).index_of() == "unique"


def test_load_in_parts_loads_each_part_with_a_progress_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(seed_wallet, "PART_ROWS", 3)
    (tmp_path / "rows.tsv").write_text("".join(f"{n}\n" for n in range(7)))
    lab = FakeLab()
    wallet_on(lab).load_in_parts(tmp_path / "rows.tsv", "t (id)")
    assert len(lab.statements) == 3 and all(s.endswith("INTO TABLE t (id);") for s in lab.statements)
    assert [line.split("] ")[1] for line in capsys.readouterr().out.splitlines()] == \
        ["      3 of 7 rows", "      6 of 7 rows", "      7 of 7 rows"]


def test_status_names_the_command_that_loads_what_is_missing(capsys):
    wallet_on(FakeLab(), 100000, 500000).status()
    wallet_on(FakeLab()).status()
    wallet_on(FakeLab({seed_wallet.present_sql(1000, 2000): "4", seed_wallet.INDEX_SQL: "unique"})).status()
    assert capsys.readouterr().out.splitlines() == [
        "wallet: not loaded in db (./perflab seed wallet --db db)",
        "wallet: not loaded in db (./perflab seed wallet --db db --members 1000 --transfers 2000)",
        "wallet: loaded in db (1000 members, index unique)"]


def test_verify_passes_only_with_every_seed_wallet_and_every_invariant():
    line, passed = seed_wallet.verdict("1000\t1\t1\t1", 1000)
    assert line == "wallets 1000, money conserved 1, no negative balance 1, ledger balanced 1" and passed
    assert not seed_wallet.verdict("999\t1\t1\t1", 1000)[1]
    assert not seed_wallet.verdict("1000\t0\t1\t1", 1000)[1]
    assert not seed_wallet.verdict("1000\t1\t1\t0", 1000)[1]
    assert not seed_wallet.verdict("", 1000)[1]


def test_the_wallet_seed_is_deterministic_and_its_books_balance(tmp_path, capsys):
    seed_wallet.generate(tmp_path / "a", 50, 120)
    seed_wallet.generate(tmp_path / "b", 50, 120)
    files = ("member.tsv", "wallet.tsv", "history.tsv", "ledger.tsv")
    assert all((tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes() for f in files)
    members = (tmp_path / "a" / "member.tsv").read_text().splitlines()
    assert len(members) == 50 and members[6] == "7\tuser7\tUser 7\t01000000007"
    assert (tmp_path / "a" / "wallet.tsv").read_text().splitlines()[0] == "1\t1\t1000000.00"
    history = [line.split("\t") for line in (tmp_path / "a" / "history.tsv").read_text().splitlines()]
    ledger = [line.split("\t") for line in (tmp_path / "a" / "ledger.tsv").read_text().splitlines()]
    assert len(history) == 240 and len(ledger) == 480
    assert [int(row[0]) for row in ledger] == list(range(1, 481))
    assert history[0][:6] == ["1", "00000000-0000-4000-8000-000000000001", history[0][2], history[0][2], "TRANSFER_OUT",
                              history[0][5]] and history[0][11] == "2026-01-01 00:00:30"
    cents = lambda text: round(float(text) * 100)  # noqa: E731
    assert sum(cents(row[4]) for row in ledger) == sum(cents(row[5]) for row in ledger)
    assert all(row[2] != row[8] for row in history)  # nobody pays themselves
    assert capsys.readouterr().out.splitlines()[-1].startswith("  generated 240 history rows and 480 ledger rows (")


# ---- the route: SQL, generator ----

def test_the_route_sql_reads_tabs_and_bumps_the_route_version(tmp_path):
    text = seed_route.load_sql(tmp_path)
    assert f"LOAD DATA LOCAL INFILE '{tmp_path}/route.tsv' INTO TABLE route FIELDS TERMINATED BY '\\t'" in text
    assert "route_version = route_version + 1" in text
    assert seed_route.delete_sql("4,5").splitlines()[1:] == ["DELETE FROM route WHERE univ_id IN (4,5);",
                                                            "DELETE FROM node WHERE univ_id IN (4,5);"]
    assert "HAVING COUNT(*) = 300" in seed_route.present_sql("4,5", "300")


def test_route_present_counts_the_universities_that_are_complete():
    def route(count):
        return seed_route.Route(FakeLab({seed_route.present_sql("4,5", "300"): count}), "4,5", "300")
    assert route("2").present() and not route("1").present()


def test_the_route_graph_has_exactly_the_routes_asked_for_each_university(tmp_path, capsys):
    seed_route.generate(tmp_path, [4, 5], 300)
    routes = [line.split("\t") for line in (tmp_path / "route.tsv").read_text().splitlines()]
    nodes = {line.split("\t")[0] for line in (tmp_path / "node.tsv").read_text().splitlines()}
    assert [sum(1 for r in routes if r[1] == u) for u in ("4", "5")] == [300, 300]
    assert all(r[2] in nodes and r[3] in nodes and float(r[4]) > 0 for r in routes)
    assert (tmp_path / "university.tsv").read_text() == "4\tUniversity 4\n5\tUniversity 5\n"
    assert re.fullmatch(r"  university 4: \d+ nodes, 300 routes\n  university 5: \d+ nodes, 300 routes\n",
                        capsys.readouterr().out)
    first = (tmp_path / "route.tsv").read_bytes()
    seed_route.generate(tmp_path, [4, 5], 300)
    assert (tmp_path / "route.tsv").read_bytes() == first


def test_too_few_routes_for_the_walkways_stop_with_a_message(tmp_path):
    with pytest.raises(SystemExit, match="3 routes cannot cover the .* walkways of university 4"):
        seed_route.generate(tmp_path, [4], 3)


# ---- the real thing ----

DB = os.environ.get("PERFLAB_SEEDTEST_DB", "perflab_seedtest")
REDIS_DB = os.environ.get("PERFLAB_SEEDTEST_REDIS_DB", "9")
SIZE = ["--members", "1000", "--transfers", "2000"]


def integration_skip():
    if not shutil.which("mariadb"):
        return "no mariadb client on this machine"
    seedlib.load_env()
    if not seedlib.service_up("mariadb"):
        return f"MariaDB is not reachable on {seedlib.service_address('mariadb')} (./perflab stack up mariadb)"
    jar = ROOT / "target" / "perflab.jar"
    if not jar.is_file():
        return "no target/perflab.jar: the migration runs the app (./mvnw -DskipTests package builds it)"
    built = jar.stat().st_mtime
    sources = [ROOT / "pom.xml", *(p for p in (ROOT / "src" / "main").rglob("*") if p.is_file())]
    if any(p.stat().st_mtime > built for p in sources):
        return "target/perflab.jar is older than src/main: ./perflab migrate would rebuild it inside this test"
    return None


SKIP = integration_skip()
integration = pytest.mark.skipif(SKIP is not None, reason=f"seeding against the real services: {SKIP}")


def seed(*args, env=None):
    """./perflab seed ... as a user runs it; (exit code, stdout + stderr, seconds)."""
    began = time.monotonic()
    done = subprocess.run([str(ROOT / "perflab"), "seed", *args], cwd=ROOT, capture_output=True, text=True,
                          env=dict(env, SPRING_PROFILES_ACTIVE=""))
    return done.returncode, done.stdout + done.stderr, time.monotonic() - began


def mariadb(query, database=DB):
    return seedlib.Lab.client(*([database] if database else []), "-N", "-B", "-e", query, capture_output=True,
                              check=True).stdout.strip()


def redis(*args):
    return subprocess.run(["redis-cli", "-h", seedlib.env("PERFLAB_REDIS_HOST", "127.0.0.1"),
                           "-p", seedlib.env("PERFLAB_REDIS_PORT", "6379"), "-n", REDIS_DB, *args],
                          capture_output=True, text=True, check=True,
                          env={**os.environ, "REDISCLI_AUTH": labsecrets.redis_password()}).stdout


@pytest.fixture
def fresh(tmp_path):
    """The test's own database, absent at the start and dropped at the end; its Redis db empty; its seed files."""
    def clean():
        mariadb(f"DROP DATABASE IF EXISTS {DB}", database=None)
        # the template a small data set's clones come from (tooling/perflab/lab/datasets/seedclone.py): this test's size only
        mariadb(f"DROP DATABASE IF EXISTS {seedclone.template_name('wallet', '1000_2000')}", database=None)
        if shutil.which("redis-cli") and seedlib.service_up("redis"):
            redis("FLUSHDB")
    clean()
    yield dict(os.environ, WALLET_SEED_DIR=str(tmp_path / "seed"))
    clean()


def lines(output):
    """The output without the progress lines' times."""
    return [re.sub(r"^\[ *[0-9.]+s\] ", "", line) for line in output.splitlines()]


@integration
def test_the_wallet_data_set_loads_once_resets_a_runs_writes_and_verifies(fresh):
    code, out, _ = seed("wallet", "--db", DB, *SIZE, "--redis-db", REDIS_DB, "status", env=fresh)
    assert (code, out) == (0, f"wallet: not loaded in {DB} (./perflab seed wallet --db {DB} {' '.join(SIZE)})\n")

    code, out, _ = seed("wallet", "--db", DB, *SIZE, "--redis-db", REDIS_DB, env=fresh)
    assert code == 0, out
    got = lines(out)
    assert got[0] == f"wallet data set: not in {DB}; loading it (once)"
    assert f"database {DB}: migrations pending (all); migrating" in got
    for line in (f"database {DB}, wallet.member_id index: non-unique",
                 f"[1/5] generating the seed files in {fresh['WALLET_SEED_DIR']} (python3, once)",
                 "[3/5] loading 1000 members and wallets", "[4/5] loading 4000 history rows", "      4000 of 4000 rows",
                 "[5/5] loading 8000 ledger rows", "keying the wallets' PIN hashes with this checkout's hash secret and PIN",
                 f"deleted 0 wallet:* keys in Redis db {REDIS_DB}"):
        assert line in got, (line, out)
    assert got[-1] == f"wallet data set loaded into {DB}"

    code, out, seconds = seed("wallet", "--db", DB, *SIZE, "--redis-db", REDIS_DB, "ensure", env=fresh)
    assert (code, lines(out)) == (0, [f"wallet data set: in place in {DB}"]) and seconds < 20

    # the keyed PIN hash in SQL is the app's: HMAC-SHA256 with the hash secret
    key = labsecrets.hash_secret()
    assert mariadb("SELECT pin_hash FROM wallet WHERE id = 17") == labsecrets.pin_hash(key, 17, labsecrets.member_pin())

    # what a run writes, and keys it caches
    mariadb("UPDATE wallet SET balance = balance - 100 WHERE id = 1; UPDATE wallet SET balance = balance + 100 WHERE id = 2;"
            " UPDATE member SET phone = '01099999999' WHERE id = 3;"
            " INSERT INTO ledger_entry (id, group_id, wallet_id, ledger_code_id, debit, credit)"
            " VALUES (8001, 'g', 1, 1, 5.00, 0.00), (8002, 'g', 2, 2, 0.00, 5.00);"
            " INSERT INTO idempotency_key (member_id, idem_key, request_hash, response_status, response_body)"
            " VALUES (1, 'k', 'h', 200, '{}');"
            " INSERT INTO member (id, login_id, name, phone) VALUES (1001, 'extra', 'Extra', '01100000000');"
            " UPDATE perflab_meta SET value = 'stale' WHERE name = 'pin_key'")
    redis("SET", "wallet:member-by-phone::01000000005", '{"id":5,"name":"User 5"}')
    redis("SET", "wallet:member-by-phone::01000000006", '{"id":7}')
    redis("SET", "wallet:balance::5", "1")
    redis("SET", "guess:pin:5", "3")
    code, out, _ = seed("wallet", "--db", DB, *SIZE, "verify", env=fresh)
    assert (code, out) == (0, "wallets 1000, money conserved 1, no negative balance 1, ledger balanced 1\n")

    code, out, _ = seed("wallet", "--db", DB, *SIZE, "--redis-db", REDIS_DB, "reset", env=fresh)
    assert code == 0, out
    got = lines(out)
    assert got[:5] == [f"database {DB}, wallet.member_id index: non-unique", "deleting what the runs added",
                       f"Redis db {REDIS_DB}: kept 1 phone cache entries the reset left right, deleted 2 wallet:* keys",
                       "keying the wallets' PIN hashes with this checkout's hash secret and PIN", "reset"]
    assert re.search(r"\| +1000 \| +1000 \| +4000 \| +8000 \| +0 \|", out), out
    assert sorted(redis("--scan").split()) == ["wallet:member-by-phone::01000000005"]
    assert mariadb("SELECT phone FROM member WHERE id = 3") == "01000000003"
    assert mariadb("SELECT value FROM perflab_meta WHERE name = 'pin_key'") == labsecrets.pin_hash(key, 0, labsecrets.member_pin())[:16]

    mariadb("UPDATE wallet SET balance = balance + 1 WHERE id = 1")
    code, out, _ = seed("wallet", "--db", DB, *SIZE, "verify", env=fresh)
    assert (code, out) == (1, "wallets 1000, money conserved 0, no negative balance 1, ledger balanced 1\n")
    code, out, _ = seed("wallet", "--db", DB, *SIZE, "check", env=fresh)
    assert code == 0 and "expected_sum" in out and "1000000001.00" in out
    code, out, _ = seed("wallet", "--db", DB, *SIZE, "--index", "unique", "ensure", env=fresh)
    assert (code, out) == (1, f"perflab: database {DB} was migrated with the non-unique wallet.member_id index, not "
                              f"unique; use another --db, or drop it (DROP DATABASE {DB}) and seed again\n")
    code, out, _ = seed("wallet", "--db", DB, *SIZE, "status", env=fresh)
    assert (code, out) == (0, f"wallet: loaded in {DB} (1000 members, index non-unique)\n")


@integration
def test_the_route_and_cold_start_data_sets_load_once_and_verify(fresh):
    small = ["--univs", "21,22", "--routes", "300"]
    code, out, _ = seed("route", "--db", DB, *small, "verify", env=fresh)
    assert (code, out) == (1, f"route data in {DB}: incomplete (./perflab seed route --db {DB})\n")
    code, out, _ = seed("route", "--db", DB, *small, env=fresh)
    assert code == 0, out
    got = lines(out)
    assert got[0] == f"route data set: not in {DB}; loading it (once)" and "[1/3] generating the graphs: universities " \
        "21,22, 300 routes each (python3)" in got
    assert re.search(r"^\[3/3\] LOAD DATA LOCAL INFILE: \d+ nodes, 600 routes$", "\n".join(got), re.M), out
    assert got[-3:] == [f"route data set loaded into {DB}", "university 21 (University 21): 300 routes, version 1",
                        "university 22 (University 22): 300 routes, version 1"]
    code, out, _ = seed("route", "--db", DB, *small, "ensure", env=fresh)
    assert (code, lines(out)) == (0, [f"route data set: in place in {DB} (universities 21,22, 300 routes each)"])
    code, out, _ = seed("route", "--db", DB, "--univs=21", "300", "load", env=fresh)
    assert code == 0 and lines(out)[-1] == "university 21 (University 21): 300 routes, version 2", out
    assert seed("route", "--db", DB, *small, "reset", env=fresh)[:2] == \
        (0, "route data is never changed by a run: nothing to reset\n")
    assert seed("route", "--db", DB, *small, "verify", env=fresh)[:2] == \
        (0, f"route: loaded in {DB} (universities 21,22, 300 routes each)\n")

    # the cold-start mix wants the unique index: a database of its own (this one again, dropped first)
    mariadb(f"DROP DATABASE {DB}", database=None)
    cold = dict(fresh, COLD_ROUTES="300")
    code, out, _ = seed("coldstart", "--db", DB, *SIZE, "--redis-db", REDIS_DB, env=cold)
    assert code == 0, out
    got = lines(out)
    assert f"database {DB}, wallet.member_id index: unique" in got and f"wallet data set loaded into {DB}" in got
    assert got[-2:] == ["university 11 (University 11): 300 routes, version 1",
                        "university 12 (University 12): 300 routes, version 1"]
    code, out, _ = seed("coldstart", "--db", DB, *SIZE, "--redis-db", REDIS_DB, "ensure", env=cold)
    assert (code, lines(out)) == (0, [f"wallet data set: in place in {DB}",
                                      f"route data set: in place in {DB} (universities 11,12, 300 routes each)"])
    code, out, _ = seed("coldstart", "--db", DB, *SIZE, "status", env=cold)
    assert (code, out) == (0, f"wallet: loaded in {DB} (1000 members, index unique)\n"
                              f"route: loaded in {DB} (universities 11,12, 300 routes each)\n")


def test_route_positions_have_6_decimals_and_distances_2_and_the_check_counts_an_older_precision_as_missing(tmp_path):
    seed_route.generate(tmp_path, [7], 400)
    nodes = (tmp_path / "node.tsv").read_text().splitlines()
    routes = (tmp_path / "route.tsv").read_text().splitlines()
    assert len(routes) == 400
    assert all(len(field.split(".")[1]) == 6 for line in nodes for field in line.split("\t")[2:4])
    assert all(len(line.split("\t")[4].split(".")[1]) == 2 for line in routes)
    sql = seed_route.present_sql("1,2", "50000")
    assert "HAVING COUNT(*) = 50000 AND MAX(ABS(distance * 100 - ROUND(distance * 100))) < 1e-6)" in sql
    assert "HAVING COUNT(*) = 50000) AS complete" in seed_route.present_sql("1,2", "50000", precise=False)

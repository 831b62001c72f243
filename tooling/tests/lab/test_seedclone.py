"""tooling/perflab/lab/datasets/seedclone.py: its SQL and names without a database; then a tiny template cloned both ways (INSERT ... SELECT
and, where this machine has the server's data folder and root socket, transportable tablespaces) against the real
MariaDB, in databases of the test's own (perflab_clonetest_*, dropped afterwards); skipped without MariaDB."""
import shutil
import subprocess

import pytest

from perflab.lab.datasets import seedclone
from perflab.lab.datasets import seedlib


def test_template_names_stay_inside_the_grant_and_name_the_size():
    assert seedclone.template_name("wallet") == "perflab_template_wallet"
    assert seedclone.template_name("wallet", "1000_2000") == "perflab_template_wallet_1000_2000"
    assert seedclone.template_name("Wallet", "a-b") == "perflab_template_wallet_a_b"


def test_show_create_table_in_batch_mode_becomes_the_statement_with_its_foreign_keys():
    row = "wallet\tCREATE TABLE `wallet` (\\n  `id` bigint,\\n  CONSTRAINT `fk` FOREIGN KEY (`m`) REFERENCES `member` (`id`)\\n)"
    assert seedclone.create_table_sql(row) == ("CREATE TABLE `wallet` (\n  `id` bigint,\n"
                                               "  CONSTRAINT `fk` FOREIGN KEY (`m`) REFERENCES `member` (`id`)\n)")


def test_the_scripts_name_every_table_with_foreign_key_checks_off():
    copy = seedclone.copy_script("perflab_template_wallet", ["member", "wallet"])
    assert copy.startswith("SET foreign_key_checks = 0;")
    assert "INSERT INTO `wallet` SELECT * FROM `perflab_template_wallet`.`wallet`;" in copy
    discard = seedclone.discard_script(["CREATE TABLE `member` (id int)"], ["member"])
    assert discard.index("CREATE TABLE `member`") < discard.index("ALTER TABLE `member` DISCARD TABLESPACE;")
    assert seedclone.import_script(["a", "b"]).endswith("ALTER TABLE `a` IMPORT TABLESPACE;\nALTER TABLE `b` IMPORT TABLESPACE;\n")
    assert seedclone.quoted("we`ird") == "`we``ird`"


def test_the_ready_line_says_how_long_and_how():
    assert seedclone.ready_line("perflab_wallet_after", 3.24, "cloned from template t, tablespace") == \
        "database perflab_wallet_after ready in 3.2 s (cloned from template t, tablespace)"


def test_perflab_clone_picks_the_way(monkeypatch):
    monkeypatch.setenv("PERFLAB_CLONE", "off")
    assert not seedclone.enabled()
    monkeypatch.setenv("PERFLAB_CLONE", "copy")
    assert seedclone.enabled() and seedclone.choose("any_template") == ("copy", None)


# ---- against the real MariaDB ----

def skip_reason():
    if not shutil.which("mariadb"):
        return "no mariadb client"
    seedlib.load_env()
    if not seedlib.service_up("mariadb"):
        return "MariaDB is not reachable"
    return None


SKIP = skip_reason()
TEMPLATE, COPY = "perflab_clonetest_template", "perflab_clonetest_copy"


def sql(query, database=None):
    return seedlib.Lab.client(*([database] if database else []), "-N", "-B", "-e", query, capture_output=True,
                              check=True).stdout.strip()


SCHEMA = ("CREATE TABLE member (id BIGINT PRIMARY KEY, name VARCHAR(50));"
          "CREATE TABLE wallet (id BIGINT PRIMARY KEY AUTO_INCREMENT, member_id BIGINT NOT NULL, balance DECIMAL(15,2),"
          " KEY idx_wallet_member_id (member_id), CONSTRAINT fk_wallet_member FOREIGN KEY (member_id) REFERENCES member (id));"
          "CREATE TABLE ledger_entry (id BIGINT PRIMARY KEY, debit DECIMAL(15,2), credit DECIMAL(15,2));"
          "INSERT INTO member SELECT seq, CONCAT('User ', seq) FROM seq_1_to_500;"
          "INSERT INTO wallet (member_id, balance) SELECT seq, 1000000.00 FROM seq_1_to_500;"
          "INSERT INTO ledger_entry SELECT seq, IF(seq % 2, 5.00, 0), IF(seq % 2, 0, 5.00) FROM seq_1_to_1000")
FACTS = ("SELECT (SELECT COUNT(*) FROM member), (SELECT COUNT(*) FROM wallet), SUM(balance) = COUNT(*) * 1000000.00,"
         " (SELECT SUM(debit) = SUM(credit) FROM ledger_entry), (SELECT COUNT(*) FROM ledger_entry) FROM wallet")


@pytest.fixture
def template():
    def clean():
        sql(f"DROP DATABASE IF EXISTS {TEMPLATE}; DROP DATABASE IF EXISTS {COPY}")
    clean()
    sql(f"CREATE DATABASE {TEMPLATE}")
    sql(SCHEMA, TEMPLATE)
    yield TEMPLATE
    clean()


def ways():
    found = ["copy"]
    if SKIP is None and seedclone.tablespace_access("information_schema") is not None:
        found.append("tablespace")
    return found


@pytest.mark.skipif(SKIP is not None, reason=f"cloning against MariaDB: {SKIP}")
@pytest.mark.parametrize("way", ways())
def test_a_clone_has_the_templates_rows_indexes_foreign_keys_and_invariants(template, way, monkeypatch, capsys):
    monkeypatch.setenv("PERFLAB_CLONE", way)
    said = []
    assert seedclone.clone(seedlib.Lab(COPY), template, said.append) == way
    assert said == [f"cloned 3 tables from {template} ({way})"]
    assert sql(FACTS, COPY) == sql(FACTS, template) == "500\t500\t1\t1\t1000"
    for table in ("member", "wallet", "ledger_entry"):
        assert sql(f"SHOW CREATE TABLE {table}", COPY) == sql(f"SHOW CREATE TABLE {table}", template)
        assert sql(f"CHECKSUM TABLE {table}", COPY).split()[1] == sql(f"CHECKSUM TABLE {table}", template).split()[1]
    # the template is untouched and writable, the copy is a table space of its own
    sql("UPDATE wallet SET balance = 0 WHERE id = 1", COPY)
    assert sql("SELECT balance FROM wallet WHERE id = 1", template) == "1000000.00"
    with pytest.raises(subprocess.CalledProcessError):  # the foreign key came along
        sql("INSERT INTO wallet (member_id, balance) VALUES (9999, 1)", COPY)


def test_the_template_lock_is_held_by_one_seeder_at_a_time(tmp_path, monkeypatch):
    import fcntl
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    with seedclone.template_lock("perflab_template_x"):
        with open(tmp_path / "perflab_template_x.lock") as other:
            with pytest.raises(BlockingIOError):
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
    with open(tmp_path / "perflab_template_x.lock") as other:
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free again

"""tooling/perflab/lab/datasets/innodb_locks.py: the wallet mappers' locking statements, the parser of SHOW ENGINE INNODB STATUS's lock list
(text captured from MariaDB 10.11), the session's output; then once against the real MariaDB, in two small databases
of the test's own (PERFLAB_TEST_DB + _locks_nu/_u, dropped afterwards), skipped without the native stack's socket."""
import os
import shutil

import pytest

from perflab.lab.datasets import innodb_locks
from perflab.lab.datasets import seedlib

# two sessions' transactions; ours (thread 84) holds a next-key lock on the member's index record, a record lock on
# the wallet's row and a gap lock before the next member's record; the other waits for a lock
STATUS = """------------
TRANSACTIONS
------------
Trx id counter 202
LIST OF TRANSACTIONS FOR EACH SESSION:
---TRANSACTION 199, ACTIVE 3 sec starting index read
mysql tables in use 1, locked 1
LOCK WAIT 2 lock struct(s), heap size 1128, 1 row lock(s)
MariaDB thread id 90, OS thread handle 140254722533000, query id 970 localhost perflab Sending data
SELECT id FROM wallet WHERE member_id = 50000 FOR UPDATE
------- TRX HAS BEEN WAITING 3 SEC FOR THIS LOCK TO BE GRANTED:
RECORD LOCKS space id 20 page no 226 n bits 824 index fk_wallet_member of table `perflab_x`.`wallet` trx id 199 lock_mode X waiting
Record lock, heap no 549 PHYSICAL RECORD: n_fields 2; compact format; info bits 0
 0: len 8; hex 800000000000c350; asc        P;;

------------------
TABLE LOCK table `perflab_x`.`wallet` trx id 199 lock mode IX
---TRANSACTION 201, ACTIVE 0 sec
4 lock struct(s), heap size 1128, 3 row lock(s)
MariaDB thread id 84, OS thread handle 140254722533056, query id 975 localhost root starting
SHOW ENGINE INNODB STATUS
TABLE LOCK table `perflab_x`.`wallet` trx id 201 lock mode IX
RECORD LOCKS space id 20 page no 226 n bits 824 index fk_wallet_member of table `perflab_x`.`wallet` trx id 201 lock_mode X
Record lock, heap no 549 PHYSICAL RECORD: n_fields 2; compact format; info bits 0
 0: len 8; hex 800000000000c350; asc        P;;
 1: len 8; hex 800000000000c350; asc        P;;

RECORD LOCKS space id 20 page no 306 n bits 408 index PRIMARY of table `perflab_x`.`wallet` trx id 201 lock_mode X locks rec but not gap
Record lock, heap no 240 PHYSICAL RECORD: n_fields 6; compact format; info bits 0
 0: len 8; hex 800000000000c350; asc        P;;

RECORD LOCKS space id 20 page no 226 n bits 824 index fk_wallet_member of table `perflab_x`.`wallet` trx id 201 lock_mode X locks gap before rec
Record lock, heap no 550 PHYSICAL RECORD: n_fields 2; compact format; info bits 0
 0: len 8; hex 800000000000c351; asc        Q;;
Record lock, heap no 551 PHYSICAL RECORD: n_fields 2; compact format; info bits 0
 0: len 8; hex 800000000000c352; asc        R;;

--------
FILE I/O
--------
RECORD LOCKS space id 1 page no 1 n bits 8 index PRIMARY of table `perflab_x`.`wallet` trx id 201 lock_mode X
"""


def test_the_statements_are_the_mappers_with_the_members_written_in():
    assert innodb_locks.statement("naive", 7) == ("SELECT id, member_id, balance, pin_hash, NULL AS owner_name FROM wallet "
                                                  "WHERE member_id = 7 FOR UPDATE")
    optimized = innodb_locks.statement("optimized", 7)
    assert "WHERE w.member_id IN (7, 17) ORDER BY w.member_id FOR UPDATE" in optimized and "#{" not in optimized


def test_the_parser_reads_only_the_sessions_transaction_and_names_each_lock_kind():
    locks = innodb_locks.parse(STATUS, 84)
    assert locks == [innodb_locks.Lock("perflab_x.wallet", "", "IX", "table", 0),
                     innodb_locks.Lock("perflab_x.wallet", "fk_wallet_member", "X", "next-key", 1),
                     innodb_locks.Lock("perflab_x.wallet", "PRIMARY", "X", "record", 1),
                     innodb_locks.Lock("perflab_x.wallet", "fk_wallet_member", "X", "gap", 2)]
    assert innodb_locks.counts(locks, "perflab_x.wallet", "fk_wallet_member") == {"next_key": 1, "gap_only": 2, "record_only": 0}


def test_a_waiting_lock_and_mysqls_thread_line_parse_too():
    assert innodb_locks.parse(STATUS, 90) == [innodb_locks.Lock("perflab_x.wallet", "fk_wallet_member", "X", "next-key", 1),
                                              innodb_locks.Lock("perflab_x.wallet", "", "IX", "table", 0)]
    mysql = STATUS.replace("MariaDB thread id 84", "MySQL thread id 84")
    assert [lock.kind for lock in innodb_locks.parse(mysql, 84)] == ["table", "next-key", "record", "gap"]


def test_a_thread_without_a_transaction_has_no_locks():
    assert innodb_locks.parse(STATUS, 8) == [] and innodb_locks.parse("", 84) == []


def test_the_description_says_record_only_or_with_the_gap():
    lines = innodb_locks.describe(innodb_locks.parse(STATUS, 84))
    assert lines == ["  wallet: IX table lock",
                     "  wallet.fk_wallet_member: X next-key lock (the record and the gap before it), 1 record",
                     "  wallet.PRIMARY: X record lock (locks rec but not gap), 1 record",
                     "  wallet.fk_wallet_member: X gap lock (only the gap before the record), 2 records"]


def test_the_sessions_output_splits_into_its_thread_and_the_status():
    out = f"84\n1\t50000\n{innodb_locks.MARK}\nInnoDB\t\t\nTRANSACTIONS\n"
    assert innodb_locks.split_session_output(out) == (84, "InnoDB\t\t\nTRANSACTIONS\n")
    script = innodb_locks.session_script("db", "SELECT 1 FOR UPDATE")
    assert script.index("START TRANSACTION") < script.index("SELECT 1 FOR UPDATE") < script.index("SHOW ENGINE") \
        < script.index("ROLLBACK") < script.index("= @was")
    untouched = innodb_locks.session_script("db", "SELECT 1 FOR UPDATE", toggle=False)  # compose's: on from its start
    assert "SET GLOBAL" not in untouched and untouched.index("START TRANSACTION") < untouched.index("SHOW ENGINE")


def test_the_transfer_knob_is_read_from_the_apps_variant_info():
    exposition = ('perflab_variant_info{feature="login",knob="client",value="pooled",variant="x"} 1.0\n'
                  'perflab_variant_info{feature="wallet",knob="transfer",value="optimized",variant="x"} 1.0\n')
    assert innodb_locks.transfer_in(exposition) == "optimized"
    assert innodb_locks.transfer_in("perflab_variant_info{feature=\"login\",knob=\"transfer\",value=\"a\"} 1\n") is None


ANALYZE = """{
  "query_optimization": {"r_total_time_ms": 0.1},
  "query_block": {"select_id": 1, "r_loops": 1, "r_total_time_ms": 0.12,
    "nested_loop": [{"table": {"table_name": "w", "access_type": "range", "key": "ux_wallet_member_id", "rows": 2, "r_rows": 2}},
                    {"table": {"table_name": "m", "access_type": "eq_ref", "key": "PRIMARY", "rows": 1, "r_rows": 1}}]}
}
{
  "query_block": {"select_id": 1, "r_total_time_ms": 0.04,
    "table": {"table_name": "w", "access_type": "const", "key": "ux_wallet_member_id", "rows": 1}}
}
"""


def test_analyze_gives_the_plan_of_the_first_run_and_the_mean_time_of_all():
    tables, mean_ms = innodb_locks.plan(innodb_locks.analyses(ANALYZE))
    assert tables == ["w range key ux_wallet_member_id rows 2 (read 2)", "m eq_ref key PRIMARY rows 1 (read 1)"]
    assert mean_ms == pytest.approx((0.1 + 0.12 + 0.04) / 2)
    assert innodb_locks.timing_script("db", "SELECT 1", 3).count("ANALYZE FORMAT=JSON SELECT 1;") == 3


# ---- against the real MariaDB ----

def admin_skip():
    if not shutil.which("mariadb"):
        return "no mariadb client"
    seedlib.load_env()
    if not seedlib.service_up("mariadb"):
        return "MariaDB is not reachable"
    if not innodb_locks.admin_socket().exists():
        return "no native-stack MariaDB socket (the lock report's administrator)"
    return None


SKIP = admin_skip()
DB = os.environ.get("PERFLAB_TEST_DB", "perflab_test") + "_locks"


def sql(query, database=None):
    seedlib.Lab.client(*([database] if database else []), "-e", query, capture_output=True, check=True)


@pytest.fixture
def two_indexes():
    """wallet and member tables of 100 members in two databases, one with each index on wallet.member_id."""
    names = {"non-unique": f"{DB}_nu", "unique": f"{DB}_u"}
    for index, db in names.items():
        key = "UNIQUE KEY ux_wallet_member_id" if index == "unique" else "KEY idx_wallet_member_id"
        sql(f"DROP DATABASE IF EXISTS {db}; CREATE DATABASE {db}")
        sql("CREATE TABLE member (id BIGINT PRIMARY KEY, name VARCHAR(50));"
            "CREATE TABLE wallet (id BIGINT PRIMARY KEY AUTO_INCREMENT, member_id BIGINT NOT NULL, balance DECIMAL(15,2),"
            f" pin_hash VARCHAR(64), {key} (member_id));"
            "INSERT INTO member SELECT seq, CONCAT('User ', seq) FROM seq_1_to_100;"
            "INSERT INTO wallet (member_id, balance, pin_hash) SELECT seq, 1, 'x' FROM seq_1_to_100", db)
    yield names
    for db in names.values():
        sql(f"DROP DATABASE IF EXISTS {db}")


@pytest.mark.skipif(SKIP is not None, reason=f"the lock report against MariaDB: {SKIP}")
def test_the_non_unique_index_also_locks_the_gap_before_the_next_member_and_the_unique_one_does_not(two_indexes):
    for transfer, members in (("naive", 1), ("optimized", 2)):
        non_unique = innodb_locks.report(two_indexes["non-unique"], "non-unique", transfer, 50)
        unique = innodb_locks.report(two_indexes["unique"], "unique", transfer, 50)
        assert non_unique[-1].startswith(f"next_key={members} gap_only={members} record_only=0 statement_ms=")
        found = dict(pair.split("=") for pair in unique[-1].split())
        assert found["gap_only"] == "0" and int(found["next_key"]) + int(found["record_only"]) == members
        assert "key ux_wallet_member_id" in unique[2] and float(found["statement_ms"]) > 0
        assert any("PRIMARY: X record lock (locks rec but not gap)" in line for line in unique)

"""The wallet data set of seed 004: 100,000 members and wallets, 1,000,000 history rows, 2,000,000 ledger rows.

  ./perflab seed wallet [--db NAME] [--index unique|non-unique] [--redis-db N] [--members N] [--transfers N]
                        [ensure|load|reset|verify|check|status]
  ./perflab seed wallet [--db NAME] locks [--transfer naive|optimized | --port N] [--member N]

  ensure (default) cheap check (the seed's last rows are there); if not: create and migrate the database when
         needed (the app in migrate-only mode), then load. What ./perflab up runs; seconds when loaded.
  load   replace the wallet data with the seed: generate TSV files (deterministic, cached under
         $WALLET_SEED_DIR) and LOAD DATA LOCAL INFILE them; re-running gives the same state (about 40 s)
  reset  between runs, in seconds: delete what transfers added (history and ledger rows past the seed, every
         idempotency record, members and wallets past the seed's), put balances and phones back, and delete every
         wallet Redis key (wallet:* in Redis db --redis-db) the reset made wrong. A phone cache entry that maps a
         seed phone to its own seed member is right again after the reset and stays, so wallet-after's cache is
         as warm in every run as it is in service (the seed's phones change rarely); anything else goes: phones
         a run changed, members a run created, the ledger codes
  verify exit 0 only when the seed's members are there, money is conserved, no balance is negative and the
         ledger balances
  check  print counts and the invariants: sum of balances, no negative balance, debits = credits
  status one line: loaded or not (the cheap check); ./perflab status prints it
  locks  the locks the transfer's locking statement takes on this database's index, as InnoDB lists them, and its
         EXPLAIN; rolled back (tooling/perflab/lab/datasets/innodb_locks.py). --transfer: which statement (default naive); --port: the
         transfer knob of the app on that port instead; --member: whose wallet (default 50000)

--db: the database (default PERFLAB_DB_NAME, perflab). --index: the wallet.member_id index a NEW database gets
(the Flyway placeholder wallet_member_index, perflab.wallet.index); default: the active profile's
(SPRING_PROFILES_ACTIVE), else non-unique. A database keeps the index it was first migrated with; asking for
the other one is an error. --redis-db: where the app under test caches (default WALLET_REDIS_DB, else
PERFLAB_REDIS_DB, else 0). --members and --transfers: a smaller data set of the same shape (tests; default
100000 and 500000, two history rows and four ledger rows a transfer).
"""
import itertools
import os
import pathlib
import subprocess
import tempfile
import time
import types
from collections.abc import Callable
from typing import cast

from perflab.lab.datasets import innodb_locks
from perflab.lab import labsecrets
from perflab.lab.datasets import seed_wallet_redis
from perflab.lab.datasets import seedclone
from perflab.lab.datasets import seedlib

MEMBERS, TRANSFERS = 100_000, 500_000
USAGE = ("usage: ./perflab seed wallet [--db NAME] [--index unique|non-unique] [--redis-db N] [--members N] "
         "[--transfers N] [ensure|load|reset|verify|check|status]\n"
         "       ./perflab seed wallet [--db NAME] locks [--transfer naive|optimized | --port N] [--member N]")
OPTIONS = {"--db": "--db needs a name", "--index": "--index needs unique or non-unique",
           "--redis-db": "--redis-db needs a number", "--members": "--members needs a number",
           "--transfers": "--transfers needs a number", "--transfer": "--transfer needs naive or optimized",
           "--port": "--port needs a number", "--member": "--member needs a number"}
ACTIONS = (*seedlib.ACTIONS, "locks")
PART_ROWS = 500_000  # LOAD DATA in parts of this many rows, one progress line each


# ---- the seed files ----

BANK_ASSET, BANK_PAYABLE = 1, 2  # ids from V3__wallet.sql
EPOCH = 1767225600  # 2026-01-01T00:00:00Z


def generate(out: str | os.PathLike[str], members: int = MEMBERS, transfers: int = TRANSFERS) -> None:
    """Writes the seed as tab-separated files for LOAD DATA LOCAL INFILE in `out`. Deterministic: the same
    arguments give the same bytes. members: login user{n}, phone 010 + n in 8 digits, balance 1,000,000.00;
    transfers: two history rows and four ledger rows each."""
    os.makedirs(out, exist_ok=True)
    started = time.time()

    def progress(what: str) -> None:
        print(f"  generated {what} ({time.time() - started:.1f}s)", flush=True)

    def money(cents: int) -> str:
        return f"{cents // 100}.{cents % 100:02d}"

    with open(os.path.join(out, "member.tsv"), "w") as f:
        f.writelines(f"{n}\tuser{n}\tUser {n}\t010{n:08d}\n" for n in range(1, members + 1))
    with open(os.path.join(out, "wallet.tsv"), "w") as f:
        f.writelines(f"{n}\t{n}\t1000000.00\n" for n in range(1, members + 1))
    progress(f"{members} members and wallets")

    with open(os.path.join(out, "history.tsv"), "w") as history, open(os.path.join(out, "ledger.tsv"), "w") as ledger:
        hist, led = [], []
        for t in range(1, transfers + 1):
            sender = (t * 7919) % members + 1
            receiver = (sender - 1 + 1 + (t * 104729) % (members - 1)) % members + 1
            cents = 100_000 + (t * 31337) % 9_900_000  # 1,000.00 .. 99,999.99
            amount = money(cents)
            s_before = 100_000_000 + (t * 7) % 50_000_000
            r_before = 100_000_000 + (t * 13) % 50_000_000
            group = f"00000000-0000-4000-8000-{t:012d}"
            ts = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(EPOCH + t * 30))
            hist.append(f"{2 * t - 1}\t{group}\t{sender}\t{sender}\tTRANSFER_OUT\t{amount}\t{money(s_before)}"
                        f"\t{money(s_before - cents)}\t{receiver}\tUser {receiver}\tSUCCESS\t{ts}\n")
            hist.append(f"{2 * t}\t{group}\t{receiver}\t{receiver}\tTRANSFER_IN\t{amount}\t{money(r_before)}"
                        f"\t{money(r_before + cents)}\t{sender}\tUser {sender}\tSUCCESS\t{ts}\n")
            base = 4 * (t - 1)
            led.append(f"{base + 1}\t{group}\t{sender}\t{BANK_PAYABLE}\t{amount}\t0.00\t{ts}\n")
            led.append(f"{base + 2}\t{group}\t{sender}\t{BANK_ASSET}\t0.00\t{amount}\t{ts}\n")
            led.append(f"{base + 3}\t{group}\t{receiver}\t{BANK_ASSET}\t{amount}\t0.00\t{ts}\n")
            led.append(f"{base + 4}\t{group}\t{receiver}\t{BANK_PAYABLE}\t0.00\t{amount}\t{ts}\n")
            if t % 50_000 == 0:
                history.writelines(hist)
                ledger.writelines(led)
                hist, led = [], []
                progress(f"{t} of {transfers} transfers")
        history.writelines(hist)
        ledger.writelines(led)
    progress(f"{2 * transfers} history rows and {4 * transfers} ledger rows")


# ---- the keyed PIN hashes ----

def pin_sql() -> types.ModuleType:
    """scripts/seed/pin_hash_sql.py, the one SQL formula of the keyed PIN hash (shared with tooling/perflab/lab/labsecrets.py)."""
    return labsecrets.seeder_sql()


def hash_key() -> bytes:
    """The app's hash secret as bytes (PERFLAB_SECURITY_HASH_SECRET, else the secrets file, which stack/secrets.sh
    writes once when it is missing; compose's secrets service writes the seed image's)."""
    try:
        return labsecrets.hash_secret().encode()
    except subprocess.CalledProcessError as failed:
        raise seedlib.Exit(failed.returncode) from None


def pin() -> str:
    """Every seed wallet's PIN: this install's member-pin (stack/secrets.sh; compose's secrets service writes the seed
    image's)."""
    try:
        return labsecrets.member_pin()
    except subprocess.CalledProcessError as failed:
        raise seedlib.Exit(failed.returncode) from None


def pin_expression(key: bytes) -> str:
    """The SQL of each wallet's keyed PIN hash, for its member_id column."""
    return cast(str, pin_sql().expression("member_id", pin(), key))


def fingerprint(key: bytes) -> str:
    """What perflab_meta's pin_key records of the key and the PIN: the first 16 hex digits of member 0's PIN hash."""
    return labsecrets.pin_hash(key.decode(), 0, pin())[:16]


def rekey_sql(key: bytes, members: int) -> str:
    """Writes the wallets' PIN hashes again with `key` and records its fingerprint."""
    mark = fingerprint(key)
    return (f"UPDATE wallet SET pin_hash = {pin_expression(key)} WHERE id <= {members};\n"
            f"      INSERT INTO perflab_meta (name, value) VALUES ('pin_key', '{mark}')\n"
            f"      ON DUPLICATE KEY UPDATE value = '{mark}';")


# ---- SQL ----

def present_sql(members: int, transfers: int) -> str:
    """The cheap check: primary-key lookups of the seed's last member, wallet, history row and ledger row (4)."""
    return (f"SELECT (SELECT COUNT(*) FROM member WHERE id = {members}) + (SELECT COUNT(*) FROM wallet WHERE id = {members})\n"
            f"    + (SELECT COUNT(*) FROM wallet_transaction WHERE id = {2 * transfers})"
            f" + (SELECT COUNT(*) FROM ledger_entry WHERE id = {4 * transfers})")


INDEX_SQL = ("SELECT IF(MIN(non_unique) = 0, 'unique', 'non-unique') FROM information_schema.statistics\n"
             "    WHERE table_schema = DATABASE() AND table_name = 'wallet' AND column_name = 'member_id'")

# what V3_1__wallet_member_index.sql runs for the unique index (a clone of the non-unique template gets it so)
UNIQUE_INDEX_SQL = "ALTER TABLE wallet ADD CONSTRAINT ux_wallet_member_id UNIQUE (member_id), DROP INDEX idx_wallet_member_id"

TRUNCATE_SQL = ("SET foreign_key_checks = 0;\n"
                "    TRUNCATE idempotency_key; TRUNCATE ledger_entry; TRUNCATE wallet_transaction; TRUNCATE wallet; "
                "TRUNCATE member;")

HISTORY = ("wallet_transaction (id, group_id, wallet_id, member_id, type, amount,\n"
           "    balance_before, balance_after, counterparty_member_id, counterparty_name, status, created_at)")
LEDGER = "ledger_entry (id, group_id, wallet_id, ledger_code_id, debit, credit, created_at)"


def members_sql(seed_dir: str | os.PathLike[str], pin_hash: str) -> str:
    """Members carry the stub's studentId (S-<login id>), which login keys them on; wallets the keyed PIN hash."""
    return ("SET foreign_key_checks = 0; SET unique_checks = 0;\n"
            f"    LOAD DATA LOCAL INFILE {seedlib.sql_string(pathlib.Path(seed_dir) / 'member.tsv')} "
            "INTO TABLE member (id, login_id, name, phone)\n"
            "      SET student_id = CONCAT('S-', login_id);\n"
            f"    LOAD DATA LOCAL INFILE {seedlib.sql_string(pathlib.Path(seed_dir) / 'wallet.tsv')} "
            "INTO TABLE wallet (id, member_id, balance)\n"
            f"      SET pin_hash = {pin_hash};")


def part_sql(part: pathlib.Path, target: str) -> str:
    return (f"SET foreign_key_checks = 0; SET unique_checks = 0; LOAD DATA LOCAL INFILE {seedlib.sql_string(part)} "
            f"INTO TABLE {target};")


def reset_sql(members: int, transfers: int) -> str:
    """Deletes what the runs added and puts balances and phones back."""
    return (f"DELETE FROM ledger_entry WHERE id > {4 * transfers};\n"
            f"    DELETE FROM wallet_transaction WHERE id > {2 * transfers};\n"
            "    DELETE FROM idempotency_key;\n"
            f"    DELETE FROM wallet WHERE id > {members} OR member_id > {members};\n"
            f"    DELETE FROM member WHERE id > {members};\n"
            "    UPDATE wallet SET balance = 1000000.00 WHERE balance <> 1000000.00;\n\n"
            "    UPDATE member SET phone = CONCAT('010', LPAD(id, 8, '0'))\n"
            "      WHERE phone IS NULL OR phone <> CONCAT('010', LPAD(id, 8, '0'));")


GUARD_TABLE_SQL = ("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE() "
                   "AND table_name = 'guard_guess'")

# what a reset prints: the rows and balances it put back (0.3 s on the wallet data set)
RESET_CHECK_SQL = """SELECT (SELECT COUNT(*) FROM member) AS members, (SELECT COUNT(*) FROM wallet) AS wallets,
      (SELECT COUNT(*) FROM wallet_transaction) AS history, (SELECT COUNT(*) FROM ledger_entry) AS ledger,
      (SELECT COUNT(*) FROM idempotency_key) AS idempotency_keys;
    SELECT SUM(balance) AS sum_of_balances, MIN(balance) AS min_balance, COUNT(*) * 1000000.00 AS expected_sum FROM wallet;"""
# check: those and the ledger's sums. The sums read 2,000,000 rows (about 1 s): a reset leaves them to the
# runner's invariant (verify), which runs after every measured run
CHECK_SQL = RESET_CHECK_SQL + """
    SELECT SUM(debit) AS debits, SUM(credit) AS credits, SUM(debit) = SUM(credit) AS balanced FROM ledger_entry;"""

# verify: every wallet started at 1,000,000.00 and transfers only move money
VERIFY_SQL = """SELECT COUNT(*), COALESCE(SUM(balance) = COUNT(*) * 1000000.00, 0), COALESCE(MIN(balance) >= 0, 0),
      (SELECT COALESCE(SUM(debit), 0) = COALESCE(SUM(credit), 0) FROM ledger_entry) FROM wallet"""


def verdict(row: str, members: int) -> tuple[str, bool]:
    """verify's line and whether it passes, from VERIFY_SQL's row (tab-separated)."""
    wallets, conserved, non_negative, balanced = (row.split() + ["", "", "", ""])[:4]
    line = f"wallets {wallets}, money conserved {conserved}, no negative balance {non_negative}, ledger balanced {balanced}"
    return line, wallets.isdigit() and int(wallets) >= members and (conserved, non_negative, balanced) == ("1", "1", "1")


# ---- the actions ----

class Wallet:
    def __init__(self, lab: seedlib.Lab, index: str, redis_db: str, members: int, transfers: int,
                 seed_dir: str) -> None:
        self.lab, self.index, self.members, self.transfers = lab, index, members, transfers
        self.redis = seed_wallet_redis.Redis(lab, redis_db)
        self.seed_dir = seed_dir  # as given: the progress lines name it so

    def present(self) -> bool:
        return self.lab.value(present_sql(self.members, self.transfers)) == "4"

    def index_of(self) -> str:
        """The index of wallet.member_id: unique, non-unique, or '' before the wallet migration."""
        index = self.lab.value(INDEX_SQL)
        return "" if index == "NULL" else index

    def require_schema(self) -> None:
        lab = self.lab
        lab.ensure_migrated(self.index)
        index = self.index_of()
        if self.index and index != self.index:
            seedlib.fail(f"perflab: database {lab.db} was migrated with the {index} wallet.member_id index, not "
                         f"{self.index}; use another --db, or drop it (DROP DATABASE {lab.db}) and seed again")
        lab.say(f"database {lab.db}, wallet.member_id index: {index}")

    def ensure(self) -> None:
        lab = self.lab
        if self.index and seedclone.enabled() and not lab.database_exists() and lab.db != self.template():
            self.clone()
            return
        if lab.schema_current() and self.present():
            if self.index and self.index_of() != self.index:
                self.require_schema()
            self.keyed_pins()
            lab.say(f"wallet data set: in place in {lab.db}")
            return
        lab.say(f"wallet data set: not in {lab.db}; loading it (once)")
        self.load()

    def template(self) -> str:
        """The template database this data set is loaded into once (its size in the name when not the seed's)."""
        size = "" if (self.members, self.transfers) == (MEMBERS, TRANSFERS) else f"{self.members}_{self.transfers}"
        return seedclone.template_name("wallet", size)

    def clone(self) -> None:
        """A new database as a copy of the template (loaded first when it is not, with the non-unique index of
        V3__wallet.sql), then given the index asked for by the same statement as V3_1__wallet_member_index.sql,
        its PIN hashes keyed and the Redis db's wallet keys deleted, as after a load; says how long the copy took."""
        lab = self.lab
        template = Wallet(seedlib.Lab(self.template()), "non-unique", self.redis.db, self.members, self.transfers,
                          self.seed_dir)
        template.lab.started = lab.started
        with seedclone.template_lock(template.lab.db):
            template.ensure()
            watch = seedclone.Stopwatch()
            lab.say(f"wallet data set: cloning {template.lab.db} into {lab.db}")
            how = seedclone.clone(lab, template.lab.db, lab.say)
        if self.index == "unique" and self.index_of() != "unique":
            lab.sql("-e", UNIQUE_INDEX_SQL)
        self.require_schema()
        self.keyed_pins()
        self.clear_redis()
        lab.say(f"wallet data set loaded into {lab.db}")
        lab.say(seedclone.ready_line(lab.db, watch.seconds(), f"cloned from template {template.lab.db}, {how}"))

    def load(self) -> None:
        lab, seed_dir = self.lab, pathlib.Path(self.seed_dir)
        self.require_schema()
        done = seed_dir / f".done-{self.members}-{self.transfers}"
        if not done.is_file():
            lab.say(f"[1/5] generating the seed files in {self.seed_dir} (python3, once)")
            for old in seed_dir.glob(".done-*"):
                old.unlink()
            generate(seed_dir, self.members, self.transfers)
            done.touch()
        else:
            lab.say(f"[1/5] reusing the seed files in {self.seed_dir}")
        lab.say("[2/5] emptying the wallet tables")
        lab.sql("-e", TRUNCATE_SQL)
        lab.say(f"[3/5] loading {self.members} members and wallets")
        key = hash_key()
        lab.sql("-e", members_sql(seed_dir, pin_expression(key)))
        lab.say(f"[4/5] loading {2 * self.transfers} history rows")
        self.load_in_parts(seed_dir / "history.tsv", HISTORY)
        lab.say(f"[5/5] loading {4 * self.transfers} ledger rows")
        self.load_in_parts(seed_dir / "ledger.tsv", LEDGER)
        lab.sql("-e", "ANALYZE TABLE member, wallet, wallet_transaction, ledger_entry", output=False)
        self.keyed_pins(key)
        self.clear_redis()
        lab.say(f"wallet data set loaded into {lab.db}")

    def load_in_parts(self, path: pathlib.Path, target: str) -> None:
        total = seedlib.count_lines(path)
        loaded = 0
        with tempfile.TemporaryDirectory() as parts, open(path, "rb") as rows:
            for number in itertools.count():
                chunk = list(itertools.islice(rows, PART_ROWS))
                if not chunk:
                    break
                part = pathlib.Path(parts) / f"part-{number:02d}"
                part.write_bytes(b"".join(chunk))
                self.lab.sql("-e", part_sql(part, target))
                part.unlink()
                loaded += len(chunk)
                self.lab.say(f"      {loaded} of {total} rows")

    def keyed_pins(self, key: bytes | None = None) -> None:
        """The seed's PIN hashes are keyed with this checkout's hash secret and hold its PIN (stack/secrets.sh). A data
        set loaded by another checkout, or before the secret or PIN changed, gets its hashes written again: one UPDATE
        of the seed's wallets, recorded as a fingerprint of the key in perflab_meta."""
        key = key or hash_key()
        if self.lab.value("SELECT value FROM perflab_meta WHERE name = 'pin_key'") != fingerprint(key):
            self.lab.say("keying the wallets' PIN hashes with this checkout's hash secret and PIN")
            self.lab.sql("-e", rekey_sql(key, self.members))

    def clear_redis(self) -> None:
        if self.redis.reachable():
            deleted = self.redis.delete("wallet:*")
            self.lab.say(f"deleted {deleted} wallet:* keys in Redis db {self.redis.db}")

    def prune_redis(self) -> None:
        """After a reset: delete the wallet:* keys that no longer hold, keep the rest (PRUNE_LUA), and the PIN and
        login guards' counts (guess:*): a reset starts every member with no wrong guesses."""
        if not self.redis.reachable():
            return
        self.redis.delete("guess:*")
        counts = self.redis.cli("EVAL", seed_wallet_redis.PRUNE_LUA, "0", str(self.members)).split() + ["?", "?"]
        self.lab.say(f"Redis db {self.redis.db}: kept {counts[0]} phone cache entries the reset left right, "
                     f"deleted {counts[1]} wallet:* keys")

    def reset(self) -> None:
        self.require_schema()
        self.lab.say("deleting what the runs added")
        self.lab.sql("-e", reset_sql(self.members, self.transfers))
        if self.lab.value(GUARD_TABLE_SQL) == "1":  # the guards' counts while Redis was down (db/migrations V8)
            self.lab.sql("-e", "DELETE FROM guard_guess;")
        self.prune_redis()
        self.keyed_pins()
        self.lab.say("reset")
        self.lab.sql("-t", "-e", RESET_CHECK_SQL)

    def check(self) -> None:
        self.lab.sql("-t", "-e", CHECK_SQL)

    def verify(self) -> int:
        line, passed = verdict(self.lab.rows(VERIFY_SQL), self.members)
        print(line, flush=True)
        return 0 if passed else 1

    def status(self) -> None:
        lab = self.lab
        size = "" if (self.members, self.transfers) == (MEMBERS, TRANSFERS) else \
            f" --members {self.members} --transfers {self.transfers}"
        if self.present():
            print(f"wallet: loaded in {lab.db} ({self.members} members, index {self.index_of()})", flush=True)
        else:
            print(f"wallet: not loaded in {lab.db} (./perflab seed wallet --db {lab.db}{size})", flush=True)

    def locks(self, transfer: str, port: int, member: int) -> None:
        """Prints the locks the transfer's locking statement takes here (tooling/perflab/lab/datasets/innodb_locks.py)."""
        transfer = innodb_locks.transfer_of(port) if port else transfer
        for line in innodb_locks.report(self.lab.db, self.index_of(), transfer, member):
            print(line, flush=True)

    def quietly(self, step: Callable[[], object]) -> None:
        """`step` with its progress lines and the migration's output silenced (check and verify)."""
        self.lab.quiet = True
        try:
            step()
        finally:
            self.lab.quiet = False


def number(values: dict[str, str], option: str, default: int) -> int:
    text = values.get(option)
    if text is None:
        return default
    if not text.isdigit() or int(text) < (2 if option == "--members" else 0):
        seedlib.fail(f"perflab: {option} must be a number{' of at least 2' if option == '--members' else ''}, "
                     f"not '{text}'", 2)
    return int(text)


def main(argv: list[str]) -> int:
    """`./perflab seed wallet ...`: returns the exit code (raises seedlib.Exit when it stops early)."""
    values, action, _ = seedlib.parse(argv, OPTIONS, USAGE, actions=ACTIONS)
    index = values.get("--index", "")
    transfer = values.get("--transfer", "naive")
    if transfer not in innodb_locks.STATEMENTS:
        seedlib.fail(f"perflab: --transfer must be naive or optimized, not '{transfer}'", 2)
    port, member = number(values, "--port", 0), number(values, "--member", MEMBERS // 2)
    if index not in ("", "unique", "non-unique"):
        seedlib.fail(f"perflab: --index must be unique or non-unique, not '{index}'", 2)
    members, transfers = number(values, "--members", MEMBERS), number(values, "--transfers", TRANSFERS)
    redis_db = values.get("--redis-db", seedlib.env("WALLET_REDIS_DB", seedlib.env("PERFLAB_REDIS_DB", "0")))
    seedlib.load_env()
    lab = seedlib.Lab(values.get("--db") or seedlib.env("PERFLAB_DB_NAME", "perflab"))
    seed_dir = seedlib.env("WALLET_SEED_DIR", os.path.join(seedlib.env("TMPDIR", "/tmp"), "perflab-wallet-seed"))
    wallet = Wallet(lab, index, redis_db, members, transfers, seed_dir)
    seedlib.require_services("mariadb")
    if action in ("check", "verify"):
        wallet.quietly(wallet.require_schema)
    if action == "locks":
        wallet.locks(transfer, port, member)
        return 0
    actions: dict[str, Callable[[], int | None]] = {
        "ensure": wallet.ensure, "load": wallet.load, "reset": wallet.reset, "check": wallet.check,
        "verify": wallet.verify, "status": wallet.status}
    return actions[action]() or 0


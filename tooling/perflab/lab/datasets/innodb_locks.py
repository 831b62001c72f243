"""The locks a wallet variant's locking statement takes, as InnoDB reports them (not as the SQL suggests):
`./perflab seed wallet --db NAME locks [--transfer naive|optimized] [--port N] [--member N]`.

One session on the variant's database turns on innodb_status_output_locks (and puts it back afterwards), starts a
transaction, runs the statement the mapper runs (read from its MyBatis XML: NaiveTransferMapper.lockWallet for one
member, BatchedTransferMapper.lockWallets for two), reads SHOW ENGINE INNODB STATUS and rolls back. Reading the
status needs the PROCESS privilege and the variable SUPER, which the lab's user lacks: the session is the native
stack's administrator, over MariaDB's socket (as stack/native.sh connects). Beside it, the statement's plan and
time from ANALYZE FORMAT=JSON (EXPLAIN, executed), run RUNS times outside a transaction, as the case study timed its
statement 50 times.

The last line is KEY=VALUE for a probe mechanism: next_key and gap_only count the wallet's member_id index records
locked with the gap before them (next-key) or only the gap before them; record_only those locked without a gap;
statement_ms is the mean of ANALYZE's r_total_time_ms (optimization and execution) over the runs.
Python standard library only, like the seeders."""
import getpass
import json
import os
import pathlib
import re
import subprocess
import urllib.request
import xml.etree.ElementTree as ElementTree
from typing import Any, NamedTuple

from perflab.lab import labenv
from perflab.lab.datasets import seedlib
from perflab.paths import ROOT
MAPPERS = ROOT / "src" / "main" / "resources" / "dev" / "perflab" / "wallet"
STATEMENTS = {"naive": ("before/NaiveTransferMapper.xml", "lockWallet"),
              "optimized": ("after/BatchedTransferMapper.xml", "lockWallets")}
SECOND_MEMBER = 10  # the optimized statement locks two wallets: the member's and this many members further on
MARK = "perflab-innodb-status"
ATTEMPTS = 3  # sessions tried before the report says InnoDB listed no lock
RUNS = 50  # the case study's repetitions of its statement


class Lock(NamedTuple):
    table: str  # `db`.`table` as InnoDB prints it, without the quotes: db.table
    index: str  # type: ignore[assignment]  # "" for a table lock (the name InnoDB uses; it hides tuple.index)
    mode: str  # X, S, IX, IS
    kind: str  # table, next-key, gap, record, insert-intention
    records: int  # the records a record lock covers (0 for a table lock)


KIND = {"": "next-key", " locks gap before rec": "gap", " locks rec but not gap": "record",
        " locks gap before rec insert intention": "insert-intention", " insert intention": "insert-intention"}
WORDS = {"next-key": "next-key lock (the record and the gap before it)", "gap": "gap lock (only the gap before the record)",
         "record": "record lock (locks rec but not gap)", "insert-intention": "insert intention", "table": "table lock"}
RECORD_LOCKS = re.compile(r"^RECORD LOCKS .*? index (?P<index>\S+) of table `(?P<db>[^`]+)`\.`(?P<table>[^`]+)` trx id \d+ "
                          r"lock[_ ]mode (?P<mode>\w+)(?P<rest>[^\n]*?)(?: waiting)?$")
TABLE_LOCK = re.compile(r"^TABLE LOCK table `(?P<db>[^`]+)`\.`(?P<table>[^`]+)` trx id \d+ lock mode (?P<mode>\w+)")


def statement(transfer: str, member: int) -> str:
    """The mapper's locking statement for `member` (the optimized one also for member + SECOND_MEMBER), its
    parameters written in, on one line."""
    path, name = STATEMENTS[transfer]
    element = next(e for e in ElementTree.parse(MAPPERS / path).getroot() if e.get("id") == name)
    values = {"memberId": member, "first": member, "second": member + SECOND_MEMBER}
    sql = re.sub(r"#\{(\w+)\}", lambda m: str(values[m.group(1)]), element.text or "")
    return " ".join(sql.split())


def transaction_block(status: str, thread_id: int) -> list[str]:
    """The lines of the one transaction in SHOW ENGINE INNODB STATUS's list that `thread_id` runs ("MariaDB thread
    id N," or MySQL's "MySQL thread id N,"), from its ---TRANSACTION line up to the next one or the section's end."""
    lines = status.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("---TRANSACTION")]
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else next(
            (i for i in range(start + 1, len(lines)) if re.match(r"^-{8,}$", lines[i])), len(lines))
        block = lines[start:end]
        if any(re.match(rf"^(MariaDB|MySQL) thread id {thread_id},", line) for line in block):
            return block
    return []


def parse(status: str, thread_id: int) -> list[Lock]:
    """The locks the transaction of `thread_id` holds, from SHOW ENGINE INNODB STATUS with
    innodb_status_output_locks=ON: one Lock per TABLE LOCK line and per RECORD LOCKS line, the latter with the
    number of "Record lock, heap no" lines under it."""
    locks: list[Lock] = []
    for line in transaction_block(status, thread_id):
        if table := TABLE_LOCK.match(line):
            locks.append(Lock(f"{table['db']}.{table['table']}", "", table["mode"], "table", 0))
        elif record := RECORD_LOCKS.match(line):
            rest = record["rest"].rstrip()
            kind = KIND.get(rest, rest.strip() or "next-key")
            locks.append(Lock(f"{record['db']}.{record['table']}", record["index"], record["mode"], kind, 0))
        elif line.startswith("Record lock, heap no") and locks and locks[-1].kind != "table":
            locks[-1] = locks[-1]._replace(records=locks[-1].records + 1)
    return locks


def counts(locks: list[Lock], table: str, index: str) -> dict[str, int]:
    """KEY=VALUE counts of the records locked in one index: next_key, gap_only, record_only."""
    def records(kind: str) -> int:
        return sum(lock.records for lock in locks if lock.table == table and lock.index == index and lock.kind == kind)
    return {"next_key": records("next-key"), "gap_only": records("gap"), "record_only": records("record")}


def describe(locks: list[Lock]) -> list[str]:
    """One line per lock, in the order InnoDB lists them."""
    return [f"  {lock.table.split('.', 1)[1]}{'.' + lock.index if lock.index else ''}: {lock.mode} "
            f"{WORDS.get(lock.kind, lock.kind)}" + (f", {lock.records} record{'s' * (lock.records != 1)}" if lock.index else "")
            for lock in locks]


def analyses(text: str) -> list[dict[str, Any]]:
    """The JSON documents of a run of ANALYZE FORMAT=JSON statements (-N -B -r output, one after the other)."""
    found: list[dict[str, Any]] = []
    decoder, at = json.JSONDecoder(), 0
    while (start := text.find("{", at)) >= 0:
        document, at = decoder.raw_decode(text, start)
        found.append(document)
    return found


def plan(documents: list[dict[str, Any]]) -> tuple[list[str], float]:
    """(one line per table: access type, key, rows estimated and read; the mean time) of ANALYZE's documents, the
    plan from the first."""
    if not documents:
        return [], float("nan")
    block = documents[0]["query_block"]
    tables = [step["table"] for step in block.get("nested_loop", [])] or [block["table"]]
    lines = [f"{t.get('table_name')} {t.get('access_type')} key {t.get('key')} rows {t.get('rows')}"
             + (f" (read {t['r_rows']})" if t.get("r_rows") is not None else "") for t in tables]
    return lines, sum(statement_ms(d) for d in documents) / len(documents)


def statement_ms(document: dict[str, Any]) -> float:
    """One ANALYZE's time: optimizing (where a const table is read, by a unique key) and executing."""
    milliseconds: float = sum(document.get(part, {}).get("r_total_time_ms", 0)
                              for part in ("query_optimization", "query_block"))
    return milliseconds


def session_script(db: str, sql: str, toggle: bool = True) -> str:
    """The one session: its thread id, innodb_status_output_locks on, the statement in a transaction, the status
    after a marker line, rollback, the variable as it was. toggle=False leaves the variable alone (compose's MariaDB
    starts with it on, and its lab user may not set it)."""
    on, back = ("SET @was = @@GLOBAL.innodb_status_output_locks;\nSET GLOBAL innodb_status_output_locks = ON;\n",
                "SET GLOBAL innodb_status_output_locks = @was;\n") if toggle else ("", "")
    return (f"USE `{db}`;\nSELECT CONNECTION_ID();\n{on}START TRANSACTION;\n"
            f"{sql};\nSELECT '{MARK}';\nSHOW ENGINE INNODB STATUS;\nROLLBACK;\n{back}")


def timing_script(db: str, sql: str, runs: int = RUNS) -> str:
    """ANALYZE FORMAT=JSON of the statement `runs` times, each in its own autocommit transaction."""
    return f"USE `{db}`;\n" + f"ANALYZE FORMAT=JSON {sql};\n" * runs


def split_session_output(out: str) -> tuple[int, str]:
    """(thread id, status text) from the session's output (-N -B -r: no headers, raw values)."""
    lines = out.split("\n")
    thread_id = int(lines[0].strip())
    status = out.split(MARK + "\n", 1)[1] if MARK + "\n" in out else ""
    return thread_id, status


def admin_socket() -> pathlib.Path:
    """MariaDB's socket on the native stack, in its run directory."""
    return labenv.native_run_dir() / "mariadb.sock"


def in_compose() -> bool:
    """Whether this runs in compose's runner (PERFLAB_LAB=compose), whose MariaDB starts with
    innodb_status_output_locks on and grants its lab user PROCESS (docker-compose.yml, stack/mariadb-init)."""
    return os.environ.get("PERFLAB_LAB") == "compose"


def admin(*args: str, script: str | None = None) -> str:
    """The mariadb client as the native stack's administrator (the OS user over the socket, as stack/native.sh); in
    compose's lab, its lab user over TCP (PROCESS is enough there)."""
    if in_compose():  # the seeders' client, as the runner's environment names compose's MariaDB and its lab user
        done = seedlib.Lab.client(*args, input=script, capture_output=True)
    else:
        socket = admin_socket()
        if not socket.exists():
            raise SystemExit(f"perflab: no MariaDB socket at {socket}: the lock report reads InnoDB's status, which "
                             "needs the native stack's administrator (PROCESS and SUPER); run it where ./perflab up "
                             "started MariaDB")
        done = subprocess.run(["mariadb", f"--socket={socket}", f"-u{getpass.getuser()}", *args], input=script,
                              capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"perflab: the lock report's session failed: {done.stderr.strip()}")
    return done.stdout


def transfer_in(exposition: str) -> str | None:
    """The wallet.transfer knob in an app's Prometheus exposition (its perflab_variant_info series), or None."""
    for labels in re.findall(r"^perflab_variant_info\{([^}]*)\}", exposition, re.M):
        found = dict(re.findall(r'(\w+)="([^"]*)"', labels))
        if found.get("feature") == "wallet" and found.get("knob") == "transfer":
            return found.get("value")
    return None


def transfer_of(port: int | str) -> str:
    """The wallet.transfer knob of the app on `port`: at PERFLAB_PROBE_APP_URL when the runner's probe gives it (the
    app's URL: in compose's lab a container's name), else on this machine."""
    url = os.environ.get("PERFLAB_PROBE_APP_URL") or f"http://127.0.0.1:{port}"
    with urllib.request.urlopen(f"{url}/actuator/prometheus", timeout=5) as response:
        transfer = transfer_in(response.read().decode())
    if transfer is None or transfer not in STATEMENTS:
        raise SystemExit(f"perflab: the app on port {port} reports no wallet.transfer knob")
    return transfer


def report(db: str, index: str, transfer: str, member: int) -> list[str]:
    """The lines `./perflab seed wallet locks` prints; the last is the probe's KEY=VALUE line."""
    sql = statement(transfer, member)
    members = f"member {member}" + (f" and {member + SECOND_MEMBER}" if transfer == "optimized" else "")
    for _attempt in range(ATTEMPTS):  # InnoDB's status is a snapshot: a list cut short misses the session once
        thread_id, status = split_session_output(admin("-N", "-B", "-r", script=session_script(db, sql, toggle=not in_compose())))
        locks = parse(status, thread_id)
        if locks:
            break
    if not locks:
        raise SystemExit("perflab: InnoDB listed no lock of the session's transaction (is innodb_status_output_locks "
                         "settable, and the transaction list complete?)")
    tables, mean_ms = plan(analyses(admin("-N", "-B", "-r", script=timing_script(db, sql))))
    member_index = next((lock.index for lock in locks if lock.table == f"{db}.wallet" and lock.index not in ("", "PRIMARY")), "")
    lines = [f"database {db}: wallet.member_id index {index or '?'}",
             f"statement ({transfer} transfer, {STATEMENTS[transfer][1]}, {members}): {sql}",
             f"ANALYZE FORMAT=JSON, {RUNS} runs: " + "; ".join(tables) + f"; {mean_ms:.4f} ms a run",
             "InnoDB's locks (SHOW ENGINE INNODB STATUS, innodb_status_output_locks=ON), then ROLLBACK:",
             *describe(locks)]
    found = counts(locks, f"{db}.wallet", member_index)
    return lines + [" ".join(f"{key}={value}" for key, value in found.items()) + f" statement_ms={mean_ms:.4f}"]

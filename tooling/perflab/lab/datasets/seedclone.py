"""A data set's database cloned from a template: the data set is loaded once into the template database, and each
variant's new database gets a copy of its tables in seconds instead of a load of its own (issue 50).

Two ways, the faster first:
  tablespace  InnoDB transportable tablespaces: the template's tables flushed for export (FLUSH TABLES ... FOR
              EXPORT, held while their .ibd and .cfg files are copied), the copy's tables created alike and their
              tablespaces discarded, the files copied into the copy's folder and imported (ALTER TABLE ... IMPORT
              TABLESPACE). Needs the server's data folder on this machine and its root account over the socket
              (the native stack: /var/lib/perflab/mariadb; FLUSH ... FOR EXPORT needs RELOAD, which the perflab
              account lacks). The wallet data set: about 8 s.
  copy        the tables created alike, then INSERT ... SELECT each one: works through any connection the perflab
              account has (compose's seed service, whose MariaDB is another container). The wallet data set:
              about 19 s.
PERFLAB_CLONE=copy forces the second, PERFLAB_CLONE=off loads every database as before. Python standard library
only, as the rest of the seeders.
"""
import contextlib
import fcntl
import os
import pathlib
import re
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator

from perflab.lab.datasets import seedlib

MODES = ("tablespace", "copy")


def mode_setting() -> str:
    """PERFLAB_CLONE: auto (default: tablespace where it can, else copy), tablespace, copy or off."""
    return seedlib.env("PERFLAB_CLONE", "auto") or "auto"


def enabled() -> bool:
    return mode_setting() != "off"


def template_name(kind: str, shape: str = "") -> str:
    """The template database of a data set (within the perflab% grant): perflab_template_<kind>[_<shape>]."""
    return "perflab_template_" + re.sub(r"[^0-9a-z_]", "_", (kind + (f"_{shape}" if shape else "")).lower())


@contextlib.contextmanager
def template_lock(template: str) -> Iterator[None]:
    """One seeder at a time loads or copies a template on this machine (the runner's variants seed one after the
    other, but two commands may not): a file lock in TMPDIR."""
    path = pathlib.Path(seedlib.env("TMPDIR", "/tmp")) / f"{template}.lock"
    with open(path, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


def quoted(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def create_table_sql(show_create: str) -> str:
    """SHOW CREATE TABLE's row (name, tab, statement with its newlines escaped by the client's batch mode) as a
    statement: CREATE TABLE ... LIKE would drop the foreign keys, this keeps them."""
    statement = show_create.split("\t", 1)[1]
    return statement.replace("\\n", "\n").replace("\\t", "\t").replace("\\\\", "\\")


def tables_sql(db: str) -> str:
    return (f"SELECT table_name FROM information_schema.tables WHERE table_schema = '{db}' "
            "AND table_type = 'BASE TABLE' ORDER BY table_name")


def copy_script(template: str, tables: list[str]) -> str:
    """The copy's data, table by table (run in the copy's database, whose tables exist)."""
    return ("SET foreign_key_checks = 0; SET unique_checks = 0;\n"
            + "".join(f"INSERT INTO {quoted(t)} SELECT * FROM {quoted(template)}.{quoted(t)};\n" for t in tables))


def discard_script(ddl: list[str], tables: list[str]) -> str:
    return ("SET foreign_key_checks = 0;\n" + "".join(f"{statement};\n" for statement in ddl)
            + "".join(f"ALTER TABLE {quoted(t)} DISCARD TABLESPACE;\n" for t in tables))


def import_script(tables: list[str]) -> str:
    return ("SET foreign_key_checks = 0;\n"
            + "".join(f"ALTER TABLE {quoted(t)} IMPORT TABLESPACE;\n" for t in tables))


class Root:
    """The server's root account over its socket (unix_socket authentication: this machine's root user)."""

    def __init__(self, socket: str):
        self.argv = ["mariadb", f"-S{socket}", "-N", "-B"]

    def run(self, script: str, db: str = "") -> str:
        done = subprocess.run([*self.argv, *([db] if db else [])], input=script, text=True, capture_output=True)
        if done.returncode:
            seedlib.fail(f"perflab: cloning: {done.stderr.strip()}", done.returncode)
        return done.stdout

    def hold_for_export(self, db: str, tables: list[str]) -> subprocess.Popen[str]:
        """A session that holds `tables` flushed for export until its input closes; returns once they are."""
        session = subprocess.Popen([*self.argv, "--unbuffered", db], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   text=True)
        assert session.stdin is not None and session.stdout is not None  # both piped
        session.stdin.write(f"FLUSH TABLES {', '.join(map(quoted, tables))} FOR EXPORT; SELECT 'exported';\n")
        session.stdin.flush()
        if session.stdout.readline().strip() != "exported":
            session.kill()
            seedlib.fail(f"perflab: cloning: FLUSH TABLES ... FOR EXPORT failed on {db}")
        return session


def tablespace_access(template: str) -> tuple[Root, pathlib.Path] | None:
    """The root account and the data folder when this machine can copy the template's files, else None (asked
    through the template's database: the copy's does not exist yet)."""
    found = seedlib.Lab(template).value("SELECT CONCAT(@@datadir, '|', @@socket)").split("|")
    if len(found) != 2 or not os.access(found[1], os.W_OK):
        return None
    datadir = pathlib.Path(found[0])
    if not (datadir / template).is_dir() or not os.access(datadir, os.W_OK):
        return None
    root = Root(found[1])
    probe = subprocess.run([*root.argv, "-e", "SELECT 1"], capture_output=True, text=True)
    return (root, datadir) if probe.returncode == 0 else None


def choose(template: str) -> tuple[str, tuple[Root, pathlib.Path] | None]:
    setting = mode_setting()
    access = None if setting == "copy" else tablespace_access(template)
    if setting == "tablespace" and access is None:
        seedlib.fail("perflab: PERFLAB_CLONE=tablespace, but the server's data folder or root socket is not here")
    return ("tablespace", access) if access else ("copy", None)


def clone(lab: seedlib.Lab, template: str, say: Callable[[str], None]) -> str:
    """Creates lab.db (which must not exist) as a copy of every table of `template`; returns the way it took."""
    source = seedlib.Lab(template)
    tables = source.rows(tables_sql(template)).split()
    if not tables:
        seedlib.fail(f"perflab: cloning: template {template} has no tables")
    ddl = [create_table_sql(source.rows(f"SHOW CREATE TABLE {quoted(t)}")) for t in tables]
    how, access = choose(template)
    created = lab.client("-e", f"CREATE DATABASE {quoted(lab.db)}")
    if created.returncode:
        seedlib.fail(f"perflab: could not create database {lab.db}", created.returncode)
    try:
        if access:
            tablespace_clone(lab.db, template, tables, ddl, *access)
        else:
            lab.sql(script="SET foreign_key_checks = 0;\n" + "".join(f"{s};\n" for s in ddl), output=False)
            lab.sql(script=copy_script(template, tables), output=False)
    except BaseException:
        lab.client("-e", f"DROP DATABASE IF EXISTS {quoted(lab.db)}")  # no half copy passes for a data set
        raise
    say(f"cloned {len(tables)} tables from {template} ({how})")
    return how


def tablespace_clone(db: str, template: str, tables: list[str], ddl: list[str], root: Root,
                     datadir: pathlib.Path) -> None:
    root.run(discard_script(ddl, tables), db)
    owner = (datadir / template).stat()
    session = root.hold_for_export(template, tables)
    copied = []
    try:
        for table in tables:
            for suffix in (".ibd", ".cfg"):
                target = datadir / db / (table + suffix)
                shutil.copyfile(datadir / template / (table + suffix), target)
                os.chown(target, owner.st_uid, owner.st_gid)
                copied.append(target)
    finally:
        assert session.stdin is not None  # piped
        session.stdin.write("UNLOCK TABLES;\n")
        session.stdin.close()
        session.wait()
    root.run(import_script(tables), db)
    for path in copied:
        if path.suffix == ".cfg":
            path.unlink(missing_ok=True)


class Stopwatch:
    """How long a database took to be ready, for the line that says so."""

    def __init__(self) -> None:
        self.started = time.monotonic()

    def seconds(self) -> float:
        return time.monotonic() - self.started


def ready_line(db: str, seconds: float, how: str) -> str:
    return f"database {db} ready in {seconds:.1f} s ({how})"

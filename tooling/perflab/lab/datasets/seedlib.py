"""What the data sets' loaders (tooling/perflab/lab/datasets/seed_wallet.py, tooling/perflab/lab/datasets/seed_route.py; tooling/perflab/lab/datasets/seeding.py dispatches to them) share:
the command line, the MariaDB client, progress lines timed from the start, Flyway's state and the migrate-only
run of the app (./perflab migrate); .env and the services come from tooling/perflab/lab/labenv.py. Python standard library only
(the mariadb and redis-cli clients do the talking)."""
import os
import pathlib
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NoReturn

from perflab.lab import labenv

from perflab.paths import ROOT
ACTIONS = ("ensure", "load", "reset", "check", "verify", "status")


class Exit(Exception):
    """Stops a seeder with an exit code; whatever explains it has been printed already."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def fail(message: str, code: int = 1) -> NoReturn:
    print(message, file=sys.stderr, flush=True)
    raise Exit(code)


env = labenv.env


# .env and the services: the lab's one reader of each (tooling/perflab/lab/labenv.py)
load_env = labenv.load_env
service_up = labenv.service_up
require_services = labenv.require_services


def service_address(service: str) -> str:
    """host:port, as the seeders' messages print it."""
    return "%s:%s" % labenv.service_address(service)


# ---- arguments ----

def parse(argv: Iterable[str], options: Mapping[str, str], usage: str,
          bare: Callable[[str, dict[str, str]], bool] | None = None, forward: Iterable[str] = (),
          actions: Iterable[str] = ACTIONS) -> tuple[dict[str, str], str, list[str]]:
    """The seeders' command line: `options` maps each option (--db) to the message when its value is missing;
    --name=value works too; a word of `actions` sets the action (the last one wins); `bare(arg, values)` may claim any
    other argument. The options in `forward` are kept as given, in order, for another seeder. Returns
    ({option: value}, action, [forwarded arguments]); anything else prints `usage` and stops with 2."""
    values: dict[str, str] = {}
    forwarded: list[str] = []
    action, rest = "ensure", list(argv)
    while rest:
        arg = rest.pop(0)
        name, eq, inline = arg.partition("=")
        if arg in options:
            if not rest or not rest[0]:
                fail(f"perflab: {options[arg]}")
            if arg in forward:
                forwarded += [arg, rest.pop(0)]
            else:
                values[arg] = rest.pop(0)
        elif eq and name in options:
            if name in forward:
                forwarded.append(arg)
            else:
                values[name] = inline
        elif arg in actions:
            action = arg
        elif not (bare and bare(arg, values)):
            fail(usage, 2)
    return values, action, forwarded


# ---- the database ----

class Lab:
    """One seeder's run against database `db`: its progress lines (timed from its start, quiet when another
    command's output is not wanted), the MariaDB client and Flyway's state."""

    def __init__(self, db: str) -> None:
        self.db = db
        self.started = time.monotonic()
        self.quiet = False

    def say(self, text: str) -> None:
        if not self.quiet:
            elapsed = int((time.monotonic() - self.started) * 1000) / 1000
            print(f"[{elapsed:6.1f}s] {text}", flush=True)

    @staticmethod
    def client(*args: str, **run: Any) -> subprocess.CompletedProcess[str]:
        """The mariadb client on the stack's server (LOAD DATA LOCAL INFILE allowed)."""
        sys.stdout.flush()
        argv = ["mariadb", "--local-infile=1", f"-h{env('PERFLAB_DB_HOST', '127.0.0.1')}",
                f"-P{env('PERFLAB_DB_PORT', '3306')}", f"-u{env('PERFLAB_DB_USER', 'perflab')}", *args]
        return subprocess.run(argv, text=True, env=labenv.mariadb_client_env(), **run)

    def sql(self, *args: str, script: str | None = None, output: bool = True) -> None:
        """Runs the client on the database (its output shown unless output=False); stops when it fails."""
        done = self.client(self.db, *args, input=script, stdout=None if output and not self.quiet else subprocess.DEVNULL)
        if done.returncode:
            raise Exit(done.returncode)

    def rows(self, query: str) -> str:
        """The query's rows as text (-N: no header); stops when it fails."""
        done = self.client(self.db, "-N", "-e", query, stdout=subprocess.PIPE)
        if done.returncode:
            raise Exit(done.returncode)
        return done.stdout.rstrip("\n")

    def value(self, query: str) -> str:
        """One value from the database, or '' when the query fails (no database, no table)."""
        done = self.client(self.db, "-N", "-B", "-e", query, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        return done.stdout.rstrip("\n") if done.returncode == 0 else ""

    def database_exists(self) -> bool:
        done = self.client("-N", "-B", "-e",
                           f"SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = '{self.db}'",
                           stdout=subprocess.PIPE)
        return done.stdout.rstrip("\n") == "1"

    def pending_migrations(self) -> list[str]:
        """The versions in db/migrations (labenv.migrations_dir) that Flyway has not applied (V3_1__x.sql is 3.1), in
        file name order."""
        applied = self.value("SELECT GROUP_CONCAT(version SEPARATOR ' ') FROM flyway_schema_history WHERE success = 1")
        return [version for version in map(migration_version, sorted(labenv.migrations_dir().glob("V*__*.sql")))
                if version not in applied.split(" ")]

    def ensure_migrated(self, index: str = "") -> None:
        """Migrates the database when it misses a migration (the app in migrate-only mode: ./perflab migrate).
        `index` (unique | non-unique) is the wallet's index for a new database; empty: the active profile's."""
        pending = "".join(f"{version} " for version in self.pending_migrations()) if self.database_exists() else "all"
        if not pending:
            return
        self.say(f"database {self.db}: migrations pending ({pending}); migrating")
        sys.stdout.flush()
        output = subprocess.DEVNULL if self.quiet else None
        if env("PERFLAB_APP_CLASSPATH", ""):  # the seed image: the app's classes beside this module, no jar
            self.migrate(env("JAVA", "java"), index, stdout=output)
            return
        jar = env("PERFLAB_APP_JAR", "")  # the built jar, which ./perflab seed and the runner's data commands give
        if not jar:
            fail(f"perflab: database {self.db} misses migrations and no app jar is given (PERFLAB_APP_JAR): run "
                 f"./perflab migrate --db {self.db}", 2)
        self.migrate(pathlib.Path(labenv.jdk()) / "bin" / "java", index, jar=jar, stdout=output)

    def migrate(self, java: str | os.PathLike[str], index: str = "", jar: str | os.PathLike[str] | None = None,
                stdout: int | None = None) -> None:
        """Creates the database when it is missing and migrates it with the app in migrate-only mode
        (migrate_command); stops with the exit code when either fails. What ./perflab migrate and the seed image run."""
        created = self.client("-e", f"CREATE DATABASE IF NOT EXISTS `{self.db}`")
        if created.returncode:
            fail(f"perflab: could not create database {self.db} (user {env('PERFLAB_DB_USER', 'perflab')} may create "
                 "perflab% databases)", created.returncode)
        done = subprocess.run(migrate_command(java, index, jar=jar), stdout=stdout,
                              env=dict(os.environ, PERFLAB_DB_NAME=self.db))
        if done.returncode:
            raise Exit(done.returncode)

    def schema_current(self) -> bool:
        """The database is there with every migration applied (the first half of each cheap check)."""
        return self.database_exists() and not self.pending_migrations()


MIGRATE_ONLY = "dev.perflab.support.migrate.MigrateOnly"


def migrate_command(java: str | os.PathLike[str], index: str = "",
                    jar: str | os.PathLike[str] | None = None) -> list[str]:
    """The app in migrate-only mode (MigrateOnly: data source and Flyway, no web server) as an argv: from the packaged
    jar `jar` through Spring Boot's PropertiesLauncher (./perflab migrate), or, without `jar`, from the class path
    PERFLAB_APP_CLASSPATH (the extracted jar of the Dockerfile's seed image). `index` (unique | non-unique) sets the
    wallet's index for a new database; empty: the active profile's."""
    launch = (["-Dloader.main=" + MIGRATE_ONLY, "-cp", str(jar), "org.springframework.boot.loader.launch.PropertiesLauncher"]
              if jar else ["-cp", env("PERFLAB_APP_CLASSPATH", ""), MIGRATE_ONLY])
    return [str(java), "-Dsun.misc.unsafe.memory.access=allow", *launch,
            *([f"--perflab.wallet.index={index}"] if index else []), "--logging.level.root=WARN",
            "--logging.level.org.flywaydb.core.internal.command=INFO", "--logging.pattern.console=  flyway: %m%n"]


def migration_version(path: str | os.PathLike[str]) -> str:
    return pathlib.Path(path).name[1:].split("__", 1)[0].replace("_", ".")


def sql_string(text: object) -> str:
    """A MariaDB string literal (file names in LOAD DATA)."""
    return "'" + str(text).replace("\\", "\\\\").replace("'", "\\'") + "'"


def count_lines(path: str | os.PathLike[str]) -> int:
    with open(path, "rb") as f:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))


def run(seeder: Callable[[list[str]], int | None], argv: list[str]) -> int:
    """One seeder's exit code: 0, the code it stopped with, or 1 with the message of a SystemExit."""
    try:
        return seeder(argv) or 0
    except Exit as stop:
        return stop.code
    except SystemExit as stop:
        if isinstance(stop.code, str):
            print(stop.code, file=sys.stderr, flush=True)
            return 1
        return stop.code or 0
    finally:
        sys.stdout.flush()


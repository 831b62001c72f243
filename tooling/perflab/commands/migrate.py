"""./perflab migrate [--db NAME] [--index unique|non-unique]: create the database if needed and apply db/migrations
with the app in migrate-only mode (dev.perflab.support.migrate.MigrateOnly: data source and Flyway, no web server);
PERFLAB_APP_JAR and PERFLAB_MIGRATIONS, when set, give another build's jar and migrations (tooling/perflab/lab/refs.py).
--index sets perflab.wallet.index, the wallet_member_index placeholder; default: the active profile's."""
import os
import pathlib

from perflab.lab import appctl
from perflab.lab import labenv
from perflab.lab.datasets import seedlib
from perflab.lab.labenv import die

SYNOPSIS = "migrate [--db NAME] [--index unique|non-unique]"
SUMMARY = "create and migrate a database (Flyway, the app in migrate-only mode)"
USAGE = "usage: ./perflab migrate [--db NAME] [--index unique|non-unique]"
NEEDS = {"--db": "--db needs a name", "--index": "--index needs unique or non-unique"}


def parse(argv: list[str]) -> tuple[str, str]:
    """{'--db': NAME, '--index': INDEX} from the options (--db defaults to PERFLAB_DB_NAME)."""
    values, args = {"--db": os.environ.get("PERFLAB_DB_NAME", "perflab"), "--index": ""}, list(argv)
    while args:
        option, _, value = args.pop(0).partition("=")
        if option not in NEEDS:
            die(USAGE)
        if not _:
            value = args.pop(0) if args else ""
            if not value:
                die(NEEDS[option])
        values[option] = value
    if values["--index"] not in ("", "unique", "non-unique"):
        die(f"--index must be unique or non-unique, not '{values['--index']}'")
    return values["--db"], values["--index"]


def main(argv: list[str]) -> int:
    db, index = parse(argv)
    labenv.require_services("mariadb")
    appctl.build_jar()
    labenv.ensure_secrets()
    profile = os.environ.get("SPRING_PROFILES_ACTIVE")
    labenv.say(f"migrating database {db} (Flyway, {labenv.migrations_dir()}{f', wallet index {index}' if index else ''}"
               f"{f', profile {profile}' if profile else ''})")
    java = pathlib.Path(labenv.jdk()) / "bin" / "java"
    failed = seedlib.run(lambda _: seedlib.Lab(db).migrate(java, index, jar=appctl.app_jar()), [])
    if failed:
        die(f"migrating {db} failed (see the lines above)")
    return 0

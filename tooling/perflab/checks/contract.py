#!/usr/bin/env python3
"""perflab's API contract suite: the OpenAPI description the app serves is validated (OpenAPI 3.1, every reference
resolved), then a property-based contract tester (Schemathesis, pinned in tooling/requirements-dev.txt) sends what the
description allows and what it forbids, as a member and as the admin, with every check on; each a PASS/FAIL line,
then `N passed, N failed` (exit 1 on any FAIL).

usage: ./perflab contract [--preset wallet-before|wallet-after] [--role member|admin|both] [--max-examples N]
                          [--seed N] [--keep DIR]

The app runs the preset with route-after added (so the admin's route ceiling harness is in the description) on
PERFLAB_CONTRACT_APP_PORT (8200), against a fresh database of its own (${PERFLAB_DB_NAME}_contract) with a small
university (11, 500 routes) and Redis database PERFLAB_CONTRACT_REDIS_DB (9). The member is a wallet of its own
(the install's PIN, a token signed with the generated secret); the admin logs in through the auth API
(ADMIN_LOGIN, ADMIN_PASSWORD; by default the install's admin-login and admin-password). Schemathesis runs its examples, coverage and fuzzing phases (the description has no links, so no
stateful phase) with --checks all; --seed makes a run repeatable, and --keep DIR keeps each role's JUnit report and output.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import urllib.request
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from perflab.checks import chaos
from perflab.lab import labenv
from perflab.lab import labsecrets
from perflab.lab.datasets import seeding
from perflab.checks.abuse_judges import Verdicts, describe
from perflab.checks.abuse_lab import ROUTE_UNIV, admin_login
from perflab.checks.chaos_lab import Instances, Stack
from perflab.paths import ROOT
from perflab.checks.chaos_lab import log as suite_log
PHASES = "examples,coverage,fuzzing"  # the description declares no links: a stateful phase would have nothing to chain
DEFAULT_MAX_EXAMPLES = 25             # per operation and phase: CI's short form (about a minute a role)
DEFAULT_SEED = 2049
CONFIG = Path(__file__).with_name("contract.toml")  # the one answer a check would misread, and why


def log(message: str) -> None:
    suite_log(message, "contract")


# ------------------------------------------------------------------------------------------- pure logic

def description_problems(document: dict[str, Any]) -> list[str]:
    """What is wrong with an OpenAPI description: every error of the OpenAPI 3.1 validator (unresolvable
    references included), one line each; empty when it validates."""
    from openapi_spec_validator import OpenAPIV31SpecValidator
    from referencing.exceptions import Unresolvable

    try:
        return [f"{'/'.join(str(p) for p in error.absolute_path) or '(root)'}: {error.message}"
                for error in OpenAPIV31SpecValidator(document).iter_errors()]
    except Unresolvable as e:  # the validator stops at the first reference it cannot follow
        return [f"unresolvable reference: {e}"]


@dataclass(frozen=True)
class Role:
    """Who Schemathesis calls the API as: a name for the report and the Bearer token it sends."""
    name: str
    token: str


def schemathesis_command(executable: str, url: str, role: Role, max_examples: int, seed: int,
                         report_dir: Path) -> list[str]:
    """The `st run` command line for one role: every check, the phases that need no links, the reports in
    report_dir. The token goes in a header of every request (Schemathesis sanitizes it in its output)."""
    return [executable, "--config-file", str(CONFIG), "run", f"{url}/v3/api-docs", "--url", url, "--checks", "all", "--phases", PHASES,
            "--max-examples", str(max_examples), "--seed", str(seed), "--workers", "1", "--no-shrink",
            "--header", f"Authorization: Bearer {role.token}", "--request-timeout", "30",
            "--report", "junit", "--report-dir", str(report_dir),
            "--report-junit-path", str(report_dir / f"{role.name}.xml"), "--no-color"]


def findings(junit: str) -> list[str]:
    """The failures a Schemathesis JUnit report records, one line each: the operation and each failed check's code
    and title ("POST /api/transfers: ST202 Schema-valid request rejected")."""
    found: list[str] = []
    for case in ET.fromstring(junit).iter("testcase"):
        for outcome in case:
            if outcome.tag not in ("failure", "error"):
                continue
            titles = [line.strip()[2:] for line in (outcome.text or "").splitlines() if line.strip().startswith("- ")]
            for title in titles or [(outcome.get("message") or outcome.tag).splitlines()[0]]:
                found.append(f"{case.get('name')}: {title}")
    return sorted(set(found))


# ------------------------------------------------------------------------------------------- the run

def fetch_description(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}/v3/api-docs", timeout=30) as answer:
        document: dict[str, Any] = json.load(answer)
    return document


def run_role(url: str, role: Role, args: argparse.Namespace, report_dir: Path, verdicts: Verdicts) -> None:
    """Schemathesis as one role; a PASS when it exits 0 and its report records no failure."""
    executable = str(Path(sys.executable).with_name("st"))
    command = schemathesis_command(executable, url, role, args.max_examples, args.seed, report_dir)
    log(f"schemathesis as the {role.name}: seed {args.seed}, at most {args.max_examples} examples per operation "
        f"and phase, every check")
    done = subprocess.run(command, capture_output=True, text=True, cwd=report_dir)  # its .schemathesis cache there
    output = done.stdout + done.stderr
    summary = output[output.rfind("== SUMMARY =="):] if "== SUMMARY ==" in output else output[-3000:]
    print("\n".join(f"  {line}" for line in summary.splitlines() if line.strip()), flush=True)
    (report_dir / f"{role.name}.log").write_text(output)
    junit = report_dir / f"{role.name}.xml"
    found = findings(junit.read_text()) if junit.exists() else [f"no JUnit report: {junit}"]
    verdicts.add(f"contract {role.name}", "Schemathesis finds nothing (--checks all)",
                 done.returncode == 0 and not found,
                 f"exit {done.returncode}; {len(found)} finding(s)" + "".join(f"\n    {f}" for f in found[:30]))


def prepare(stack: Stack, database: str, url: str) -> tuple[Role, Role]:
    """The university the routes need, a member with a wallet and the admin: the two roles."""
    code = seeding.main(["route", "--db", database, "--univs", str(ROUTE_UNIV), "--routes", "500", "ensure"])
    if code:
        raise RuntimeError(f"the route data set for {database} did not load (exit {code})")
    member = chaos.create_members(stack, database, 2, labsecrets.jwt_secret(), labsecrets.hash_secret(),
                                  prefix="contract", phone_prefix="0993")[0]
    admin = admin_login(url)
    if admin.status != 200 or not isinstance(admin.body, dict):
        raise RuntimeError(f"the admin could not log in: {describe(admin)}")
    return Role("member", member["token"]), Role("admin", admin.body["accessToken"])


def run(args: argparse.Namespace, verdicts: Verdicts) -> None:
    stack = Stack()
    database = f"{labenv.env('PERFLAB_DB_NAME', 'perflab')}_contract"  # inside the perflab% grant
    redis_db = int(labenv.env("PERFLAB_CONTRACT_REDIS_DB", "9"))
    port = int(labenv.env("PERFLAB_CONTRACT_APP_PORT", "8200"))
    instances = Instances([], None, None, args.preset, stack, database, redis_db, 0, suite="contract",
                                port=port, proxies=False, profile=f"{args.preset},route-after")
    stack.sql(None, f"DROP DATABASE IF EXISTS `{database}`; CREATE DATABASE `{database}`")
    stack.flush_redis(redis_db)
    try:
        instances.start()
        url = instances.urls[0]
        log(f"{args.preset}: app ready at {url}, database {database} (fresh), Redis db {redis_db}")
        member, admin = prepare(stack, database, url)
        problems = description_problems(fetch_description(url))
        verdicts.add("contract description", "validates as OpenAPI 3.1, every reference resolved", not problems,
                     "valid" if not problems else "; ".join(problems[:10]))
        keep = Path(args.keep) if args.keep else None
        with tempfile.TemporaryDirectory(prefix="perflab-contract-") as scratch:
            report_dir = keep or Path(scratch)
            report_dir.mkdir(parents=True, exist_ok=True)
            for role in (member, admin):
                if args.role in (role.name, "both"):
                    run_role(url, role, args, report_dir, verdicts)
    finally:
        instances.stop()


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="./perflab contract", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--preset", choices=["wallet-before", "wallet-after"], default="wallet-after")
    parser.add_argument("--max-examples", type=int, default=DEFAULT_MAX_EXAMPLES, metavar="N",
                        help=f"test cases per operation and phase (default {DEFAULT_MAX_EXAMPLES}: CI's short form)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"Schemathesis' seed (default {DEFAULT_SEED})")
    parser.add_argument("--role", choices=["member", "admin", "both"], default="both",
                        help="call the API as the member, the admin or both (default)")
    parser.add_argument("--keep", metavar="DIR", help="keep each role's JUnit report (<role>.xml) and Schemathesis' output (<role>.log) in DIR")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse(argv)
    if args.max_examples < 1:
        sys.exit(f"contract: --max-examples takes a positive number, not {args.max_examples}")
    verdicts = Verdicts()
    try:
        run(args, verdicts)
    except (RuntimeError, OSError) as e:
        verdicts.error(args.preset, e)
    print(verdicts.summary())
    return 0 if verdicts.failed == 0 else 1


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(main(sys.argv[1:]))

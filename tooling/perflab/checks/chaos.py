#!/usr/bin/env python3
"""perflab's chaos suite for the wallet: transfers under faults, then the books are checked.

usage: ./perflab chaos [--preset wallet-before|wallet-after|both] [--smoke] [--instances N] [--instances-url URL ...]
                       [--kill-cmd CMD --start-cmd CMD] [--db NAME] [--clients N] [--members N] [--json FILE]

Load: --clients threads send transfers among --members members of their own data set (created here), half of
them as reverse pairs (A->B and B->A at the same moment). Every transfer has one Idempotency-Key and is retried
with it until the answer is definitive (201 or a 4xx), however long the outage.

Faults, one after the other, with calm in between: Redis down and back, MariaDB restarted, the app killed with -9
and restarted, Toxiproxy resetting the database connections (reset_peer) and a latency spike on them. The app
reaches MariaDB and Redis through two proxies this suite creates on the stack's Toxiproxy (chaos-mariadb,
chaos-redis); the shared proxies are never touched. MariaDB and Redis are stopped with stack/native.sh, so run it
against a stack of your own if others use the default one (every .env value can be overridden from the
environment, see stack/native.sh).

Checked afterwards: money conserved and no negative balance; debits = credits overall and per transfer; every
transfer has 2 history rows and 4 ledger rows; each member's balance moved by exactly what the clients saw
succeed; the transfers in the database are exactly the ones answered 201 (no 2xx without a transfer in it, no
transfer nobody was told about); no 2xx without a transfer id; no transfer left undecided.

The suite's apps start in its own process, through the one launcher (what ./perflab app start runs), warm from the
jar's AOT cache when there is one (./perflab aot build; a plain start otherwise), as the smokes' apps do.

Several instances: --instances N starts chaos-1..chaos-N (ports PERFLAB_CHAOS_APP_PORT+1..) at once through that
launcher with the chaos database and proxies, and a load balancer (`./perflab lb`, HAProxy) on
PERFLAB_CHAOS_APP_PORT in front of them; the clients go through the balancer, the kill fault kills chaos-1 with -9
and restarts it, and two more checks say that the balancer took it out of rotation and back, and that every
instance served requests. --instances-url URL ... targets apps that are already running (behind a load balancer, or
each one); the suite then starts none, spreads requests over the URLs, and kills/restarts instance i with
--kill-cmd/--start-cmd, or skips that fault without them: `{index}` and `{url}` are replaced with the values quoted,
and the command runs without a shell, split as a shell splits words (for a pipe or $(...), write sh -c '...'). Those apps must
use the database --db (default ${PERFLAB_DB_NAME}_chaos_<side>, e.g. perflab_chaos_after) through the chaos proxies (ports below) for the Toxiproxy
faults to reach them.

Environment: the stack's PERFLAB_* ports from .env; PERFLAB_CHAOS_APP_PORT (8085: the app's port, or with --instances
the balancer's, its instances on the next ones), PERFLAB_CHAOS_DB_PROXY_PORT
(23306), PERFLAB_CHAOS_REDIS_PROXY_PORT (26379), PERFLAB_CHAOS_REDIS_DB (5). Tokens and PIN hashes use the app's
generated secrets (.perflab/secrets, tooling/perflab/lab/labsecrets.py; PERFLAB_SECURITY_JWT_SECRET and _HASH_SECRET override them,
as in the app). Stdlib only; needs the `mariadb` client (installed by the native stack).
"""
import argparse
import json
import sys
import time
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any, Callable

from perflab.lab import labenv
from perflab.lab import labsecrets
from perflab.checks.chaos_clients import Clients, Member, Tally, token
from perflab.checks.chaos_lab import Check, Instances, Stack, log, wait_port

START_BALANCE = Decimal("1000.00")


# ------------------------------------------------------------------------------------------- faults

@dataclass
class Fault:
    name: str
    seconds: float = 0.0
    recovery: float | None = None
    server_errors: int = 0
    skipped: str = ""


def run_fault(name: str, tally: Tally, calm: float, action: Callable[[], object]) -> Fault:
    """Runs one fault (`action` breaks and repairs), then measures the time from the repair to the next 201."""
    fault = Fault(name)
    errors_before = tally.server_errors
    started = time.monotonic()
    log(f"fault: {name}")
    action()
    repaired = time.monotonic()
    fault.seconds = round(repaired - started, 1)
    deadline = repaired + 120
    while time.monotonic() < deadline:
        with tally.lock:
            after = [t for t in tally.success_times if t >= repaired]
        if after:
            fault.recovery = round(min(after) - repaired, 2)
            break
        time.sleep(0.05)
    fault.server_errors = tally.server_errors - errors_before
    log(f"  {name}: {fault.seconds} s, recovered {fault.recovery if fault.recovery is not None else 'NOT'} s after, "
        f"{fault.server_errors} 5xx")
    time.sleep(calm)
    return fault


def faults(stack: Stack, instances: Instances, tally: Tally, hold: float, calm: float) -> list[Fault]:
    def redis_down() -> None:
        stack.native("down", "redis")
        time.sleep(hold)
        stack.native("up", "redis")

    def mariadb_restart() -> None:
        stack.native("down", "mariadb")
        stack.native("up", "mariadb")

    def toxic(kind: str, attributes: dict[str, int]) -> Callable[[], None]:
        def action() -> None:
            stack.toxi("POST", "/proxies/chaos-mariadb/toxics",
                       {"name": f"chaos_{kind}", "type": kind, "stream": "downstream", "attributes": attributes})
            time.sleep(hold)
            stack.toxi("DELETE", f"/proxies/chaos-mariadb/toxics/chaos_{kind}")
        return action

    done = [run_fault("Redis down and back", tally, calm, redis_down),
            run_fault("MariaDB restarted", tally, calm, mariadb_restart)]
    if instances.can_kill():
        done.append(run_fault("app killed with -9 and restarted", tally, calm, instances.kill))
    else:
        done.append(Fault("app killed with -9 and restarted", skipped="no --kill-cmd/--start-cmd for --instances-url"))
    done.append(run_fault("Toxiproxy resets the database connections", tally, calm, toxic("reset_peer", {"timeout": 0})))
    done.append(run_fault("Toxiproxy latency spike (1.5 s) on the database", tally, calm,
                          toxic("latency", {"latency": 1500, "jitter": 200})))
    return done


# ------------------------------------------------------------------------------------------- data and checks

def create_members(stack: Stack, database: str, count: int, secret: str, hash_secret: str, prefix: str = "chaos",
                   phone_prefix: str = "0990") -> list[Member]:
    """`count` members <prefix>-1..N with a wallet of START_BALANCE and the install's PIN hashed as the app does (keyed
    with `hash_secret`); each one's id, login, phone and a token signed with `secret`."""
    stack.sql(database, f"DELETE FROM member WHERE login_id LIKE '{prefix}-%'")
    rows = ",".join(f"('{prefix}-{i}', '{prefix.title()} {i}', '{phone_prefix}{i:07d}')" for i in range(1, count + 1))
    stack.sql(database, f"INSERT INTO member (login_id, name, phone) VALUES {rows}")
    stack.sql(database, f"INSERT INTO wallet (member_id, balance, pin_hash) SELECT id, {START_BALANCE}, "
                        f"{labsecrets.pin_hash_sql(hash_secret, 'id', labsecrets.member_pin())} FROM member WHERE login_id LIKE '{prefix}-%'")
    members = []
    for member_id, login, phone in stack.sql(database, "SELECT id, login_id, phone FROM member "
                                                       f"WHERE login_id LIKE '{prefix}-%' ORDER BY id"):
        members.append({"id": int(member_id), "login": login, "phone": phone, "token": token(secret, member_id, login)})
    return members


def check(stack: Stack, database: str, members: list[Member], tally: Tally) -> list[Check]:
    """The books after the run: a list of (check, ok, detail)."""
    ids = ",".join(str(m["id"]) for m in members)
    results = []

    def add(name: str, ok: object, detail: str = "") -> None:
        results.append((name, bool(ok), detail))

    total, lowest = stack.sql(database, f"SELECT SUM(balance), MIN(balance) FROM wallet WHERE member_id IN ({ids})")[0]
    expected_total = START_BALANCE * len(members)
    add("money conserved", Decimal(total) == expected_total, f"sum {total}, expected {expected_total}")
    add("no negative balance", Decimal(lowest) >= 0, f"lowest {lowest}")
    debit, credit = stack.sql(database, "SELECT COALESCE(SUM(debit), 0), COALESCE(SUM(credit), 0) FROM ledger_entry")[0]
    add("ledger balanced", Decimal(debit) == Decimal(credit), f"debits {debit}, credits {credit}")
    unbalanced = stack.sql(database, "SELECT COUNT(*) FROM (SELECT group_id FROM ledger_entry GROUP BY group_id "
                                     "HAVING SUM(debit) <> SUM(credit) OR COUNT(*) <> 4) g")[0][0]
    add("every transfer has 4 balanced ledger rows", unbalanced == "0", f"{unbalanced} transfers without")
    odd_history = stack.sql(database, "SELECT COUNT(*) FROM (SELECT group_id FROM wallet_transaction GROUP BY group_id "
                                      "HAVING COUNT(*) <> 2) g")[0][0]
    add("every transfer has 2 history rows", odd_history == "0", f"{odd_history} transfers without")
    in_db = {row[0] for row in stack.sql(database, "SELECT DISTINCT group_id FROM wallet_transaction")}
    in_ledger = {row[0] for row in stack.sql(database, "SELECT DISTINCT group_id FROM ledger_entry")}
    seen = {s[0] for s in tally.successes}
    add("history and ledger hold the same transfers", in_db == in_ledger,
        f"{len(in_db ^ in_ledger)} transfers in only one of them")
    add("no 2xx without a transfer in it", not (seen - in_db) and not tally.bad_2xx,
        f"{len(seen - in_db)} 201s without a transfer, {len(tally.bad_2xx)} 2xx without a transfer id")
    add("no transfer the clients were not told about", not (in_db - seen), f"{len(in_db - seen)} unreported transfers")
    expected = {m["id"]: START_BALANCE for m in members}
    for _, sender, receiver, amount in tally.successes:
        expected[sender] -= amount
        expected[receiver] += amount
    actual = {int(i): Decimal(b) for i, b in stack.sql(database, f"SELECT member_id, balance FROM wallet "
                                                                  f"WHERE member_id IN ({ids})")}
    wrong = [i for i in expected if actual.get(i) != expected[i]]
    add("each balance moved by exactly what its client saw succeed", not wrong,
        f"{len(wrong)} members differ" + (f", e.g. {wrong[0]}: {actual.get(wrong[0])} vs {expected[wrong[0]]}" if wrong else ""))
    add("every transfer got a definitive answer", tally.undecided == 0, f"{tally.undecided} undecided")
    return results


# ------------------------------------------------------------------------------------------- one preset

def run_preset(preset: str, args: argparse.Namespace, stack: Stack, secret: str, hash_secret: str) -> dict[str, Any]:
    side = preset.split("-")[-1]
    database = args.db or f"{labenv.env('PERFLAB_DB_NAME', 'perflab')}_chaos_{side}"  # inside the perflab% grant
    redis_db = int(labenv.env("PERFLAB_CHAOS_REDIS_DB", "5"))
    instances = Instances(args.instances_url, args.kill_cmd, args.start_cmd, preset, stack, database, redis_db,
                          args.instances)
    hold, calm, load = (2, 2, 4) if args.smoke else (6, 6, 15)
    log(f"{preset}: database {database} (fresh), Redis db {redis_db}, proxies 127.0.0.1:{stack.db_proxy_port} "
        f"-> MariaDB, 127.0.0.1:{stack.redis_proxy_port} -> Redis")
    stack.create_proxies()
    if not instances.external:
        stack.sql(None, f"DROP DATABASE IF EXISTS `{database}`; CREATE DATABASE `{database}`")
        stack.flush_redis(redis_db)
    tally = Tally()
    clients = None
    try:
        started = time.monotonic()
        instances.start()
        log(f"app ready at {', '.join(instances.urls)} in {time.monotonic() - started:.1f} s")
        members = create_members(stack, database, args.members, secret, hash_secret)
        clients = Clients(instances.urls, members, tally, args.clients, give_up_seconds=180)
        clients.start()
        time.sleep(load)
        done = faults(stack, instances, tally, hold, calm)
        time.sleep(load / 2)
        clients.finish()
        clients = None
        results = check(stack, database, members, tally) + instances.checks()
    finally:
        if clients:
            clients.finish()
        instances.stop()
        stack.delete_proxies()
    return report(preset, tally, done, results, instances)


def report(preset: str, tally: Tally, done: list[Fault], results: list[Check],
           instances: Instances | None = None) -> dict[str, Any]:
    recoveries = [f.recovery for f in done if f.recovery is not None]
    summary = {
        "preset": preset, "requests": tally.requests, "transfers_succeeded": len(tally.successes),
        "transfers_rejected": tally.rejections, "server_errors_5xx": tally.server_errors,
        "no_answer": tally.connection_errors, "statuses": tally.statuses,
        "faults": [f.__dict__ for f in done], "max_recovery_seconds": max(recoveries) if recoveries else None,
        "checks": [{"check": n, "ok": ok, "detail": d} for n, ok, d in results],
        "passed": all(ok for _, ok, _ in results) and all(f.recovery is not None or f.skipped for f in done),
    }
    if instances and instances.names:
        summary["instances"] = {"load_balancer_url": instances.urls[0], "served": instances.served,
                                "killed": instances.rotation}
    print(f"\n== chaos {preset}: {'PASS' if summary['passed'] else 'FAIL'}")
    print(f"requests {tally.requests}, transfers 201 {len(tally.successes)}, rejected {sum(tally.rejections.values())} "
          f"{tally.rejections or ''}, 5xx {tally.server_errors}, no answer {tally.connection_errors}")
    print(f"answers: {dict(sorted(tally.statuses.items()))}")
    print(f"{'fault':<50} {'seconds':>8} {'5xx':>6} {'recovered after s':>18}")
    for f in done:
        recovered = f.skipped and f"skipped: {f.skipped}" or ("NOT" if f.recovery is None else f"{f.recovery:.2f}")
        print(f"{f.name:<50} {f.seconds:>8.1f} {f.server_errors:>6} {recovered:>18}")
    for name, ok, detail in results:
        print(f"  [{'ok' if ok else 'FAIL'}] {name}: {detail}")
    return summary


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="./perflab chaos", description=__doc__.split("\n")[0])
    parser.add_argument("--preset", choices=["wallet-before", "wallet-after", "both"], default="both")
    parser.add_argument("--smoke", action="store_true", help="the short form for CI (both presets in about 3 minutes)")
    parser.add_argument("--instances", type=int, default=0, metavar="N",
                        help="start N instances (chaos-1..N on PERFLAB_CHAOS_APP_PORT+1..) behind a load balancer "
                             "(HAProxy on PERFLAB_CHAOS_APP_PORT) and kill chaos-1; default: one instance, no balancer")
    parser.add_argument("--instances-url", nargs="+", default=[], metavar="URL",
                        help="running app instances to target instead of starting one")
    parser.add_argument("--kill-cmd", help="kills instance {index} ({url}) with -9, for --instances-url (no shell: sh -c '...' for one)")
    parser.add_argument("--start-cmd", help="starts instance {index} ({url}) and waits until it is ready")
    parser.add_argument("--db", help="the database of the data set (default $PERFLAB_DB_NAME_chaos_<side>, recreated)")
    parser.add_argument("--clients", type=int, default=8, help="concurrent client threads (default 8)")
    parser.add_argument("--members", type=int, default=40, help="members of the chaos data set (default 40)")
    parser.add_argument("--json", help="also write the figures as JSON to this file")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse(argv)
    if args.instances and args.instances_url:
        sys.exit("chaos: --instances N starts its own instances; --instances-url targets running ones: give one of them")
    if not 0 <= args.instances <= 9:
        sys.exit(f"chaos: --instances takes 1 to 9 instances, not {args.instances}")
    stack = Stack()
    if not wait_port(stack.db_port, 1) or not wait_port(stack.redis_port, 1):
        sys.exit(f"chaos: MariaDB (:{stack.db_port}) or Redis (:{stack.redis_port}) is down: ./perflab stack up")
    secret, hash_secret = labsecrets.jwt_secret(), labsecrets.hash_secret()
    presets = ["wallet-before", "wallet-after"] if args.preset == "both" else [args.preset]
    started = time.monotonic()
    summaries = [run_preset(preset, args, stack, secret, hash_secret) for preset in presets]
    print(f"\nchaos: {len(presets)} preset(s) in {time.monotonic() - started:.0f} s: "
          + ", ".join(f"{s['preset']} {'PASS' if s['passed'] else 'FAIL'}" for s in summaries))
    if args.json:
        Path(args.json).write_text(json.dumps(summaries, indent=2, default=str))
    return 0 if all(s["passed"] for s in summaries) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""perflab's abuse suite: what an attacker tries against the app, each a named check printed PASS or FAIL with its
figure, then `N passed, N failed` (exit 1 on any FAIL).

usage: ./perflab abuse [--preset wallet-before|wallet-after|both] [--instances N] [--json FILE]

Scenarios, against a fresh database of their own (${PERFLAB_DB_NAME}_abuse_<side>, e.g. perflab_abuse_after) and
Redis database PERFLAB_ABUSE_REDIS_DB (7):
  pin      one member's PIN guessed with wrong PINs, each try with a fresh token (signed with the generated secret)
           and a fresh Idempotency-Key, spread over the instances, waiting out a Retry-After of up to 10 s: at most
           the guard's limit of 403 wrong-pin, then 429 too-many-pin-failures with Retry-After, for the right PIN
           too; no money moves and no transfer is written.
  login    wrong passwords for one login id through POST /api/auth/login, spread and waited out the same way: 401
           up to the limit, then 429 too-many-login-failures with Retry-After, the right password too; another user
           still logs in.
  pin-burst   120 wrong PINs for a fresh member sent at once (a thread pool, each with its own token and
           Idempotency-Key, over the instances): at most the limit of 403, the rest 429 too-many-pin-failures.
  login-burst 120 wrong passwords for one login id sent at once: at most the limit of 401, the rest 429.
  ttl      after the guessing, every guess:* key in Redis has a TTL (a count without one would never expire).
  redis-down  (last) Redis stopped (stack/native.sh down redis; started again in any case): 120 wrong PINs at once
           for a fresh member, then 20 one by one, get at most the limit of 403 in all, however many instances
           (they count in MariaDB while Redis is down), and 429.
  tokens   a token signed with each development secret committed in the repository is refused (401); one signed
           with the generated secret is accepted.
  admin    a plain member gets 403 from /api/lab/dependency and the route ceiling, the admin 200; after 20
           concurrent member calls the admin still logs in; /actuator/health shows its details to the admin only.
  cache    a route manifest in Redis rewritten to announce 2,147,483,647 batches: the route is still served (200,
           the same data) from the database, the rejection is counted, later requests are served.
  slow-readers  six clients read a 50,000-route university at a trickle (two per member, the member limit): another
           member's read answers 200 within 10 s, a member's third read in flight is 429 too-many-route-reads,
           health answers.
  forwarded-for  a client (from 127.0.0.6) sends wrong passwords for ever new login ids, each with another
           X-Forwarded-For: still counted under its own address (at most 100 401s, then 429); another client
           (127.0.0.7) still logs in. Behind the balancer too: HAProxy drops the header and names the client it saw.
  startup  (first preset only) an app given a committed JWT or hash secret exits during startup, its log naming
           the property, never the value; it would run on PERFLAB_ABUSE_APP_PORT+10.
The app runs the preset with route-after added (the route cache is route-after's); --instances N starts abuse-1..N
on PERFLAB_ABUSE_APP_PORT+1.. behind a load balancer on PERFLAB_ABUSE_APP_PORT (8180), and the guessing goes to the
instances in turn (the guards are counted in the shared database). Reuses the chaos suite's stack helpers, member
creation and launcher (tooling/perflab/checks/chaos_lab.py, tooling/perflab/checks/chaos.py). Stdlib only; needs the `mariadb` client.
  repository credentials  the repository's admin (perflab-admin / perflab-admin-pass) and member password
           (perflab-pass) get 401 and its PIN 1234 moves no money; this install's (stack/secrets.sh) log in.
Environment: the stack's PERFLAB_* ports, PERFLAB_ABUSE_APP_PORT, PERFLAB_ABUSE_REDIS_DB, ADMIN_LOGIN and
ADMIN_PASSWORD (this install's admin-login and admin-password by default).
"""
import argparse
import json
import sys
import time
from pathlib import Path

from perflab.checks import chaos
from perflab.lab import labenv
from perflab.lab import labsecrets
from perflab.checks.abuse_attacks import SCENARIOS, refused_at_startup
from perflab.checks.abuse_judges import Verdicts
from perflab.checks.abuse_lab import ROUTE_UNIV, Lab, log, seed_routes
from perflab.checks.chaos_lab import Instances, Stack, wait_port


# ------------------------------------------------------------------------------------------- one preset

def run_preset(preset: str, args: argparse.Namespace, stack: Stack, verdicts: Verdicts, first: bool = True) -> None:
    side = preset.split("-")[-1]
    database = f"{labenv.env('PERFLAB_DB_NAME', 'perflab')}_abuse_{side}"  # inside the perflab% grant
    redis_db = int(labenv.env("PERFLAB_ABUSE_REDIS_DB", "7"))
    port = int(labenv.env("PERFLAB_ABUSE_APP_PORT", "8180"))
    instances = Instances([], None, None, preset, stack, database, redis_db, args.instances, suite="abuse",
                                port=port, proxies=False, profile=f"{preset},route-after")
    log(f"{preset}: database {database} (fresh), Redis db {redis_db}, "
        f"{f'{args.instances} instances behind a load balancer' if args.instances else 'one app'} on port {port}")
    stack.sql(None, f"DROP DATABASE IF EXISTS `{database}`; CREATE DATABASE `{database}`")
    stack.flush_redis(redis_db)
    try:
        started = time.monotonic()
        instances.start()
        log(f"app ready at {instances.urls[0]} in {time.monotonic() - started:.1f} s")
        seed_routes(database, ROUTE_UNIV, 500)
        instance_urls = ([f"http://127.0.0.1:{port + 1 + i}" for i in range(len(instances.names))]
                         or instances.urls)
        lab = Lab(stack, database, redis_db, instances.urls[0], instance_urls, labsecrets.jwt_secret(),
                  ["--profile", instances.profile, *instances.app_args()], port + 10)
        lab.members = chaos.create_members(stack, database, 5, lab.secret, labsecrets.hash_secret(), prefix="abuse",
                                           phone_prefix="0991")
        for name, scenario in SCENARIOS + ((("startup", refused_at_startup),) if first else ()):
            log(f"scenario {name}")
            try:
                scenario(lab, verdicts, f"{preset} {name}")
            except (RuntimeError, OSError, ValueError, KeyError, AttributeError) as e:
                verdicts.error(f"{preset} {name}", e)
    finally:
        instances.stop()


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="./perflab abuse", description=__doc__.split("\n")[0])
    parser.add_argument("--preset", choices=["wallet-before", "wallet-after", "both"], default="both")
    parser.add_argument("--instances", type=int, default=0, metavar="N",
                        help="start N instances (abuse-1..N on PERFLAB_ABUSE_APP_PORT+1..) behind a load balancer "
                             "(HAProxy on PERFLAB_ABUSE_APP_PORT); default: one instance, no balancer")
    parser.add_argument("--json", help="also write the checks as JSON to this file")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse(argv)
    if not 0 <= args.instances <= 9:
        sys.exit(f"abuse: --instances takes 1 to 9 instances, not {args.instances}")
    stack = Stack()
    if not wait_port(stack.db_port, 1) or not wait_port(stack.redis_port, 1):
        sys.exit(f"abuse: MariaDB (:{stack.db_port}) or Redis (:{stack.redis_port}) is down: ./perflab stack up")
    verdicts = Verdicts()
    presets = ["wallet-before", "wallet-after"] if args.preset == "both" else [args.preset]
    for preset in presets:
        try:
            run_preset(preset, args, stack, verdicts, first=preset == presets[0])
        except (RuntimeError, OSError) as e:
            verdicts.error(preset, e)
    if args.json:
        Path(args.json).write_text(json.dumps(verdicts.results, indent=2))
    print(verdicts.summary())
    return 0 if verdicts.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

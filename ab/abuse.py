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
creation and launcher (ab/chaos.py). Stdlib only; needs the `mariadb` client.
  repository credentials  the repository's admin (perflab-admin / perflab-admin-pass) and member password
           (perflab-pass) get 401 and its PIN 1234 moves no money; this install's (stack/secrets.sh) log in.
Environment: the stack's PERFLAB_* ports, PERFLAB_ABUSE_APP_PORT, PERFLAB_ABUSE_REDIS_DB, ADMIN_LOGIN and
ADMIN_PASSWORD (this install's admin-login and admin-password by default).
"""
import argparse
import concurrent.futures
import contextlib
import email.utils
import io
import json
import os
import socket
import sys
import threading
import time
import urllib.parse
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import appctl
import chaos
import labsecrets
import launcher

ROOT = chaos.ROOT
PIN_MAX_FAILURES = 5     # perflab.wallet.pin-guard.max-failures
LOGIN_MAX_FAILURES = 5   # perflab.security.login-guard.max-failures-per-login
WAIT_LIMIT = 10.0        # a Retry-After up to this many seconds is waited out; a longer one means locked
ABSURD_BATCHES = 2147483647
ROUTE_UNIV = 11          # a small university (500 routes), loaded into the abuse database
WRONG_PIN = "9999"
BURST = 120              # guesses sent at once by the burst scenarios
REDIS_DOWN_GUESSES = 20


def log(message):
    chaos.log(message, "abuse")


# ------------------------------------------------------------------------------------------- pure logic

def retry_after_seconds(value, now=None):
    """A Retry-After header in seconds: delta-seconds or an HTTP date (RFC 9110); None when absent or malformed."""
    if value is None:
        return None
    value = value.strip()
    if value.isascii() and value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None or when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


@dataclass
class Answer:
    """One HTTP answer as a check needs it."""
    status: object  # an int, or "no answer"
    code: str | None = None
    retry_after: float | None = None
    body: object = None
    where: str = ""


def describe(answer):
    return f"{answer.status} {answer.code or ''}".strip()


def guard_step(answer, refused, wait_limit=WAIT_LIMIT):
    """What a guesser does after `answer`: ("guess", 0) again at once after a `refused` (a wrong guess), ("wait", s)
    then guess again, or ("stop", 0): locked (a 429 whose Retry-After is missing or longer than wait_limit) or an
    answer no guard gives."""
    if answer.status == refused:
        return "guess", 0
    if answer.status == 429 and answer.retry_after is not None and answer.retry_after <= wait_limit:
        return "wait", answer.retry_after
    return "stop", 0


def judge_guessing(answers, refused, refused_code, limit, wait_limit=WAIT_LIMIT):
    """The checks of a guessing run: (name, ok, figure) for at most `limit` answers `refused` (e.g. 403 wrong-pin),
    nothing else but them and 429 `refused_code` with a Retry-After, and a last answer that is such a 429 locking
    (Retry-After over wait_limit)."""
    wrong = sum(1 for a in answers if a.status == refused)
    guarded = [a for a in answers if a.status == 429 and a.code == refused_code]
    other = [describe(a) for a in answers if a not in guarded and a.status != refused]
    last = answers[-1] if answers else None
    locked = bool(last and last in guarded and last.retry_after is not None and last.retry_after > wait_limit)
    return [
        (f"at most {limit} guesses answered {refused}", 1 <= wrong <= limit and not other,
         f"{wrong} of {len(answers)} answers {refused}" + (f"; unexpected: {', '.join(other)}" if other else "")),
        (f"then 429 {refused_code} with Retry-After", bool(guarded) and all(a.retry_after is not None for a in guarded)
         and locked, f"{len(guarded)} answers 429, Retry-After " + ", ".join(
             "none" if a.retry_after is None else f"{a.retry_after:.0f}" for a in guarded) + " s"
         + ("" if locked else "; the last answer did not lock the guesser out")),
    ]


def statuses(answers: list) -> dict:
    """How many answers had each status, e.g. {403: 5, 429: 115}."""
    counts: dict = {}
    for answer in answers:
        counts[answer.status] = counts.get(answer.status, 0) + 1
    return counts


def judge_burst(answers: list, refused: int, refused_code: str, limit: int) -> list:
    """The checks of guesses sent at once: (name, ok, figure) for 1..`limit` answers `refused` and every other answer
    a 429 `refused_code` with a Retry-After."""
    counts = statuses(answers)
    checked = counts.get(refused, 0)
    others = [a for a in answers if a.status != refused]
    guarded = all(a.status == 429 and a.code == refused_code and a.retry_after is not None for a in others)
    return [(f"{len(answers)} guesses at once: at most {limit} answered {refused}, the rest 429 {refused_code}",
             1 <= checked <= limit and guarded,
             ", ".join(f"{n} x {status}" for status, n in sorted(counts.items(), key=lambda kv: str(kv[0])))
             + ("" if guarded else "; not all the others are a 429 " + refused_code + " with Retry-After"))]


def keys_without_ttl(ttls: dict) -> list:
    """The keys whose PTTL (ms; -1 no TTL, -2 gone) says they would never expire."""
    return sorted(key for key, ttl in ttls.items() if ttl == -1)


class Verdicts:
    """The checks of a run: PASS/FAIL lines as they come, and the count at the end."""

    def __init__(self, out=None):
        self.results = []
        self.out = out or sys.stdout

    def add(self, scope, name, ok, figure):
        self.results.append({"scope": scope, "check": name, "ok": bool(ok), "figure": figure})
        print(f"{'PASS' if ok else 'FAIL'} [{scope}] {name}: {figure}", file=self.out, flush=True)

    def extend(self, scope, checks):
        for name, ok, figure in checks:
            self.add(scope, name, ok, figure)

    def error(self, scope, error):
        """A scenario that could not run to its end is one FAIL, not a crash of the suite."""
        self.add(scope, "the scenario ran to its end", False, f"{type(error).__name__}: {error}")

    @property
    def passed(self):
        return sum(1 for r in self.results if r["ok"])

    @property
    def failed(self):
        return len(self.results) - self.passed

    def summary(self):
        return f"{self.passed} passed, {self.failed} failed"


# ------------------------------------------------------------------------------------------- HTTP

def call(base_url, method, path, body=None, headers=None, timeout=30, source=None):
    """One request (from the local address `source` if given); the answer with its problem code, Retry-After in
    seconds and parsed JSON body."""
    data = None if body is None else json.dumps(body)
    status, parsed, response_headers = chaos.request(
        base_url, method, path, data, {**({"Content-Type": "application/json"} if data else {}), **(headers or {})},
        timeout, source)
    if status == "no answer":
        return Answer(status, parsed, where=base_url)
    code = parsed.get("code") if isinstance(parsed, dict) else None
    return Answer(status, code, retry_after_seconds(response_headers.get("Retry-After")), parsed, base_url)


def bearer(value):
    return {"Authorization": f"Bearer {value}"}


def login(base_url, login_id, password, tries=3):
    """POST /api/auth/login; a 503 auth-api-unavailable (the stub did not answer in time: a cold instance on a busy
    machine) is tried again after its Retry-After, never a guard's answer or the breaker's (auth-api-circuit-open)."""
    for _ in range(tries):
        answer = call(base_url, "POST", "/api/auth/login", {"loginId": login_id, "password": password})
        if answer.status != 503 or answer.code != "auth-api-unavailable":
            break
        log(f"  login {login_id}: 503 auth-api-unavailable, tried again")
        time.sleep(min(answer.retry_after or 1.0, WAIT_LIMIT))
    return answer


def admin_login(base_url):
    """The stub's admin account (ADMIN_LOGIN, ADMIN_PASSWORD; by default this install's admin-login and
    admin-password), as k6/lib/preconditions.js logs in."""
    return login(base_url, os.environ.get("ADMIN_LOGIN") or labsecrets.admin_login(),
                 os.environ.get("ADMIN_PASSWORD") or labsecrets.admin_password())


# ------------------------------------------------------------------------------------------- scenarios

@dataclass
class Lab:
    """What the scenarios share: the stack, the database, the app's URLs, the members and the secrets."""
    stack: chaos.Stack
    database: str
    redis_db: int
    url: str                   # the app, or the load balancer in front of the instances
    instance_urls: list        # each instance (the app alone: [url])
    secret: str
    start_args: list = field(default_factory=list)  # ./perflab app start's options for one more instance
    spare_port: int = 0
    members: list = field(default_factory=list)

    def fresh_token(self, member):
        return chaos.token(self.secret, member["id"], member["login"], jti=uuid.uuid4().hex)

    def books(self, member_ids):
        """Balances of the members and rows of the transfer tables: what no refused transfer may change."""
        ids = ",".join(str(i) for i in member_ids)
        balances = self.stack.sql(self.database, f"SELECT member_id, balance FROM wallet WHERE member_id IN ({ids}) "
                                                 "ORDER BY member_id")
        rows = self.stack.sql(self.database, "SELECT (SELECT COUNT(*) FROM wallet_transaction), "
                                             "(SELECT COUNT(*) FROM ledger_entry)")[0]
        return {"balances": {int(i): b for i, b in balances}, "history rows": int(rows[0]), "ledger rows": int(rows[1])}


def guessing(lab, verdicts, scope, what, send, refused, code, limit):
    """Wrong guesses, send(False, index) -> Answer, until the guard locks the guesser out (each short Retry-After
    waited out), then the right one, send(True, index): judge_guessing's checks, the spread over the instances, and
    the right guess refused too."""
    answers: list[Answer] = []
    deadline = time.monotonic() + 60
    while len(answers) < limit * 3 and time.monotonic() < deadline:
        answers.append(send(False, len(answers)))
        step, seconds = guard_step(answers[-1], refused)
        if step == "stop":
            break
        time.sleep(seconds)
    log(f"  {what} guesses: {', '.join(map(describe, answers))}")
    verdicts.extend(scope, judge_guessing(answers, refused, code, limit))
    if len(lab.instance_urls) > 1:
        spread = {a.where for a in answers}
        verdicts.add(scope, "the guesses went to every instance", len(spread) == len(lab.instance_urls),
                     f"{len(spread)} of {len(lab.instance_urls)} instances")
    right = send(True, len(answers))
    verdicts.add(scope, f"the right {what} is refused too (429 {code})",
                 right.status == 429 and right.code == code and right.retry_after is not None,
                 f"{describe(right)}, Retry-After {right.retry_after}")


def pin_guessing(lab, verdicts, scope):
    member, receiver = lab.members[0], lab.members[1]
    before = lab.books([member["id"], receiver["id"]])

    def transfer(right, index):  # a fresh token and Idempotency-Key each time, the instances in turn
        return call(lab.instance_urls[index % len(lab.instance_urls)], "POST", "/api/transfers",
                    {"receiverPhone": receiver["phone"], "amount": 1.00, "pin": labsecrets.member_pin() if right else WRONG_PIN},
                    {**bearer(lab.fresh_token(member)), "Idempotency-Key": str(uuid.uuid4())})

    guessing(lab, verdicts, scope, "PIN", transfer, 403, "too-many-pin-failures", PIN_MAX_FAILURES)
    after = lab.books([member["id"], receiver["id"]])
    verdicts.add(scope, "no money moved and no transfer was written", after == before,
                 f"before {before}, after {after}" if after != before else f"balances {after['balances']}, "
                 f"{after['history rows']} history and {after['ledger rows']} ledger rows, as before")


def login_guessing(lab, verdicts, scope):
    target, other = "user4242", "user4243"

    def attempt(right, index):
        return login(lab.instance_urls[index % len(lab.instance_urls)], target,
                     labsecrets.member_password() if right else f"wrong-{index}")

    guessing(lab, verdicts, scope, "password", attempt, 401, "too-many-login-failures", LOGIN_MAX_FAILURES)
    someone = login(lab.url, other, labsecrets.member_password())
    verdicts.add(scope, "another user still logs in (200)",
                 someone.status == 200 and isinstance(someone.body, dict) and bool(someone.body.get("accessToken")),
                 f"{other}: {describe(someone)}")


def burst(lab: "Lab", send, count: int = BURST) -> list:
    """`count` calls of send(index) -> Answer released at once from a thread pool: the answers."""
    start = threading.Event()

    def one(index: int) -> Answer:
        start.wait()
        return send(index)

    with concurrent.futures.ThreadPoolExecutor(max_workers=count) as pool:
        futures = [pool.submit(one, i) for i in range(count)]
        start.set()
        return [f.result() for f in futures]


def pin_transfer(lab: "Lab", member: dict, receiver: dict, pin: str, index: int) -> Answer:
    """One transfer with a fresh token and Idempotency-Key, to the instances in turn."""
    return call(lab.instance_urls[index % len(lab.instance_urls)], "POST", "/api/transfers",
                {"receiverPhone": receiver["phone"], "amount": 1.00, "pin": pin},
                {**bearer(lab.fresh_token(member)), "Idempotency-Key": str(uuid.uuid4())})


def pin_burst(lab: "Lab", verdicts: Verdicts, scope: str) -> None:
    member, receiver = lab.members[2], lab.members[1]
    before = lab.books([member["id"], receiver["id"]])
    answers = burst(lab, lambda i: pin_transfer(lab, member, receiver, f"{9000 + i:04d}", i))  # never the install's PIN (never 9xxx)
    log(f"  {len(answers)} PINs at once: {statuses(answers)}")
    verdicts.extend(scope, judge_burst(answers, 403, "too-many-pin-failures", PIN_MAX_FAILURES))
    after = lab.books([member["id"], receiver["id"]])
    verdicts.add(scope, "no money moved", after == before, f"balances {after['balances']}")


def login_burst(lab: "Lab", verdicts: Verdicts, scope: str) -> None:
    target = "user4245"
    answers = burst(lab, lambda i: call(lab.instance_urls[i % len(lab.instance_urls)], "POST", "/api/auth/login",
                                        {"loginId": target, "password": f"wrong-{i}"}))
    log(f"  {len(answers)} passwords at once: {statuses(answers)}")
    verdicts.extend(scope, judge_burst(answers, 401, "too-many-login-failures", LOGIN_MAX_FAILURES))


def counts_expire(lab: "Lab", verdicts: Verdicts, scope: str) -> None:
    keys = [k.decode() for k in lab.stack.redis(lab.redis_db, "KEYS", "guess:*") or []]
    ttls = {key: lab.stack.redis(lab.redis_db, "PTTL", key) for key in keys}
    never = keys_without_ttl(ttls)
    verdicts.add(scope, "every guess:* key in Redis has a TTL", bool(keys) and not never,
                 f"{len(keys)} keys" + (f", without a TTL: {', '.join(never)}" if never else ", all expiring"))


def redis_down(lab: "Lab", verdicts: Verdicts, scope: str) -> None:
    member, receiver = lab.members[3], lab.members[1]
    limit = PIN_MAX_FAILURES  # while Redis is down every instance counts in MariaDB: one bound for all of them
    lab.stack.native("down", "redis")
    try:  # a burst at once (to every instance in turn), then one by one
        answers = burst(lab, lambda i: pin_transfer(lab, member, receiver, WRONG_PIN, i))
        answers += [pin_transfer(lab, member, receiver, WRONG_PIN, i) for i in range(REDIS_DOWN_GUESSES)]
    finally:
        lab.stack.native("up", "redis")
    log(f"  {len(answers)} PINs with Redis down: {statuses(answers)}")
    checked = statuses(answers).get(403, 0)
    others = [describe(a) for a in answers if a.status not in (403, 429)]
    verdicts.add(scope, f"with Redis down, at most {limit} of {len(answers)} wrong PINs are checked, the rest 429",
                 1 <= checked <= limit and not others, f"{statuses(answers)}"
                 + (f"; unexpected: {', '.join(others)}" if others else ""))


def repository_credentials(lab: "Lab", verdicts: Verdicts, scope: str) -> None:
    """What a copy of the repository knew opens nothing (issue 46, finding 2): its admin and member passwords get 401,
    its PIN moves no money; this install's (stack/secrets.sh) log in."""
    known = labsecrets.REPOSITORY_CREDENTIALS
    admin_name, admin_pass = known[labsecrets.ADMIN_LOGIN], known[labsecrets.ADMIN_PASSWORD]
    member_pass, pin = known[labsecrets.MEMBER_PASSWORD], known[labsecrets.MEMBER_PIN]

    def settled(login_id: str, password: str) -> Answer:
        """The login's answer once a short backoff the earlier scenarios' wrong passwords left is waited out."""
        answer = login(lab.url, login_id, password)
        for _ in range(3):
            step, seconds = guard_step(answer, 429)
            if step != "wait":
                break
            time.sleep(seconds)
            answer = login(lab.url, login_id, password)
        return answer

    for login_id, password, what in ((admin_name, admin_pass, "the repository's admin and password"),
                                     (admin_name, labsecrets.admin_password(), "the repository's admin login"),
                                     (labsecrets.admin_login(), admin_pass, "the repository's admin password"),
                                     ("user1", member_pass, "user1 with the repository's member password")):
        answer = settled(login_id, password)
        verdicts.add(scope, f"{what} is refused (401)", answer.status == 401, describe(answer))
    answer = settled("user4246", labsecrets.member_password())  # not a guessing scenario's target (user4242..4245)
    verdicts.add(scope, "a member with this install's password logs in (200)", answer.status == 200, describe(answer))
    answer = settled(labsecrets.admin_login(), labsecrets.admin_password())
    verdicts.add(scope, "the admin with this install's login and password logs in (200)", answer.status == 200,
                 describe(answer))
    if labsecrets.member_pin() == pin:
        verdicts.add(scope, f"this install's PIN is not the repository's {pin}", False, "stack/secrets.sh never makes it")
        return
    member, receiver = lab.members[4], lab.members[0]  # its own member: one wrong PIN, no other scenario's count
    before = lab.books([member["id"], receiver["id"]])
    answer = pin_transfer(lab, member, receiver, pin, 0)
    after = lab.books([member["id"], receiver["id"]])
    verdicts.add(scope, f"the repository's PIN {pin} is refused (403 wrong-pin)", answer.status == 403, describe(answer))
    verdicts.add(scope, f"the repository's PIN {pin} moves no money", after == before, f"balances {after['balances']}")


def forged_tokens(lab, verdicts, scope):
    member = lab.members[1]
    own = call(lab.url, "GET", "/api/auth/me", headers=bearer(lab.fresh_token(member)))
    verdicts.add(scope, "a token signed with the generated secret is accepted (200)", own.status == 200,
                 describe(own))
    committed = labsecrets.development_secrets()
    if not committed:
        verdicts.add(scope, "the repository's development secrets were found", False, "none found by git grep")
    for secret in committed:
        forged = chaos.token(secret, member["id"], member["login"], jti=uuid.uuid4().hex)
        answer = call(lab.url, "GET", "/api/auth/me", headers=bearer(forged))
        verdicts.add(scope, f"a token signed with the committed '{secret[:24]}...' is refused (401)",
                     answer.status == 401, describe(answer))


def admin_only(lab, verdicts, scope):
    member = login(lab.url, "user4244", labsecrets.member_password())
    admin = admin_login(lab.url)
    if member.status != 200 or admin.status != 200:
        verdicts.add(scope, "a member and the admin log in", False, f"member {member.status} {member.code}, "
                                                                     f"admin {admin.status} {admin.code}")
        return
    member_token, admin_token = member.body["accessToken"], admin.body["accessToken"]
    lab_path = "/api/lab/dependency?delayMs=100"
    ceiling = f"/api/universities/{ROUTE_UNIV}/routes/cached-bytes"
    for path, what in ((lab_path, "/api/lab/dependency"), (ceiling, "the route ceiling")):
        answer = call(lab.url, "GET", path, headers=bearer(member_token))
        verdicts.add(scope, f"a plain member gets 403 from {what}", answer.status == 403,
                     describe(answer))
    answer = call(lab.url, "GET", lab_path, headers=bearer(admin_token))
    verdicts.add(scope, "the admin gets 200 from /api/lab/dependency", answer.status == 200,
                 describe(answer))
    statuses: dict = {}
    lock = threading.Lock()

    def member_call():
        answer = call(lab.url, "GET", lab_path, headers=bearer(member_token))
        with lock:
            statuses[answer.status] = statuses.get(answer.status, 0) + 1

    threads = [threading.Thread(target=member_call) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    verdicts.add(scope, "20 concurrent member calls are all refused (403)", statuses == {403: 20}, str(statuses))
    again = admin_login(lab.url)
    verdicts.add(scope, "the admin still logs in after them (200)", again.status == 200,
                 describe(again))
    anonymous, admin_view = (call(lab.url, "GET", "/actuator/health", headers=h) for h in (dict[str, str](), bearer(admin_token)))
    shown = [isinstance(a.body, dict) and "components" in a.body for a in (anonymous, admin_view)]
    verdicts.add(scope, "health says UP without details to an anonymous caller, with them to the admin",
                 anonymous.status == 200 and isinstance(anonymous.body, dict) and anonymous.body.get("status") == "UP"
                 and shown == [False, True],
                 f"anonymous {describe(anonymous)} {'with' if shown[0] else 'without'} details, admin "
                 f"{'with' if shown[1] else 'without'} details")


def rejected_total(lab, token):
    """perflab_route_cache_rejected_total summed over the instances' /actuator/prometheus (None if none has it)."""
    total, seen = 0.0, False
    for url in lab.instance_urls:
        answer = call(url, "GET", "/actuator/prometheus", headers=bearer(token))
        for line in (answer.body if isinstance(answer.body, str) else "").splitlines():
            if line.startswith("perflab_route_cache_rejected_total"):
                total += float(line.rsplit(" ", 1)[1])
                seen = True
    return total if seen else None


def tampered_cache(lab, verdicts, scope):
    member = lab.members[1]
    path = f"/api/universities/{ROUTE_UNIV}/routes"
    first = call(lab.url, "GET", path, headers=bearer(lab.fresh_token(member)), timeout=120)
    if first.status != 200:
        verdicts.add(scope, "the route is served before the tampering", False, f"{first.status} {first.code}")
        return
    keys = lab.stack.redis(lab.redis_db, "KEYS", f"route:*{{{ROUTE_UNIV}}}*manifest") or []
    if not keys:
        verdicts.add(scope, "the first read cached the route (a manifest in Redis)", False,
                     f"no route:*{{{ROUTE_UNIV}}}*manifest key in Redis db {lab.redis_db}")
        return
    admin = admin_login(lab.url)
    admin_token = admin.body.get("accessToken") if isinstance(admin.body, dict) else ""
    rejected_before = rejected_total(lab, admin_token)
    tampered = []
    for key in keys:
        version, _, routes = lab.stack.redis(lab.redis_db, "GET", key).decode().split(":")
        lab.stack.redis(lab.redis_db, "SET", key, f"{version}:{ABSURD_BATCHES}:{routes}")
        tampered.append(key.decode())
    log(f"  manifest {', '.join(tampered)} now announces {ABSURD_BATCHES} batches")
    second = call(lab.url, "GET", path, headers=bearer(lab.fresh_token(member)), timeout=120)
    verdicts.add(scope, "a manifest announcing 2147483647 batches: the route is still served (200, the same data)",
                 second.status == 200 and second.body == first.body,
                 f"{describe(second)}, "
                 + (f"{second.body.get('routeCount')} routes as before" if second.body == first.body and isinstance(
                     second.body, dict) else "a different body than before the tampering"))
    rejected_after = rejected_total(lab, admin_token)
    verdicts.add(scope, "the rejected manifest is counted (perflab_route_cache_rejected_total)",
                 rejected_after is not None and rejected_after > (rejected_before or 0),
                 f"{rejected_before} -> {rejected_after}")
    later = [call(lab.url, "GET", path, headers=bearer(lab.fresh_token(member)), timeout=120).status for _ in range(5)]
    health = call(lab.url, "GET", "/actuator/health")
    status = health.body.get("status") if isinstance(health.body, dict) else health.status
    verdicts.add(scope, "later requests are served (5 x 200, health UP)", later == [200] * 5 and status == "UP",
                 f"{later}, health {status}")


def refused_at_startup(lab, verdicts, scope):
    """An app given a committed secret in place of each generated one exits before it serves, and its log names the
    property but never the value."""
    committed = labsecrets.development_secrets()
    log_file = ROOT / ".perflab" / "abuse-refused.log"
    for index, (name, variable) in enumerate(labsecrets.OVERRIDES.items()):
        value = committed[index % len(committed)]  # the app refuses every committed value for either property
        log_file.unlink(missing_ok=True)
        refused = appctl.Instance("abuse-refused")
        try:
            with contextlib.redirect_stderr(io.StringIO()):  # the launcher's tail of the log: read from the log below
                appctl.start(["--port", str(lab.spare_port), *lab.start_args], instance=refused.name,
                             env={variable: value}, say=lambda line: None)
            started = True
        except SystemExit:  # the launcher's "exited during startup"
            started = False
        if started:
            refused.stop(quiet=True)
        text = log_file.read_text(errors="replace") if log_file.exists() else ""
        verdicts.add(scope, f"the app refuses to start with {name} = '{value[:24]}...'",
                     not started and name in text and value not in text,
                     ("started and served" if started else "exited during startup") + ", its log "
                     + ("names the property" if name in text else "does not name the property")
                     + (" and shows the value" if value in text else ""))


# ------------------------------------------------------------------------------------------- slow readers


def seed_routes(database: str, university: int, routes: int) -> None:
    """A university's route data set in `database`: ./perflab seed route ... ensure, as the loaders' own process."""
    seeded = launcher.run_seeding(["route", "--db", database, "--univs", str(university), "--routes", str(routes),
                                   "ensure"], os.environ)
    if seeded.returncode != 0:
        raise RuntimeError(f"./perflab seed route: {(seeded.stderr or seeded.stdout).strip()[-500:]}")


SLOW_UNIV = 12               # a university as big as the seeded ones (50,000 routes, ~4 MB answer), abuse db only
SLOW_ROUTES = 50000
SLOW_MEMBERS = (880001, 880002, 880003)  # route reads need no member row: a signed token is enough
SLOW_PER_MEMBER = 2          # perflab.route.member-concurrency: each member at its limit, none over it
SLOW_BOUND = 10.0            # issue 46: another member's read answers in under 10 s
SLOW_RECEIVE_BUFFER = 1024   # the kernel rounds it up to its minimum: the server's window closes after a few KB


def slow_request(path: str, host: str, port: int, token: str) -> bytes:
    """A route GET as a slow reader sends it on a raw socket: HTTP/1.1, keep-alive, the member's Bearer token."""
    return (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n"
            "Accept: application/json\r\n\r\n").encode("ascii")


def judge_slow_readers(stalled: int, readers: int, other: Answer, other_seconds: float, third: Answer,
                       health: Answer, bound: float = SLOW_BOUND) -> list[tuple[str, bool, str]]:
    """The checks of a slow-readers run: every reader's answer began and stalled, another member's read was 200 within
    `bound` seconds, a member's read beyond its limit was 429 too-many-route-reads with Retry-After, health answered
    UP meanwhile."""
    status = health.body.get("status") if isinstance(health.body, dict) else health.status
    return [
        (f"{readers} slow readers' answers began (the server is writing to them)", stalled == readers,
         f"{stalled} of {readers} status lines read"),
        (f"another member's route read answers 200 in under {bound:.0f} s", other.status == 200
         and other_seconds < bound, f"{describe(other)} after {other_seconds:.1f} s"),
        ("a member's read beyond its limit is 429 too-many-route-reads with Retry-After",
         third.status == 429 and third.code == "too-many-route-reads" and third.retry_after is not None,
         f"{describe(third)}, Retry-After {third.retry_after}"),
        ("health answers UP while they read", status == "UP", f"health {status}"),
    ]


class SlowReader:
    """One raw socket that asks for a route, reads its status line, then stops reading: the server's write blocks."""

    def __init__(self, url: str, path: str, token: str) -> None:
        parts = urllib.parse.urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.request = slow_request(path, self.host, self.port, token)
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.status_line = ""
        self.thread = threading.Thread(target=self._ask, daemon=True)

    def _ask(self) -> None:
        try:
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SLOW_RECEIVE_BUFFER)
            self.socket.settimeout(120)
            self.socket.connect((self.host, self.port))
            self.socket.sendall(self.request)
            head = b""
            while len(head) < 12 and (chunk := self.socket.recv(12 - len(head))):
                head += chunk
            self.status_line = head.decode("ascii", "replace")
        except OSError:
            pass  # closed by close(), or refused: no status line, judged by the checks

    def close(self) -> None:
        self.socket.close()
        self.thread.join(5)


def slow_readers(lab: Lab, verdicts: Verdicts, scope: str) -> None:
    """Six clients (two per member, each member at its limit) read a big university's routes at a trickle on one
    instance; meanwhile another member's read of it must answer within SLOW_BOUND, a third read of a member at its limit
    must be refused (429), and health must answer. Issue 46, finding 6: measured 58.8 s before the permit covered
    the build alone."""
    seed_routes(lab.database, SLOW_UNIV, SLOW_ROUTES)
    url, path = lab.instance_urls[0], f"/api/universities/{SLOW_UNIV}/routes"
    token = {m: chaos.token(lab.secret, m, f"slow{m}", jti=uuid.uuid4().hex) for m in (*SLOW_MEMBERS, 880009)}
    warm = call(url, "GET", path, headers=bearer(token[880009]), timeout=120)  # loads the cache: a read like any other
    log(f"  {path}: {describe(warm)} before the slow readers")
    readers = [SlowReader(url, path, token[m]) for m in SLOW_MEMBERS for _ in range(SLOW_PER_MEMBER)]
    try:
        for reader in readers:
            reader.thread.start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and any(r.thread.is_alive() for r in readers):
            time.sleep(0.1)
        stalled = sum(1 for r in readers if r.status_line.startswith("HTTP/1.1 200"))
        started = time.monotonic()
        other = call(url, "GET", path, headers=bearer(token[880009]), timeout=120)
        other_seconds = time.monotonic() - started
        third = call(url, "GET", path, headers=bearer(token[SLOW_MEMBERS[0]]), timeout=120)
        health = call(url, "GET", "/actuator/health", timeout=30)
    finally:
        for reader in readers:
            reader.close()
    log(f"  another member's read with {len(readers)} trickle readers: {describe(other)} in {other_seconds:.1f} s")
    verdicts.extend(scope, judge_slow_readers(stalled, len(readers), other, other_seconds, third, health))


# ------------------------------------------------------------------------------------------- the client's address

ADDRESS_MAX_FAILURES = 100  # perflab.security.login-guard.max-failures-per-address
SPOOFER, BYSTANDER = "127.0.0.6", "127.0.0.7"  # two clients on this machine, neither the balancer's 127.0.0.2


def spoofed_address(index: int) -> str:
    """The address a spoofing client claims for its index-th try (TEST-NET-3, 203.0.113.0/24, then onwards)."""
    return f"203.0.{113 + index // 250}.{1 + index % 250}"


def judge_forwarded_for(answers: list, bystander: Answer, limit: int = ADDRESS_MAX_FAILURES,
                        behind_balancer: bool = False) -> list[tuple[str, bool, str]]:
    """The checks of a spoofing run: a client that names a new X-Forwarded-For address on every wrong password, each
    for another login id, is still counted under its own address (at most `limit` 401s, then 429
    too-many-login-failures); another client on the same proxy or host still logs in."""
    counts = statuses(answers)
    refused = [a for a in answers if a.status == 429 and a.code == "too-many-login-failures"]
    where = "behind the balancer" if behind_balancer else "straight to the app"
    return [
        (f"a client's own X-Forwarded-For does not spread its guesses over addresses ({where})",
         counts.get(401, 0) <= limit and bool(refused) and set(counts) <= {401, 429},
         ", ".join(f"{n} x {status}" for status, n in sorted(counts.items(), key=lambda kv: str(kv[0])))),
        (f"another client on the same {'proxy' if behind_balancer else 'host'} still logs in (200)",
         bystander.status == 200, describe(bystander)),
    ]


def forwarded_for(lab: "Lab", verdicts: "Verdicts", scope: str) -> None:
    """One client (SPOOFER) sends wrong passwords for ever new login ids, each with a new X-Forwarded-For, until its
    address is refused or limit + 10 tries have gone; then another client (BYSTANDER) logs in. Straight to the app the
    header is not trusted (only the balancer's address is); behind the balancer HAProxy drops it and names the
    client it saw, so the two clients stay apart."""
    answers = []
    for index in range(ADDRESS_MAX_FAILURES + 10):
        answer = call(lab.url, "POST", "/api/auth/login", {"loginId": f"spoof{index}", "password": f"wrong-{index}"},
                      {"X-Forwarded-For": spoofed_address(index)}, source=SPOOFER)
        answers.append(answer)
        if answer.status == 429:
            break
    bystander = call(lab.url, "POST", "/api/auth/login",
                     {"loginId": "user4247", "password": labsecrets.member_password()}, source=BYSTANDER)
    verdicts.extend(scope, judge_forwarded_for(answers, bystander, behind_balancer=len(lab.instance_urls) > 1))


SCENARIOS = (("pin", pin_guessing), ("login", login_guessing), ("pin-burst", pin_burst), ("login-burst", login_burst),
             ("ttl", counts_expire), ("tokens", forged_tokens), ("admin", admin_only),
             ("repository credentials", repository_credentials), ("cache", tampered_cache),
             ("slow-readers", slow_readers), ("forwarded-for", forwarded_for),
             ("redis-down", redis_down))  # redis-down last: it stops the shared Redis


# ------------------------------------------------------------------------------------------- one preset

def run_preset(preset, args, stack, verdicts, first=True):
    side = preset.split("-")[-1]
    database = f"{chaos.env('PERFLAB_DB_NAME', 'perflab')}_abuse_{side}"  # inside the perflab% grant
    redis_db = int(chaos.env("PERFLAB_ABUSE_REDIS_DB", "7"))
    port = int(chaos.env("PERFLAB_ABUSE_APP_PORT", "8180"))
    instances = chaos.Instances([], None, None, preset, stack, database, redis_db, args.instances, suite="abuse",
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


def parse(argv):
    parser = argparse.ArgumentParser(prog="./perflab abuse", description=__doc__.split("\n")[0])
    parser.add_argument("--preset", choices=["wallet-before", "wallet-after", "both"], default="both")
    parser.add_argument("--instances", type=int, default=0, metavar="N",
                        help="start N instances (abuse-1..N on PERFLAB_ABUSE_APP_PORT+1..) behind a load balancer "
                             "(HAProxy on PERFLAB_ABUSE_APP_PORT); default: one instance, no balancer")
    parser.add_argument("--json", help="also write the checks as JSON to this file")
    return parser.parse_args(argv)


def main(argv):
    args = parse(argv)
    if not 0 <= args.instances <= 9:
        sys.exit(f"abuse: --instances takes 1 to 9 instances, not {args.instances}")
    stack = chaos.Stack()
    if not chaos.wait_port(stack.db_port, 1) or not chaos.wait_port(stack.redis_port, 1):
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

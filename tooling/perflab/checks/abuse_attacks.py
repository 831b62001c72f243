"""The abuse suite's attacks, each a scenario(lab, verdicts, scope) that adds its checks: PIN and password guessing
(one by one and at once, with Redis down too), the guards' counts expiring, forged tokens, the admin's endpoints,
the repository's credentials, a tampered route cache, slow readers, a spoofed X-Forwarded-For, and an app given a
committed secret at startup."""
import concurrent.futures
import contextlib
import io
import socket
import threading
import time
import urllib.parse
import uuid
from typing import Callable

from perflab.lab import appctl
from perflab.lab import labsecrets
from perflab.checks.abuse_judges import (ADDRESS_MAX_FAILURES, Answer, Verdicts, describe, guard_step, judge_burst,
                          judge_forwarded_for, judge_guessing, judge_slow_readers, keys_without_ttl, slow_request,
                          spoofed_address, statuses)
from perflab.checks.abuse_lab import ROUTE_UNIV, Lab, admin_login, bearer, call, log, login, seed_routes
from perflab.checks.chaos_clients import Member, token
from perflab.paths import ROOT

PIN_MAX_FAILURES = 5     # perflab.wallet.pin-guard.max-failures
LOGIN_MAX_FAILURES = 5   # perflab.security.login-guard.max-failures-per-login
ABSURD_BATCHES = 2147483647
WRONG_PIN = "9999"
BURST = 120              # guesses sent at once by the burst scenarios
REDIS_DOWN_GUESSES = 20

Scenario = Callable[[Lab, Verdicts, str], None]  # an attack: adds its checks to the verdicts under its scope


def guessing(lab: Lab, verdicts: Verdicts, scope: str, what: str, send: Callable[[bool, int], Answer], refused: int,
             code: str, limit: int) -> None:
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


def pin_guessing(lab: Lab, verdicts: Verdicts, scope: str) -> None:
    member, receiver = lab.members[0], lab.members[1]
    before = lab.books([member["id"], receiver["id"]])

    def transfer(right: bool, index: int) -> Answer:  # a fresh token and Idempotency-Key each time, the instances in turn
        return call(lab.instance_urls[index % len(lab.instance_urls)], "POST", "/api/transfers",
                    {"receiverPhone": receiver["phone"], "amount": 1.00, "pin": labsecrets.member_pin() if right else WRONG_PIN},
                    {**bearer(lab.fresh_token(member)), "Idempotency-Key": str(uuid.uuid4())})

    guessing(lab, verdicts, scope, "PIN", transfer, 403, "too-many-pin-failures", PIN_MAX_FAILURES)
    after = lab.books([member["id"], receiver["id"]])
    verdicts.add(scope, "no money moved and no transfer was written", after == before,
                 f"before {before}, after {after}" if after != before else f"balances {after['balances']}, "
                 f"{after['history rows']} history and {after['ledger rows']} ledger rows, as before")


def login_guessing(lab: Lab, verdicts: Verdicts, scope: str) -> None:
    target, other = "user4242", "user4243"

    def attempt(right: bool, index: int) -> Answer:
        return login(lab.instance_urls[index % len(lab.instance_urls)], target,
                     labsecrets.member_password() if right else f"wrong-{index}")

    guessing(lab, verdicts, scope, "password", attempt, 401, "too-many-login-failures", LOGIN_MAX_FAILURES)
    someone = login(lab.url, other, labsecrets.member_password())
    verdicts.add(scope, "another user still logs in (200)",
                 someone.status == 200 and isinstance(someone.body, dict) and bool(someone.body.get("accessToken")),
                 f"{other}: {describe(someone)}")


def burst(lab: Lab, send: Callable[[int], Answer], count: int = BURST) -> list[Answer]:
    """`count` calls of send(index) -> Answer released at once from a thread pool: the answers."""
    start = threading.Event()

    def one(index: int) -> Answer:
        start.wait()
        return send(index)

    with concurrent.futures.ThreadPoolExecutor(max_workers=count) as pool:
        futures = [pool.submit(one, i) for i in range(count)]
        start.set()
        return [f.result() for f in futures]


def pin_transfer(lab: Lab, member: Member, receiver: Member, pin: str, index: int) -> Answer:
    """One transfer with a fresh token and Idempotency-Key, to the instances in turn."""
    return call(lab.instance_urls[index % len(lab.instance_urls)], "POST", "/api/transfers",
                {"receiverPhone": receiver["phone"], "amount": 1.00, "pin": pin},
                {**bearer(lab.fresh_token(member)), "Idempotency-Key": str(uuid.uuid4())})


def pin_burst(lab: Lab, verdicts: Verdicts, scope: str) -> None:
    member, receiver = lab.members[2], lab.members[1]
    before = lab.books([member["id"], receiver["id"]])
    answers = burst(lab, lambda i: pin_transfer(lab, member, receiver, f"{9000 + i:04d}", i))  # never the install's PIN (never 9xxx)
    log(f"  {len(answers)} PINs at once: {statuses(answers)}")
    verdicts.extend(scope, judge_burst(answers, 403, "too-many-pin-failures", PIN_MAX_FAILURES))
    after = lab.books([member["id"], receiver["id"]])
    verdicts.add(scope, "no money moved", after == before, f"balances {after['balances']}")


def login_burst(lab: Lab, verdicts: Verdicts, scope: str) -> None:
    target = "user4245"
    answers = burst(lab, lambda i: call(lab.instance_urls[i % len(lab.instance_urls)], "POST", "/api/auth/login",
                                        {"loginId": target, "password": f"wrong-{i}"}))
    log(f"  {len(answers)} passwords at once: {statuses(answers)}")
    verdicts.extend(scope, judge_burst(answers, 401, "too-many-login-failures", LOGIN_MAX_FAILURES))


def counts_expire(lab: Lab, verdicts: Verdicts, scope: str) -> None:
    keys = [k.decode() for k in lab.stack.redis(lab.redis_db, "KEYS", "guess:*") or []]
    ttls = {key: lab.stack.redis(lab.redis_db, "PTTL", key) for key in keys}
    never = keys_without_ttl(ttls)
    verdicts.add(scope, "every guess:* key in Redis has a TTL", bool(keys) and not never,
                 f"{len(keys)} keys" + (f", without a TTL: {', '.join(never)}" if never else ", all expiring"))


def redis_down(lab: Lab, verdicts: Verdicts, scope: str) -> None:
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


def repository_credentials(lab: Lab, verdicts: Verdicts, scope: str) -> None:
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


def forged_tokens(lab: Lab, verdicts: Verdicts, scope: str) -> None:
    member = lab.members[1]
    own = call(lab.url, "GET", "/api/auth/me", headers=bearer(lab.fresh_token(member)))
    verdicts.add(scope, "a token signed with the generated secret is accepted (200)", own.status == 200,
                 describe(own))
    committed = labsecrets.development_secrets()
    if not committed:
        verdicts.add(scope, "the repository's development secrets were found", False, "none found by git grep")
    for secret in committed:
        forged = token(secret, member["id"], member["login"], jti=uuid.uuid4().hex)
        answer = call(lab.url, "GET", "/api/auth/me", headers=bearer(forged))
        verdicts.add(scope, f"a token signed with the committed '{secret[:24]}...' is refused (401)",
                     answer.status == 401, describe(answer))


def admin_only(lab: Lab, verdicts: Verdicts, scope: str) -> None:
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
    statuses: dict[int | str, int] = {}
    lock = threading.Lock()

    def member_call() -> None:
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


def rejected_total(lab: Lab, token: str | None) -> float | None:
    """perflab_route_cache_rejected_total summed over the instances' /actuator/prometheus (None if none has it)."""
    total, seen = 0.0, False
    for url in lab.instance_urls:
        answer = call(url, "GET", "/actuator/prometheus", headers=bearer(token))
        for line in (answer.body if isinstance(answer.body, str) else "").splitlines():
            if line.startswith("perflab_route_cache_rejected_total"):
                total += float(line.rsplit(" ", 1)[1])
                seen = True
    return total if seen else None


def tampered_cache(lab: Lab, verdicts: Verdicts, scope: str) -> None:
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


def refused_at_startup(lab: Lab, verdicts: Verdicts, scope: str) -> None:
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


SLOW_UNIV = 12               # a university as big as the seeded ones (50,000 routes, ~4 MB answer), abuse db only


SLOW_ROUTES = 50000


SLOW_MEMBERS = (880001, 880002, 880003)  # route reads need no member row: a signed token is enough


SLOW_PER_MEMBER = 2          # perflab.route.member-concurrency: each member at its limit, none over it


SLOW_RECEIVE_BUFFER = 1024   # the kernel rounds it up to its minimum: the server's window closes after a few KB


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
    tokens = {m: token(lab.secret, m, f"slow{m}", jti=uuid.uuid4().hex) for m in (*SLOW_MEMBERS, 880009)}
    warm = call(url, "GET", path, headers=bearer(tokens[880009]), timeout=120)  # loads the cache: a read like any other
    log(f"  {path}: {describe(warm)} before the slow readers")
    readers = [SlowReader(url, path, tokens[m]) for m in SLOW_MEMBERS for _ in range(SLOW_PER_MEMBER)]
    try:
        for reader in readers:
            reader.thread.start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and any(r.thread.is_alive() for r in readers):
            time.sleep(0.1)
        stalled = sum(1 for r in readers if r.status_line.startswith("HTTP/1.1 200"))
        started = time.monotonic()
        other = call(url, "GET", path, headers=bearer(tokens[880009]), timeout=120)
        other_seconds = time.monotonic() - started
        third = call(url, "GET", path, headers=bearer(tokens[SLOW_MEMBERS[0]]), timeout=120)
        health = call(url, "GET", "/actuator/health", timeout=30)
    finally:
        for reader in readers:
            reader.close()
    log(f"  another member's read with {len(readers)} trickle readers: {describe(other)} in {other_seconds:.1f} s")
    verdicts.extend(scope, judge_slow_readers(stalled, len(readers), other, other_seconds, third, health))


SPOOFER, BYSTANDER = "127.0.0.6", "127.0.0.7"  # two clients on this machine, neither the balancer's 127.0.0.2


def forwarded_for(lab: Lab, verdicts: Verdicts, scope: str) -> None:
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


SCENARIOS: tuple[tuple[str, Scenario], ...] = (
    ("pin", pin_guessing), ("login", login_guessing), ("pin-burst", pin_burst), ("login-burst", login_burst),
    ("ttl", counts_expire), ("tokens", forged_tokens), ("admin", admin_only),
    ("repository credentials", repository_credentials), ("cache", tampered_cache),
    ("slow-readers", slow_readers), ("forwarded-for", forwarded_for),
    ("redis-down", redis_down))  # redis-down last: it stops the shared Redis

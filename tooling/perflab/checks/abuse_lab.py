"""What the abuse suite's attacks share: the lab (the stack, the database, the app's URLs, the members and the
secrets), the HTTP client they send with (an answer with its problem code and Retry-After), logging in, and the
route data sets they read."""
import json
import os
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from perflab.lab import labsecrets
from perflab.lab import launcher
from perflab.checks.abuse_judges import WAIT_LIMIT, Answer, retry_after_seconds
from perflab.checks.chaos_clients import Member, request, token
from perflab.checks.chaos_lab import Stack
from perflab.checks.chaos_lab import log as suite_log

ROUTE_UNIV = 11          # a small university (500 routes), loaded into the abuse database


def log(message: str) -> None:
    suite_log(message, "abuse")


def call(base_url: str, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
         timeout: float = 30, source: str | None = None) -> Answer:
    """One request (from the local address `source` if given); the answer with its problem code, Retry-After in
    seconds and parsed JSON body."""
    data = None if body is None else json.dumps(body)
    status, parsed, response_headers = request(
        base_url, method, path, data, {**({"Content-Type": "application/json"} if data else {}), **(headers or {})},
        timeout, source)
    if status == "no answer":
        return Answer(status, parsed, where=base_url)
    code = parsed.get("code") if isinstance(parsed, dict) else None
    return Answer(status, code, retry_after_seconds(response_headers.get("Retry-After")), parsed, base_url)


def bearer(value: str | None) -> dict[str, str]:
    """The Authorization header of a token (None, a login that gave none, is sent as the word: the call is refused)."""
    return {"Authorization": f"Bearer {value}"}


def login(base_url: str, login_id: str, password: str, tries: int = 3) -> Answer:
    """POST /api/auth/login; a 503 auth-api-unavailable (the stub did not answer in time: a cold instance on a busy
    machine) is tried again after its Retry-After, never a guard's answer or the breaker's (auth-api-circuit-open)."""
    for _ in range(tries):
        answer = call(base_url, "POST", "/api/auth/login", {"loginId": login_id, "password": password})
        if answer.status != 503 or answer.code != "auth-api-unavailable":
            break
        log(f"  login {login_id}: 503 auth-api-unavailable, tried again")
        time.sleep(min(answer.retry_after or 1.0, WAIT_LIMIT))
    return answer


def admin_login(base_url: str) -> Answer:
    """The stub's admin account (ADMIN_LOGIN, ADMIN_PASSWORD; by default this install's admin-login and
    admin-password), as k6/lib/preconditions.js logs in."""
    return login(base_url, os.environ.get("ADMIN_LOGIN") or labsecrets.admin_login(),
                 os.environ.get("ADMIN_PASSWORD") or labsecrets.admin_password())


@dataclass
class Lab:
    """What the scenarios share: the stack, the database, the app's URLs, the members and the secrets."""
    stack: Stack
    database: str
    redis_db: int
    url: str                   # the app, or the load balancer in front of the instances
    instance_urls: list[str]   # each instance (the app alone: [url])
    secret: str
    start_args: list[str] = field(default_factory=list)  # ./perflab app start's options for one more instance
    spare_port: int = 0
    members: list[Member] = field(default_factory=list)

    def fresh_token(self, member: Member) -> str:
        return token(self.secret, member["id"], member["login"], jti=uuid.uuid4().hex)

    def books(self, member_ids: list[int]) -> dict[str, Any]:
        """Balances of the members and rows of the transfer tables: what no refused transfer may change."""
        ids = ",".join(str(i) for i in member_ids)
        balances = self.stack.sql(self.database, f"SELECT member_id, balance FROM wallet WHERE member_id IN ({ids}) "
                                                 "ORDER BY member_id")
        rows = self.stack.sql(self.database, "SELECT (SELECT COUNT(*) FROM wallet_transaction), "
                                             "(SELECT COUNT(*) FROM ledger_entry)")[0]
        return {"balances": {int(i): b for i, b in balances}, "history rows": int(rows[0]), "ledger rows": int(rows[1])}


def seed_routes(database: str, university: int, routes: int) -> None:
    """A university's route data set in `database`: ./perflab seed route ... ensure, as the loaders' own process."""
    seeded = launcher.run_seeding(["route", "--db", database, "--univs", str(university), "--routes", str(routes),
                                   "ensure"], os.environ)
    if seeded.returncode != 0:
        raise RuntimeError(f"./perflab seed route: {(seeded.stderr or seeded.stdout).strip()[-500:]}")

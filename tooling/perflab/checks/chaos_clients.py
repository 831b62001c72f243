"""The chaos suite's clients: threads that send transfers among the members, each with one Idempotency-Key retried
until its answer is definitive, and the tally of what they saw; the access tokens they sign as the app does, and
the one HTTP request the chaos and abuse suites send."""
import base64
import hashlib
import hmac
import http.client
import json
import random
import threading
import time
import urllib.parse
import uuid
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, cast

from perflab.lab import labsecrets

Member = dict[str, Any]  # a member of a suite's data set: its id, login, phone and token
Headers = http.client.HTTPMessage | dict[str, str]  # a response's headers ({} when there was no answer)


def token(secret: str, member_id: int | str, login: str, **claims: Any) -> str:
    """An access token as TokenService issues it, signed with `secret`; `claims` adds to (or replaces) the claims."""
    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
    now = int(time.time())
    head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    body = b64(json.dumps({"iss": "perflab", "sub": str(member_id), "login": login, "iat": now,
                           "exp": now + 4 * 3600, **claims}).encode())
    signature = b64(hmac.new(secret.encode(), f"{head}.{body}".encode(), hashlib.sha256).digest())
    return f"{head}.{body}.{signature}"


@dataclass
class Tally:
    """What the clients saw, shared by every client thread (under `lock`)."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    requests: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    server_errors: int = 0
    connection_errors: int = 0
    successes: list[tuple[str, int, int, Decimal]] = field(default_factory=list)  # (transferId, sender, receiver, amount)
    rejections: dict[str | None, int] = field(default_factory=dict)    # code (None: an answer without one) -> count
    bad_2xx: list[tuple[int, str]] = field(default_factory=list)
    undecided: int = 0
    success_times: list[float] = field(default_factory=list)  # monotonic time of each 201

    def count(self, status: int | str, code: str | None = None) -> None:
        with self.lock:
            self.requests += 1
            key = str(status) + (f" {code}" if code else "")
            self.statuses[key] = self.statuses.get(key, 0) + 1
            if isinstance(status, int) and status >= 500:
                self.server_errors += 1
            if status == "no answer":
                self.connection_errors += 1


class Clients:
    def __init__(self, urls: list[str], members: list[Member], tally: Tally, threads: int,
                 give_up_seconds: float) -> None:
        self.urls, self.members, self.tally = urls, members, tally
        self.threads, self.give_up = threads, give_up_seconds
        self.pin = labsecrets.member_pin()  # the install's, read once: every member has it
        self.stop = threading.Event()
        self.workers: list[threading.Thread] = []

    def start(self) -> None:
        for i in range(self.threads):
            worker = threading.Thread(target=self.run, args=(random.Random(i),), daemon=True)
            worker.start()
            self.workers.append(worker)

    def finish(self) -> None:
        self.stop.set()
        for worker in self.workers:
            worker.join()

    def run(self, rng: random.Random) -> None:
        while not self.stop.is_set():
            a, b = rng.sample(self.members, 2)
            amount = Decimal(rng.randint(100, 999)) / 100
            if rng.random() < 0.5:  # a reverse pair: A->B and B->A at the same moment
                reverse = threading.Thread(target=self.transfer, args=(b, a, amount, rng.random()))
                reverse.start()
                self.transfer(a, b, amount, rng.random())
                reverse.join()
            else:
                self.transfer(a, b, amount, rng.random())

    def transfer(self, sender: Member, receiver: Member, amount: Decimal, pick: float) -> None:
        key = str(uuid.uuid4())
        body = f'{{"receiverPhone":"{receiver["phone"]}","amount":{amount},"pin":"{self.pin}"}}'
        headers = {"Authorization": f"Bearer {sender['token']}", "Idempotency-Key": key,
                   "Content-Type": "application/json"}
        deadline = time.monotonic() + self.give_up
        attempt = 0
        while time.monotonic() < deadline:
            url = self.urls[(int(pick * len(self.urls)) + attempt) % len(self.urls)]
            attempt += 1
            status, answer, retry_after = self.post(url, body, headers)
            self.tally.count(status, answer.get("code") if isinstance(answer, dict) else None)
            if status == 201 and isinstance(answer, dict) and answer.get("transferId"):
                with self.tally.lock:
                    self.tally.successes.append((answer["transferId"], sender["id"], receiver["id"], amount))
                    self.tally.success_times.append(time.monotonic())
                return
            if isinstance(status, int) and 200 <= status < 300:
                with self.tally.lock:
                    self.tally.bad_2xx.append((status, str(answer)[:200]))
                return
            if isinstance(status, int) and 400 <= status < 500 and status not in (408, 429):
                code: str | None = answer.get("code") if isinstance(answer, dict) else str(status)
                with self.tally.lock:
                    self.tally.rejections[code] = self.tally.rejections.get(code, 0) + 1
                return
            time.sleep(min(retry_after, 2.0) if retry_after else min(0.25 * attempt, 1.0))
        with self.tally.lock:
            self.tally.undecided += 1

    @staticmethod
    def post(url: str, body: str, headers: dict[str, str]) -> tuple[int | str, Any, float | None]:
        status, answer, response_headers = request(url, "POST", "/api/transfers", body, headers)
        retry_after = response_headers.get("Retry-After")
        return status, (None if status == "no answer" else answer), \
            float(retry_after) if retry_after and retry_after.isdigit() else None


def request(base_url: str, method: str, path: str, body: str | None = None, headers: dict[str, str] | None = None,
            timeout: float = 15, source: str | None = None) -> tuple[int | str, Any, Headers]:
    """One HTTP request to `base_url` (http://host:port), from the local address `source` if given (127.0.0.x: another
    client on this machine): (status, the body, parsed when it is JSON, the response's headers), or ("no answer", the
    error, {}) when there is no answer."""
    url = urllib.parse.urlsplit(base_url)
    connection = http.client.HTTPConnection(cast(str, url.hostname), url.port, timeout=timeout,
                                            source_address=(source, 0) if source else None)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        text = response.read().decode("utf-8", "replace")
        try:
            answer = json.loads(text) if text else None
        except ValueError:
            answer = text
        return response.status, answer, response.headers
    except (OSError, http.client.HTTPException) as e:
        return "no answer", str(e), {}
    finally:
        connection.close()

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
generated secrets (.perflab/secrets, ab/labsecrets.py; PERFLAB_SECURITY_JWT_SECRET and _HASH_SECRET override them,
as in the app). Stdlib only; needs the `mariadb` client (installed by the native stack).
"""
import argparse
import base64
import functools
import hashlib
import hmac
import http.client
import json
import os
import random
import shlex
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

import appctl
import labenv
import labsecrets
import lb
import launcher
import lbctl
import network

ROOT = Path(__file__).resolve().parent.parent
START_BALANCE = Decimal("1000.00")


env = labenv.env


def log(message, suite="chaos"):
    print(f"[{suite} {time.strftime('%H:%M:%S')}] {message}", flush=True)


# ------------------------------------------------------------------------------------------- the stack

class Stack:
    """MariaDB, Redis and Toxiproxy of the (native) stack, at the ports the environment gives."""

    def __init__(self):
        self.db_port = int(labenv.service_address("mariadb")[1])
        self.redis_port = int(labenv.service_address("redis")[1])
        self.toxiproxy = network.Toxiproxy({"PERFLAB_TOXIPROXY_PORT": labenv.service_address("toxiproxy")[1]})
        self.db_user = env("PERFLAB_DB_USER", "perflab")
        self.db_proxy_port = int(env("PERFLAB_CHAOS_DB_PROXY_PORT", "23306"))
        self.redis_proxy_port = int(env("PERFLAB_CHAOS_REDIS_PROXY_PORT", "26379"))

    def sql(self, database, statement):
        """Runs SQL with the mariadb client over TCP; returns rows as lists of strings."""
        command = ["mariadb", "-h127.0.0.1", f"-P{self.db_port}", f"-u{self.db_user}",
                   "--batch", "--skip-column-names"] + ([database] if database else []) + ["-e", statement]
        done = subprocess.run(command, capture_output=True, text=True, env=labenv.mariadb_client_env())
        if done.returncode != 0:
            raise RuntimeError(f"MariaDB at 127.0.0.1:{self.db_port}: {done.stderr.strip()}")
        return [line.split("\t") for line in done.stdout.splitlines()]

    def native(self, action, service):
        done = subprocess.run([str(ROOT / "stack" / "native.sh"), action, service], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"stack/native.sh {action} {service}: {done.stderr.strip() or done.stdout.strip()}")

    def toxi(self, method, path, body=None):
        """A Toxiproxy API call through the runner's client (ab/network.py); a DELETE of what is gone is no error."""
        return self.toxiproxy.call(method, path, body).decode()

    def create_proxies(self):
        for name, listen, upstream in (("chaos-mariadb", self.db_proxy_port, self.db_port),
                                       ("chaos-redis", self.redis_proxy_port, self.redis_port)):
            self.toxi("DELETE", f"/proxies/{name}")
            self.toxi("POST", "/proxies", {"name": name, "listen": f"127.0.0.1:{listen}",
                                           "upstream": f"127.0.0.1:{upstream}", "enabled": True})

    def delete_proxies(self):
        for name in ("chaos-mariadb", "chaos-redis"):
            self.toxi("DELETE", f"/proxies/{name}")

    def redis(self, database, *command):
        """One Redis command in the logical database `database`; its reply (bytes, int, list or None)."""
        password = labsecrets.redis_password()  # the native Redis requires this install's (stack/secrets.sh)
        with socket.create_connection(("127.0.0.1", self.redis_port), timeout=5) as s:
            stream = s.makefile("rb")
            for words in ((("AUTH", password),) if password else ()) + (("SELECT", str(database)), command):
                s.sendall(resp_command(*words))
                reply = resp_reply(stream)
        return reply

    def flush_redis(self, database):
        reply = self.redis(database, "FLUSHDB")
        if reply != b"OK":
            raise RuntimeError(f"Redis FLUSHDB {database}: {reply!r}")


def resp_command(*words):
    """A Redis command in RESP: an array of bulk strings."""
    parts = [f"*{len(words)}\r\n".encode()]
    for word in words:
        data = word if isinstance(word, bytes) else str(word).encode()
        parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(parts)


def resp_reply(stream):
    """One RESP reply read from a binary file: bytes (simple or bulk string), int, list or None; an error raises."""
    line = stream.readline()
    if not line.endswith(b"\r\n"):
        raise RuntimeError(f"Redis closed the connection mid-reply: {line!r}")
    kind, value = line[:1], line[1:-2]
    if kind == b"+":
        return value
    if kind == b"-":
        raise RuntimeError(f"Redis: {value.decode(errors='replace')}")
    if kind == b":":
        return int(value)
    if kind == b"$":
        return None if int(value) < 0 else stream.read(int(value) + 2)[:-2]
    if kind == b"*":
        return None if int(value) < 0 else [resp_reply(stream) for _ in range(int(value))]
    raise RuntimeError(f"Redis: an unknown reply {line!r}")


def wait_port(port, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return True
        except OSError:
            time.sleep(0.2)
    return False


# ------------------------------------------------------------------------------------------- the apps

class Instances:
    """The app instances under test: one started here by the launcher of ./perflab app start (the instance <suite>,
    so that the lab's own app is left alone); or `count` of them, <suite>-1..N, started at once behind a load
    balancer (lbctl, as ./perflab lb start); or URLs given by the user. `suite` names the
    instances, the balancer and the variant (chaos, abuse); `port` is the app's (or the balancer's) port; with
    `proxies` the apps reach MariaDB and Redis through the chaos proxies, else directly; `profile` defaults to the
    preset."""

    def __init__(self, urls, kill_cmd, start_cmd, preset, stack, database, redis_db, count=0, suite="chaos",
                 port=None, proxies=True, profile=None, options=()):
        self.external = bool(urls)
        self.suite = suite
        self.port = port or int(env("PERFLAB_CHAOS_APP_PORT", "8085"))
        self.lb_name = f"{suite}-lb"
        self.names = [f"{suite}-{i}" for i in range(1, count + 1)]  # on ports port+1.., the load balancer on port
        self.urls = urls or [f"http://127.0.0.1:{self.port}"]
        self.kill_cmd, self.start_cmd = kill_cmd, start_cmd
        self.preset, self.stack, self.database, self.redis_db = preset, stack, database, redis_db
        self.proxies, self.profile, self.options = proxies, profile or preset, list(options)  # more app start options
        self.rotation = {}  # the killed instance: when the load balancer took it out and put it back
        self.served = {}    # requests the load balancer sent to each instance

    def can_kill(self):
        return not self.external or bool(self.kill_cmd and self.start_cmd)

    def app_args(self):
        db_port, redis_port = ((self.stack.db_proxy_port, self.stack.redis_proxy_port) if self.proxies
                               else (self.stack.db_port, self.stack.redis_port))
        return ["--", f"--spring.datasource.url=jdbc:mariadb://127.0.0.1:{db_port}/{self.database}",
                f"--spring.data.redis.port={redis_port}", f"--spring.data.redis.database={self.redis_db}",
                f"--perflab.variant={self.suite}-{self.preset}"]

    def start_args(self, port):
        """appctl.start's arguments for an instance on `port`: warm from the AOT cache when there is one for this jar
        (a plain start otherwise), as the runner's smokes start."""
        return ["--port", str(port), "--profile", self.profile, "--warm", *self.options, *self.app_args()]

    def launch(self, name, port):
        """Starts one instance in this process (the launcher ./perflab app start runs) and returns when it is ready;
        a failed start raises RuntimeError with the launcher's reason."""
        try:
            appctl.start(self.start_args(port), instance=name, say=lambda line: None)
        except SystemExit as failed:
            raise RuntimeError(f"the app '{name}' did not start (log .perflab/{name}.log): {failed.code}") from None

    def start_one(self, index):
        name, port = self.names[index], self.port + 1 + index
        log(f"starting {name} on port {port}", self.suite)
        self.launch(name, port)

    def start(self):
        """The single instance, or every numbered one at once (each on its own port) and then the load balancer."""
        if self.external:
            return
        if not self.names:
            self.launch(self.suite, self.port)
            return
        starts = {name: functools.partial(self.start_one, index) for index, name in enumerate(self.names)}
        launcher.start_at_once(starts)
        backends = [f"{name}={self.port + 1 + i}" for i, name in enumerate(self.names)]
        try:
            lbctl.Balancer(self.lb_name).start(str(self.port), backends)
        except SystemExit as failed:
            raise RuntimeError(f"the load balancer '{self.lb_name}' did not start: {failed.code}") from None

    def lb_state(self):
        return lb.servers(ROOT / ".perflab" / f"{self.lb_name}.sock")

    def kill(self, index=0):
        """kill -9 of instance `index`, then its restart; returns when it is ready again (and, behind the load
        balancer, back in rotation)."""
        if self.external:
            for template in (self.kill_cmd, self.start_cmd):
                subprocess.run(external_command(template, index, self.urls[index]), check=True)
            return
        name = self.names[index] if self.names else self.suite
        pid = appctl.Instance(name).pid()
        if pid is None:
            raise RuntimeError(f"the app '{name}' has no pid file: nothing to kill")
        killed = time.monotonic()
        os.kill(pid, 9)
        if not labenv.wait_gone(pid, KILLED_GONE_WITHIN_S, interval=0.05):
            raise RuntimeError(f"the app '{name}' (pid {pid}) still runs {KILLED_GONE_WITHIN_S} s after kill -9")
        log_file = ROOT / ".perflab" / f"{name}.log"  # the restart overwrites it: keep the killed instance's log
        if log_file.exists():
            log_file.replace(ROOT / ".perflab" / f"{self.suite}-{self.preset}-killed-{name}.log")
        if not self.names:
            self.start()
            return
        self.rotation = {"instance": name, "out_after_s": None, "back_after_s": None}
        socket = ROOT / ".perflab" / f"{self.lb_name}.sock"
        still_in, _ = lb.wait_until(socket, [name], 20, lambda server: not lb.in_rotation(server), interval=0.1)
        if not still_in:  # two failed checks, a second apart
            self.rotation["out_after_s"] = round(time.monotonic() - killed, 1)
        log(f"  {name} killed; out of the load balancer's rotation after {self.rotation['out_after_s']} s", self.suite)
        self.start_one(index)
        restarted = time.monotonic()
        missing, state = lb.wait_in_rotation(socket, [name], 60)
        if not missing:
            self.rotation["back_after_s"] = round(time.monotonic() - restarted, 1)
        log(f"  {name} restarted; back in rotation {self.rotation['back_after_s']} s after it reported ready"
            + (f" (NOT: {lb.describe(state[name])})" if missing else ""), self.suite)

    def checks(self):
        """What only several instances can show: (check, ok, detail), read from the load balancer while it runs."""
        if not self.names:
            return []
        self.served = {name: server["requests"] for name, server in self.lb_state().items()}
        rotation = self.rotation
        return [("the load balancer took the killed instance out of rotation and back",
                 rotation.get("out_after_s") is not None and rotation.get("back_after_s") is not None,
                 f"{rotation.get('instance')}: out {rotation.get('out_after_s')} s after the kill, back "
                 f"{rotation.get('back_after_s')} s after it was ready again"),
                ("every instance served requests", len(self.served) == len(self.names) and all(self.served.values()),
                 ", ".join(f"{n} {c}" for n, c in self.served.items()))]

    def stop(self):
        if self.external:
            return
        if self.names:
            lbctl.Balancer(self.lb_name).stop()
        for name in self.names or [self.suite]:
            appctl.Instance(name).stop(quiet=True)


KILLED_GONE_WITHIN_S = 30


def external_command(template, index, url):
    """--kill-cmd/--start-cmd as an argument list: {index} and {url} replaced with shell-quoted values, then split as
    a shell splits words, so that a URL can never add a word or a command."""
    return shlex.split(template.format(index=shlex.quote(str(index)), url=shlex.quote(url)))


# ------------------------------------------------------------------------------------------- the clients

def token(secret, member_id, login, **claims):
    """An access token as TokenService issues it, signed with `secret`; `claims` adds to (or replaces) the claims."""
    def b64(data):
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
    statuses: dict = field(default_factory=dict)
    server_errors: int = 0
    connection_errors: int = 0
    successes: list = field(default_factory=list)     # (transferId, sender, receiver, amount)
    rejections: dict = field(default_factory=dict)    # code -> count
    bad_2xx: list = field(default_factory=list)
    undecided: int = 0
    success_times: list = field(default_factory=list)  # monotonic time of each 201

    def count(self, status, code=None):
        with self.lock:
            self.requests += 1
            key = str(status) + (f" {code}" if code else "")
            self.statuses[key] = self.statuses.get(key, 0) + 1
            if isinstance(status, int) and status >= 500:
                self.server_errors += 1
            if status == "no answer":
                self.connection_errors += 1


class Clients:
    def __init__(self, urls, members, tally, threads, give_up_seconds):
        self.urls, self.members, self.tally = urls, members, tally
        self.threads, self.give_up = threads, give_up_seconds
        self.pin = labsecrets.member_pin()  # the install's, read once: every member has it
        self.stop = threading.Event()
        self.workers = []

    def start(self):
        for i in range(self.threads):
            worker = threading.Thread(target=self.run, args=(random.Random(i),), daemon=True)
            worker.start()
            self.workers.append(worker)

    def finish(self):
        self.stop.set()
        for worker in self.workers:
            worker.join()

    def run(self, rng):
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

    def transfer(self, sender, receiver, amount, pick):
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
                code = answer.get("code") if isinstance(answer, dict) else str(status)
                with self.tally.lock:
                    self.tally.rejections[code] = self.tally.rejections.get(code, 0) + 1
                return
            time.sleep(min(retry_after, 2.0) if retry_after else min(0.25 * attempt, 1.0))
        with self.tally.lock:
            self.tally.undecided += 1

    @staticmethod
    def post(url, body, headers):
        status, answer, response_headers = request(url, "POST", "/api/transfers", body, headers)
        retry_after = response_headers.get("Retry-After")
        return status, (None if status == "no answer" else answer), \
            float(retry_after) if retry_after and retry_after.isdigit() else None


def request(base_url, method, path, body=None, headers=None, timeout=15, source=None):
    """One HTTP request to `base_url` (http://host:port), from the local address `source` if given (127.0.0.x: another
    client on this machine): (status, the body, parsed when it is JSON, the response's headers), or ("no answer", the
    error, {}) when there is no answer."""
    url = urllib.parse.urlsplit(base_url)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=timeout,
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


# ------------------------------------------------------------------------------------------- faults

@dataclass
class Fault:
    name: str
    seconds: float = 0.0
    recovery: float | None = None
    server_errors: int = 0
    skipped: str = ""


def run_fault(name, tally, calm, action):
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


def faults(stack, instances, tally, hold, calm):
    def redis_down():
        stack.native("down", "redis")
        time.sleep(hold)
        stack.native("up", "redis")

    def mariadb_restart():
        stack.native("down", "mariadb")
        stack.native("up", "mariadb")

    def toxic(kind, attributes):
        def action():
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

def create_members(stack, database, count, secret, hash_secret, prefix="chaos", phone_prefix="0990"):
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


def check(stack, database, members, tally):
    """The books after the run: a list of (check, ok, detail)."""
    ids = ",".join(str(m["id"]) for m in members)
    results = []

    def add(name, ok, detail=""):
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

def run_preset(preset, args, stack, secret, hash_secret):
    side = preset.split("-")[-1]
    database = args.db or f"{env('PERFLAB_DB_NAME', 'perflab')}_chaos_{side}"  # inside the perflab% grant
    redis_db = int(env("PERFLAB_CHAOS_REDIS_DB", "5"))
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


def report(preset, tally, done, results, instances=None):
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


def parse(argv):
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


def main(argv):
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

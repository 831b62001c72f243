"""What the chaos, abuse and contract suites run against: MariaDB, Redis and Toxiproxy of the native stack (SQL
through the mariadb client, Redis commands in RESP, the chaos proxies), and the app instances under test: one or
several started through the launcher (./perflab app start's), behind a load balancer, or running ones given by URL."""
import functools
import os
import shlex
import socket
import subprocess
import time
from pathlib import Path
from typing import Any, BinaryIO, Sequence

from perflab.lab import appctl
from perflab.lab import labenv
from perflab.lab import labsecrets
from perflab.lab import launcher
from perflab.lab import lb
from perflab.lab import lbctl
from perflab.lab import network

from perflab.paths import ROOT
Check = tuple[str, bool, str]  # a check of the books or of the instances: its name, whether it holds, its detail


def log(message: str, suite: str = "chaos") -> None:
    print(f"[{suite} {time.strftime('%H:%M:%S')}] {message}", flush=True)


# ------------------------------------------------------------------------------------------- the stack

class Stack:
    """MariaDB, Redis and Toxiproxy of the (native) stack, at the ports the environment gives."""

    def __init__(self) -> None:
        self.db_port = int(labenv.service_address("mariadb")[1])
        self.redis_port = int(labenv.service_address("redis")[1])
        self.toxiproxy = network.Toxiproxy({"PERFLAB_TOXIPROXY_PORT": labenv.service_address("toxiproxy")[1]})
        self.db_user = labenv.env("PERFLAB_DB_USER", "perflab")
        self.db_proxy_port = int(labenv.env("PERFLAB_CHAOS_DB_PROXY_PORT", "23306"))
        self.redis_proxy_port = int(labenv.env("PERFLAB_CHAOS_REDIS_PROXY_PORT", "26379"))

    def sql(self, database: str | None, statement: str) -> list[list[str]]:
        """Runs SQL with the mariadb client over TCP; returns rows as lists of strings."""
        command = ["mariadb", "-h127.0.0.1", f"-P{self.db_port}", f"-u{self.db_user}",
                   "--batch", "--skip-column-names"] + ([database] if database else []) + ["-e", statement]
        done = subprocess.run(command, capture_output=True, text=True, env=labenv.mariadb_client_env())
        if done.returncode != 0:
            raise RuntimeError(f"MariaDB at 127.0.0.1:{self.db_port}: {done.stderr.strip()}")
        return [line.split("\t") for line in done.stdout.splitlines()]

    def native(self, action: str, service: str) -> None:
        done = subprocess.run([str(ROOT / "stack" / "native.sh"), action, service], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"stack/native.sh {action} {service}: {done.stderr.strip() or done.stdout.strip()}")

    def toxi(self, method: str, path: str, body: dict[str, Any] | None = None) -> str:
        """A Toxiproxy API call through the runner's client (tooling/perflab/lab/network.py); a DELETE of what is gone is no error."""
        answer: bytes = self.toxiproxy.call(method, path, body)
        return answer.decode()

    def create_proxies(self) -> None:
        for name, listen, upstream in (("chaos-mariadb", self.db_proxy_port, self.db_port),
                                       ("chaos-redis", self.redis_proxy_port, self.redis_port)):
            self.toxi("DELETE", f"/proxies/{name}")
            self.toxi("POST", "/proxies", {"name": name, "listen": f"127.0.0.1:{listen}",
                                           "upstream": f"127.0.0.1:{upstream}", "enabled": True})

    def delete_proxies(self) -> None:
        for name in ("chaos-mariadb", "chaos-redis"):
            self.toxi("DELETE", f"/proxies/{name}")

    def redis(self, database: int, *command: str | bytes) -> Any:
        """One Redis command in the logical database `database`; its reply (bytes, int, list or None)."""
        password = labsecrets.redis_password()  # the native Redis requires this install's (stack/secrets.sh)
        with socket.create_connection(("127.0.0.1", self.redis_port), timeout=5) as s:
            stream = s.makefile("rb")
            for words in ((("AUTH", password),) if password else ()) + (("SELECT", str(database)), command):
                s.sendall(resp_command(*words))
                reply = resp_reply(stream)
        return reply

    def flush_redis(self, database: int) -> None:
        reply = self.redis(database, "FLUSHDB")
        if reply != b"OK":
            raise RuntimeError(f"Redis FLUSHDB {database}: {reply!r}")


def resp_command(*words: str | bytes | int) -> bytes:
    """A Redis command in RESP: an array of bulk strings."""
    parts = [f"*{len(words)}\r\n".encode()]
    for word in words:
        data = word if isinstance(word, bytes) else str(word).encode()
        parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(parts)


def resp_reply(stream: BinaryIO) -> Any:
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


def wait_port(port: int, seconds: float) -> bool:
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

    def __init__(self, urls: list[str], kill_cmd: str | None, start_cmd: str | None, preset: str, stack: Stack,
                 database: str, redis_db: int, count: int = 0, suite: str = "chaos", port: int | None = None,
                 proxies: bool = True, profile: str | None = None, options: Sequence[str] = ()) -> None:
        self.external = bool(urls)
        self.suite = suite
        self.port = port or int(labenv.env("PERFLAB_CHAOS_APP_PORT", "8085"))
        self.lb_name = f"{suite}-lb"
        self.names = [f"{suite}-{i}" for i in range(1, count + 1)]  # on ports port+1.., the load balancer on port
        self.urls = urls or [f"http://127.0.0.1:{self.port}"]
        self.kill_cmd, self.start_cmd = kill_cmd, start_cmd
        self.preset, self.stack, self.database, self.redis_db = preset, stack, database, redis_db
        self.proxies, self.profile, self.options = proxies, profile or preset, list(options)  # more app start options
        self.rotation: dict[str, Any] = {}  # the killed instance: when the load balancer took it out and put it back
        self.served: dict[str, int] = {}    # requests the load balancer sent to each instance

    def can_kill(self) -> bool:
        return not self.external or bool(self.kill_cmd and self.start_cmd)

    def app_args(self) -> list[str]:
        db_port, redis_port = ((self.stack.db_proxy_port, self.stack.redis_proxy_port) if self.proxies
                               else (self.stack.db_port, self.stack.redis_port))
        return ["--", f"--spring.datasource.url=jdbc:mariadb://127.0.0.1:{db_port}/{self.database}",
                f"--spring.data.redis.port={redis_port}", f"--spring.data.redis.database={self.redis_db}",
                f"--perflab.variant={self.suite}-{self.preset}"]

    def start_args(self, port: int) -> list[str]:
        """appctl.start's arguments for an instance on `port`: warm from the AOT cache when there is one for this jar
        (a plain start otherwise), as the runner's smokes start."""
        return ["--port", str(port), "--profile", self.profile, "--warm", *self.options, *self.app_args()]

    def launch(self, name: str, port: int) -> None:
        """Starts one instance in this process (the launcher ./perflab app start runs) and returns when it is ready;
        a failed start raises RuntimeError with the launcher's reason."""
        try:
            appctl.start(self.start_args(port), instance=name, say=lambda line: None)
        except SystemExit as failed:
            raise RuntimeError(f"the app '{name}' did not start (log .perflab/{name}.log): {failed.code}") from None

    def start_one(self, index: int) -> None:
        name, port = self.names[index], self.port + 1 + index
        log(f"starting {name} on port {port}", self.suite)
        self.launch(name, port)

    def start(self) -> None:
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

    def lb_state(self) -> dict[str, lb.Server]:
        """Each instance's state as the load balancer's stats socket shows it (its status, its requests...)."""
        return lb.servers(ROOT / ".perflab" / f"{self.lb_name}.sock")

    def kill(self, index: int = 0) -> None:
        """kill -9 of instance `index`, then its restart; returns when it is ready again (and, behind the load
        balancer, back in rotation)."""
        if self.external:
            for template in (self.kill_cmd, self.start_cmd):
                assert template is not None  # an external instance is killed only when can_kill()
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

    def checks(self) -> list[Check]:
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

    def stop(self) -> None:
        if self.external:
            return
        if self.names:
            lbctl.Balancer(self.lb_name).stop()
        for name in self.names or [self.suite]:
            appctl.Instance(name).stop(quiet=True)


KILLED_GONE_WITHIN_S = 30


def external_command(template: str, index: int, url: str) -> list[str]:
    """--kill-cmd/--start-cmd as an argument list: {index} and {url} replaced with shell-quoted values, then split as
    a shell splits words, so that a URL can never add a word or a command."""
    return shlex.split(template.format(index=shlex.quote(str(index)), url=shlex.quote(url)))

#!/usr/bin/env python3
"""The load balancer in front of several app instances: HAProxy from Debian's packages (docs/scale-out.md says why
HAProxy). This module renders its configuration and reads its state; tooling/perflab/lab/lbctl.py runs it for ./perflab (`./perflab lb`,
`./perflab up --instances N`, `./perflab status`), and the chaos suite reads it (`./perflab chaos --instances N`).

usage: ./perflab python -m perflab.lab.lb render --name NAME --port PORT [--bind ADDRESS] --dir DIR --backend NAME=PORT ...
                                                                writes DIR/NAME.cfg

What the configuration does:
- listens on 127.0.0.1:PORT (--bind ADDRESS, e.g. 0.0.0.0, to be reached from other machines) and spreads
  requests round-robin over the instances (127.0.0.1:<port>, or HOST:PORT);
- checks each instance's readiness probe (GET /actuator/health/readiness, 200 = ready) every second: two failed
  checks take it out of rotation, two passed ones put it back, with its share of the traffic ramped up over 10 s;
- a request whose connection to an instance fails (a killed instance, before its checks fail) is sent to another
  instance (retries 3, redispatch); a request already sent is never sent twice;
- its own errors are problem+json like the app's: 503 `no-instance-available` with Retry-After, 502
  `instance-failed`, 504 `instance-timeout`;
- logs only what is not normal (errors, instances leaving and rejoining) to its log.
Every name, address and port that goes into the configuration is checked first (a name of lower-case letters,
digits, '.', '_' and '-'; a host name or IP address; a port from 1 to 65535): nothing given can add a line to it.
Stdlib only.
"""
import argparse
import csv
import io
import ipaddress
import json
import os
import re
import socket
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TypedDict

from perflab.lab import labenv

BACKEND = "apps"
READINESS = "/actuator/health/readiness"
PROXY_SOURCE = "127.0.0.2"  # the address HAProxy connects to local backends from: the app trusts its X-Forwarded-For
# seconds between checks, failed checks to leave rotation, passed checks to rejoin, ramp-up after rejoining
CHECK_INTERVAL, FALL, RISE, SLOWSTART = "1s", 2, 2, "10s"

ERRORS = {  # status -> (reason phrase, problem code, detail, Retry-After)
    502: ("Bad Gateway", "instance-failed",
          "An app instance closed the connection or gave no valid answer; retrying with the same Idempotency-Key is safe.",
          None),
    503: ("Service Unavailable", "no-instance-available",
          "No app instance behind the load balancer is ready (./perflab status names the ones that are down).", "1"),
    504: ("Gateway Timeout", "instance-timeout", "An app instance did not answer in time.", None),
}


NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,62}")
HOST_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
Backend = tuple[str, str, int]  # name, host, port


class Server(TypedDict):
    """One instance as `show stat` tells it (parse_stat)."""
    status: str
    check: str
    code: str
    detail: str
    requests: int
    went_down: int


def check_name(name: str, what: str = "name") -> str:
    """A load balancer's or an instance's name, as ./perflab allows them; a readable error otherwise."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise ValueError(f"{what} {name!r}: use lower-case letters, digits, '.', '_' and '-' (first a letter or digit)")
    return name


def check_port(port: int | str, what: str = "port") -> int:
    text = str(port)
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= 65535:
        raise ValueError(f"{what} {text!r}: a number from 1 to 65535")
    return int(text)


def check_host(host: str) -> str:
    """A host name or an IPv4 address (what a server line takes as is)."""
    try:
        if ipaddress.ip_address(host).version == 4:
            return host
    except ValueError:
        if len(host) <= 253 and all(HOST_LABEL.fullmatch(label) for label in host.split(".")):
            return host
    raise ValueError(f"host {host!r}: a host name or an IPv4 address")


def bind_address(address: str) -> str:
    """HAProxy's bind address for an IP address (IPv6 with its ipv6@ prefix); a readable error otherwise."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        raise ValueError(f"bind address {address!r}: an IP address, e.g. 127.0.0.1 or 0.0.0.0") from None
    return str(ip) if ip.version == 4 else f"ipv6@{ip}"


def parse_backends(specs: Iterable[str]) -> list[Backend]:
    """['app-1=8081', 'app-2=127.0.0.1:8082'] -> [('app-1', '127.0.0.1', 8081), ...]; a readable error if malformed."""
    backends: list[Backend] = []
    for spec in specs:
        name, sep, address = spec.partition("=")
        host, _, port = address.rpartition(":")
        if not sep or not name or not port.isdigit():
            raise ValueError(f"backend {spec!r}: expected NAME=PORT or NAME=HOST:PORT")
        if any(name == b[0] for b in backends):
            raise ValueError(f"backend name '{name}' given twice")
        backends.append((check_name(name, "backend name"), check_host(host or "127.0.0.1"),
                         check_port(port, f"backend {name}'s port")))
    if not backends:
        raise ValueError("no backend: give at least one --backend NAME=PORT")
    return backends


def error_response(status: int) -> bytes:
    """The raw HTTP response HAProxy sends for its own error `status` (an errorfile): problem+json, as the app's."""
    reason, code, detail, retry_after = ERRORS[status]
    body = json.dumps({"type": f"urn:perflab:problem:{code}", "title": reason, "status": status, "code": code,
                       "detail": detail}).encode()
    head = [f"HTTP/1.1 {status} {reason}", "Content-Type: application/problem+json", "Cache-Control: no-cache",
            "Connection: close", f"Content-Length: {len(body)}"]
    if retry_after:
        head.append(f"Retry-After: {retry_after}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def source(host: str) -> str:
    """The server line's `source` for a backend on this machine: HAProxy connects from PROXY_SOURCE, the one address
    whose X-Forwarded-For the app trusts, so that no other local client can name its own address."""
    return f" source {PROXY_SOURCE}" if host == "localhost" or host.startswith("127.") else ""


def render(name: str, port: int | str, backends: Iterable[Backend], socket_path: str | os.PathLike[str],
           error_files: Mapping[int, str | os.PathLike[str]], bind: str = "127.0.0.1") -> str:
    """HAProxy's configuration: a frontend on `bind`:`port` and one backend with every instance, health-checked.
    Every name, host and port is checked again here, whoever built `backends`."""
    check_name(name, "load balancer name")
    port = check_port(port, "load balancer port")
    bind = bind_address(bind)
    for n, h, p in backends:
        check_name(n, "backend name")
        check_host(h)
        check_port(p, f"backend {n}'s port")
    for path in (socket_path, *error_files.values()):
        if any(c in str(path) for c in "\n\r\t \"'#"):
            raise ValueError(f"path {str(path)!r}: no spaces, quotes, '#' or line breaks (move the checkout)")
    servers = "\n".join(f"    server {n} {h}:{p} check{source(h)}" for n, h, p in backends)
    errors = "\n".join(f"    errorfile {status} {path}" for status, path in sorted(error_files.items()))
    return f"""# generated by ./perflab (tooling/perflab/lab/lb.py render) for the load balancer '{name}': rewritten at every start
global
    maxconn 4096
    stats socket {socket_path} mode 600 level admin
    log stdout format raw local0

defaults
    mode http
    log global
    option httplog
    option dontlog-normal
    timeout connect 1s
    timeout client 60s
    timeout server 60s
    timeout http-request 10s
    timeout http-keep-alive 10s
    timeout queue 5s
    retries 3
    option redispatch 1
{errors}

frontend perflab
    bind {bind}:{port}
    # the client's address for the app's per-address guard: whatever X-Forwarded-For a client sent is dropped, then
    # HAProxy adds the address it saw; the app trusts the header only from PROXY_SOURCE (server.tomcat.remoteip)
    http-request del-header X-Forwarded-For
    option forwardfor
    default_backend {BACKEND}

backend {BACKEND}
    balance roundrobin
    option httpchk GET {READINESS}
    http-check expect status 200
    default-server inter {CHECK_INTERVAL} fall {FALL} rise {RISE} slowstart {SLOWSTART}
{servers}
"""


def write(name: str, port: int | str, backends: Iterable[Backend], directory: str | os.PathLike[str],
          bind: str = "127.0.0.1") -> Path:
    """Writes DIR/NAME.cfg and its error files; returns the config's path."""
    check_name(name, "load balancer name")
    directory = Path(directory).resolve()
    socket_path = directory / f"{name}.sock"
    if len(str(socket_path)) > 100:  # a Unix socket path has at most 107 bytes
        raise ValueError(f"the stats socket path {socket_path} is too long for a Unix socket: move the checkout")
    error_dir = directory / f"{name}-errors"
    error_dir.mkdir(parents=True, exist_ok=True)
    error_files: dict[int, str | os.PathLike[str]] = {}
    for status in ERRORS:
        path = error_dir / f"{status}.http"
        path.write_bytes(error_response(status))
        error_files[status] = path
    config = directory / f"{name}.cfg"
    config.write_text(render(name, port, backends, socket_path, error_files, bind))
    return config


# ------------------------------------------------------------------------------------------- runtime state

def query(socket_path: str | os.PathLike[str], command: str, timeout: float = 5) -> str:
    """One command on HAProxy's stats socket; its whole answer."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(str(socket_path))
        s.sendall(command.encode() + b"\n")
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks).decode()


def parse_stat(text: str) -> dict[str, Server]:
    """`show stat` CSV -> {server: {status, check, code, detail, requests, went_down}} for the backend's servers."""
    servers: dict[str, Server] = {}
    for row in csv.DictReader(io.StringIO(text.lstrip("# "))):
        if row.get("pxname") != BACKEND or row.get("svname") in ("FRONTEND", "BACKEND"):
            continue
        servers[row["svname"]] = {
            "status": row.get("status", ""),            # UP, DOWN, UP 1/2 (going down), DOWN 1/2 (going up), MAINT
            "check": row.get("check_status", ""),       # L7OK, L7STS (not 200), L4CON (refused), L4TOUT, ...
            "code": row.get("check_code", ""),
            "detail": row.get("check_desc", ""),
            "requests": int(row.get("stot") or 0),      # requests sent to it (health checks not counted)
            "went_down": int(row.get("chkdown") or 0),  # how many times it left rotation
        }
    return servers


def servers(socket_path: str | os.PathLike[str]) -> dict[str, Server]:
    return parse_stat(query(socket_path, "show stat"))


def in_rotation(server: Server) -> bool:
    """UP, or UP and going down (one failed check): the load balancer still sends it requests."""
    return server["status"].startswith("UP")


def ready(server: Server) -> bool:
    """UP with a passed check: HAProxy counts an instance UP before its first check, so UP alone proves nothing."""
    return server["status"] == "UP" and server["check"] == "L7OK"


def wait_until(socket_path: str | os.PathLike[str], names: Sequence[str], timeout: float,
               holds: Callable[[Server], bool], interval: float = 0.2) -> tuple[list[str], dict[str, Server]]:
    """Polls the balancer until `holds(server)` is true for every named instance; returns (the ones for which it is
    not when time runs out, the last state read)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            state = servers(socket_path)
            missing = [n for n in names if n not in state or not holds(state[n])]
        except OSError:
            state, missing = {}, list(names)
        if not missing or time.monotonic() >= deadline:
            return missing, state
        time.sleep(interval)


def wait_in_rotation(socket_path: str | os.PathLike[str], names: Sequence[str],
                     timeout: float) -> tuple[list[str], dict[str, Server]]:
    """Polls until every named instance is ready in rotation; returns the ones that are not when time runs out."""
    return wait_until(socket_path, names, timeout, ready)


def describe(server: Server) -> str:
    check = " ".join(x for x in (server["check"], server["code"], server["detail"]) if x)
    return f"{server['status']} ({check})" if check else server["status"]


def pid_state(pids: str | os.PathLike[str], name: str) -> str:
    process = labenv.Process(name, pids)
    return f"running (pid {process.pid()})" if process.running() else "not running"


def status_lines(state: Mapping[str, Server], pids: str | os.PathLike[str] | None,
                 ports: Mapping[str, object]) -> tuple[list[str], list[str]]:
    """One line per instance for ./perflab status; a readable complaint for each one out of rotation."""
    lines = [f"  {'INSTANCE':<12} {'PORT':<6} {'PROCESS':<22} {'REQUESTS':>9}  LOAD BALANCER"]
    problems = []
    for name, server in state.items():
        process = pid_state(pids, name) if pids else "-"
        lines.append(f"  {name:<12} {ports.get(name, '-'):<6} {process:<22} {server['requests']:>9}  {describe(server)}")
        if not in_rotation(server):
            why = (f"its process is not running (./perflab up --instances {len(state)} starts it again)"
                   if process == "not running" else "it does not report ready")
            problems.append(f"{name} (port {ports.get(name, '?')}) is out of rotation: {why} ({describe(server)})")
    return lines, problems


def main(argv: list[str] | None) -> int:
    parser = argparse.ArgumentParser(prog="tooling/perflab/lab/lb.py", description=(__doc__ or "").split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("render")
    r.add_argument("--name", required=True)
    r.add_argument("--port", required=True)
    r.add_argument("--bind", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine only)")
    r.add_argument("--dir", required=True)
    r.add_argument("--backend", action="append", default=[], metavar="NAME=PORT")
    args = parser.parse_args(argv)
    try:
        print(write(args.name, args.port, parse_backends(args.backend), args.dir, args.bind))
    except ValueError as e:
        print(f"perflab lb: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

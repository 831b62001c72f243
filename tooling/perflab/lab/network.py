"""Network profiles on the stack's Toxiproxy: latency, jitter and bandwidth between the app and MariaDB, Redis
and the auth API. The runner makes proxies of its own (ab-mariadb, ab-redis, ab-auth), so the stack's proxies and
the tests that fault them are left alone, and points the app at them. Profiles are defined in
experiments/network.toml; `localhost` connects the app straight to its services, with no proxy in the path.

Toxiproxy delays in whole milliseconds. A mean of 0.5 ms is a latency toxic of 1 ms with 1 ms of jitter (each
chunk waits 0 or 1 ms), a mean of 0.25 ms one of 0 ms with 2 ms of jitter (3 chunks in 4 pass at once, 1 waits
1 ms): the mean is what the profile names, the spread is wider than a real network's.
"""
import contextlib
import json
import os
import pathlib
import re
import subprocess
import tomllib
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from typing import Any

from perflab.lab import labenv
from perflab.paths import ROOT
PROFILES_FILE = ROOT / "experiments" / "network.toml"
# link -> (proxy name, listen port, .env key of the upstream port); a runner started with another PERFLAB_AB_PORT
# (two runs at once) gets proxies of its own, shifted by the same offset. The ports sit below Linux's ephemeral range
# (32768-60999 by default): a port inside it can be the local end of any outgoing connection (a pooled JDBC or Redis
# connection lives for minutes), and a proxy can then not listen on it ("address already in use", with no listener)
_OFFSET = int(os.environ.get("PERFLAB_AB_PORT", "8091")) - 8091
_SUFFIX = f"-{_OFFSET}" if _OFFSET else ""
LINKS = {"db": (f"ab-mariadb{_SUFFIX}", 24306 + _OFFSET, "PERFLAB_DB_PORT"),
         "redis": (f"ab-redis{_SUFFIX}", 27379 + _OFFSET, "PERFLAB_REDIS_PORT"),
         "auth": (f"ab-auth{_SUFFIX}", 28443 + _OFFSET, "PERFLAB_WIREMOCK_HTTPS_PORT")}
UPSTREAM_SERVICE = {"db": "mariadb", "redis": "redis", "auth": "wiremock"}  # labenv's service behind each link


def profiles() -> dict[str, Any]:
    return tomllib.loads(PROFILES_FILE.read_text())


def profile(name: str, overrides: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """A profile's links, e.g. {'db': {'latency_ms': 1.0}, 'redis': {...}}, with sweep overrides applied:
    {'latency_ms': 0.5} sets the latency of db and redis, {'db.latency_ms': 2} one link."""
    known = profiles()
    if name not in known:
        raise SystemExit(f"no network profile {name!r} in {PROFILES_FILE.name}; known: {', '.join(known)}")
    links = {k: dict(v) for k, v in known[name].items() if k in LINKS}
    for key, value in (overrides or {}).items():
        if "." in key:
            link, attribute = key.split(".", 1)
            links.setdefault(link, {})[attribute] = value
        else:
            for link in ("db", "redis"):
                links.setdefault(link, {})[key] = value
    return links


def describe(name: str, links: dict[str, dict[str, Any]]) -> str:
    parts = []
    for link, attrs in sorted(links.items()):
        text = []
        if attrs.get("latency_ms"):
            text.append(f"{attrs['latency_ms']:g} ms each way")
        if attrs.get("jitter_ms"):
            text.append(f"±{attrs['jitter_ms']:g} ms")
        if attrs.get("bandwidth_kbps"):
            text.append(f"{attrs['bandwidth_kbps']:g} KB/s")
        parts.append(f"{link} {' '.join(text) or 'through the proxy, no delay'}")
    return f"{name}: " + ("; ".join(parts) if parts else "every service on localhost, no proxy")


def profile_toxics(attrs: dict[str, Any]) -> list[dict[str, Any]]:
    """The Toxiproxy toxics of one link of a profile: latency both ways (with its jitter), bandwidth downstream."""
    toxics: list[dict[str, Any]] = []
    if attrs.get("latency_ms") or attrs.get("jitter_ms"):
        latency = latency_toxic(float(attrs.get("latency_ms", 0)), attrs.get("jitter_ms", 0))
        toxics += [{"name": f"latency_{stream}", "type": "latency", "stream": stream, "attributes": latency}
                   for stream in ("upstream", "downstream")]
    if attrs.get("bandwidth_kbps"):
        toxics.append({"name": "bandwidth", "type": "bandwidth", "stream": "downstream",
                       "attributes": {"rate": int(attrs["bandwidth_kbps"])}})
    return toxics


def latency_toxic(mean_ms: float, jitter_ms: float = 0) -> dict[str, int]:
    """Toxiproxy attributes whose mean delay is mean_ms: whole ms, or .5 / .25 below that through jitter."""
    if mean_ms == int(mean_ms):
        return {"latency": int(mean_ms), "jitter": int(jitter_ms)}
    if jitter_ms:
        raise SystemExit(f"latency {mean_ms} ms: jitter needs a whole-millisecond latency")
    if mean_ms * 2 == int(mean_ms * 2):  # k + 0.5: k or k+1 ms, evenly
        return {"latency": int(mean_ms) + 1, "jitter": 1}
    if mean_ms == 0.25:
        return {"latency": 0, "jitter": 2}
    raise SystemExit(f"latency {mean_ms} ms: Toxiproxy can give whole ms, k + 0.5 ms and 0.25 ms as a mean")


def port_holder(port: int) -> str:
    """' (pid N, command)' for the process whose TCP socket (listening or connected) holds a local port, from ss;
    '' when ss cannot tell."""
    try:
        shown = subprocess.run(["ss", "-Hatnp", f"sport = :{port}"], capture_output=True, text=True, timeout=5).stdout
    except (OSError, subprocess.SubprocessError):
        return ""
    found = re.search(r'users:\(\("([^"]+)",pid=(\d+)', shown)
    return f" (pid {found.group(2)}, {found.group(1)})" if found else ""


class Toxiproxy:
    """The runner's proxies on the lab's Toxiproxy. Natively every part is on 127.0.0.1; in the compose lab Toxiproxy
    is a container of its own (PERFLAB_TOXIPROXY_HOST), so its proxies listen on every interface of that container
    and reach each service by its name (PERFLAB_DB_HOST, ...), and the app reaches them at Toxiproxy's name."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self.env = env
        self.host, port = labenv.service_address("toxiproxy", env)
        self.api = f"http://{self.host}:{port}"
        self.listen_host = "127.0.0.1" if self.host == "127.0.0.1" else "0.0.0.0"

    def upstream(self, link: str) -> str:
        """host:port of the service behind a link, as Toxiproxy reaches it."""
        host, _ = labenv.service_address(UPSTREAM_SERVICE[link], self.env)
        return f"{host}:{self.env[LINKS[link][2]]}"

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> bytes:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.api + path, data=data, method=method, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                answer: bytes = response.read()
                return answer
        except urllib.error.HTTPError as e:
            if method == "DELETE" and e.code == 404:
                return b""
            raise SystemExit(f"Toxiproxy {method} {path}: {e.code} {e.read().decode()[:200]}")
        except OSError as e:
            raise SystemExit(f"Toxiproxy is not running at {self.api} ({e}): start it with ./perflab stack up toxiproxy")

    def apply(self, links: dict[str, dict[str, Any]]) -> tuple[list[str], list[str]]:
        """Makes the runner's proxies for these links, with their toxics; returns (launcher options, app arguments)
        that route the app through them. An empty profile removes the proxies and returns nothing."""
        options: list[str] = []
        args: list[str] = []
        for link, (name, listen, _) in LINKS.items():
            self.call("DELETE", f"/proxies/{name}")
            if link not in links:
                continue
            self.free_listen_port(listen)
            self.create(name, listen, self.upstream(link))
            self.add_toxics(name, links[link])
            if link == "auth":
                args.append(f"--perflab.login.auth-api.base-url=https://{self.host}:{listen}")
            else:
                options += [f"--{link}-port", str(listen)]
        return options, args

    def free_listen_port(self, listen: int) -> None:
        """Removes a proxy of any name that Toxiproxy keeps on this runner's port (one left by an interrupted run)."""
        for other in json.loads(self.call("GET", "/proxies") or b"{}").values():
            if other.get("listen", "").rsplit(":", 1)[-1] == str(listen):
                self.call("DELETE", f"/proxies/{other['name']}")

    def create(self, name: str, listen: int, upstream: str) -> None:
        try:
            self.call("POST", "/proxies", {"name": name, "listen": f"{self.listen_host}:{listen}",
                                           "upstream": upstream, "enabled": True})
        except SystemExit as e:
            if "address already in use" not in str(e):
                raise
            raise SystemExit(f"port {listen} for the runner's proxy {name} is held by another process"
                             f"{port_holder(listen)}: another ./perflab ab run on this machine? Stop it, or start this"
                             f" run with PERFLAB_AB_PORT=8191 so that its app and proxies use ports of their own") from None

    def add_toxics(self, name: str, attrs: dict[str, Any]) -> None:
        """The profile's latency (both directions, with its jitter) and bandwidth on one proxy."""
        for toxic in profile_toxics(attrs):
            self.call("POST", f"/proxies/{name}/toxics", toxic)

    @contextlib.contextmanager
    def bare(self, links: dict[str, dict[str, Any]]) -> Iterator[None]:
        """The profile's proxies without their toxics for a while (a warm-up at full speed), then the toxics back.
        The proxies themselves stay, so the app's pooled connections through them live on."""
        for link, attrs in links.items():
            for toxic in profile_toxics(attrs):
                self.call("DELETE", f"/proxies/{LINKS[link][0]}/toxics/{toxic['name']}")
        try:
            yield
        finally:
            for link, attrs in links.items():
                self.add_toxics(LINKS[link][0], attrs)

    def add_fault(self, link: str, toxic: dict[str, Any]) -> None:
        """A fault on one link for the measured window (e.g. {'type': 'timeout', 'attributes': {'timeout': 0}})."""
        name = LINKS[link][0]
        self.call("POST", f"/proxies/{name}/toxics", {"name": "fault", "stream": "downstream", **toxic})

    def clear_fault(self, link: str) -> None:
        self.call("DELETE", f"/proxies/{LINKS[link][0]}/toxics/fault")

    def clear(self) -> None:
        for name, _, _ in LINKS.values():
            self.call("DELETE", f"/proxies/{name}")

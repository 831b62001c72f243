"""Network profiles: the Toxiproxy toxics a profile's link becomes (the runner adds and removes the same ones), and the
runner's proxies when their port is taken."""
import json
import os
import pathlib
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from perflab.lab import network


def test_a_half_millisecond_mean_is_one_ms_with_one_ms_of_jitter_both_ways():
    toxics = network.profile_toxics({"latency_ms": 0.5})
    assert [t["name"] for t in toxics] == ["latency_upstream", "latency_downstream"]
    assert {t["stream"] for t in toxics} == {"upstream", "downstream"}
    assert all(t["attributes"] == {"latency": 1, "jitter": 1} for t in toxics)


def test_bandwidth_limits_the_downstream_only_and_no_delay_adds_no_latency_toxic():
    toxics = network.profile_toxics({"bandwidth_kbps": 1000})
    assert toxics == [{"name": "bandwidth", "type": "bandwidth", "stream": "downstream", "attributes": {"rate": 1000}}]
    assert network.profile_toxics({}) == []


class FakeToxiproxy(BaseHTTPRequestHandler):
    """Toxiproxy's proxy API over HTTP, as far as the runner uses it: a proxy on a port held by another process
    gets Toxiproxy's own 500 'address already in use'."""
    proxies = {}
    held_ports = set()

    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.answer(200, self.proxies)

    def do_DELETE(self):
        name = self.path.rsplit("/", 1)[-1]
        self.answer(204 if self.proxies.pop(name, None) else 404, {})

    def do_POST(self):
        proxy = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path.endswith("/toxics"):
            self.answer(200, proxy)
            return
        port = int(proxy["listen"].rsplit(":", 1)[-1])
        if port in self.held_ports or any(p["listen"] == proxy["listen"] for p in self.proxies.values()):
            self.answer(500, {"error": f"listen tcp {proxy['listen']}: bind: address already in use", "status": 500})
            return
        self.proxies[proxy["name"]] = proxy
        self.answer(201, proxy)

    def log_message(self, *args):
        pass


@pytest.fixture
def toxiproxy():
    FakeToxiproxy.proxies, FakeToxiproxy.held_ports = {}, set()
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeToxiproxy)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield network.Toxiproxy({"PERFLAB_TOXIPROXY_PORT": str(server.server_address[1])})
    server.shutdown()


def test_a_proxy_left_on_the_runners_port_under_another_name_is_removed_before_its_own_is_made(toxiproxy):
    FakeToxiproxy.proxies["left-behind"] = {"name": "left-behind", "listen": "127.0.0.1:24306"}
    toxiproxy.free_listen_port(24306)
    toxiproxy.create("ab-mariadb", 24306, "127.0.0.1:3306")
    assert list(FakeToxiproxy.proxies) == ["ab-mariadb"]


def test_in_the_compose_lab_the_proxies_listen_in_toxiproxys_container_and_reach_each_service_by_its_name():
    FakeToxiproxy.proxies = {}
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeToxiproxy)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        env = {"PERFLAB_TOXIPROXY_HOST": "localhost", "PERFLAB_TOXIPROXY_PORT": str(server.server_address[1]),
               "PERFLAB_DB_HOST": "mariadb", "PERFLAB_DB_PORT": "3306", "PERFLAB_REDIS_HOST": "redis",
               "PERFLAB_REDIS_PORT": "6379", "PERFLAB_WIREMOCK_HOST": "wiremock", "PERFLAB_WIREMOCK_HTTPS_PORT": "8443"}
        options, args = network.Toxiproxy(env).apply({"db": {"latency_ms": 1}, "auth": {"latency_ms": 90}})
    finally:
        server.shutdown()
    db, auth = (FakeToxiproxy.proxies[network.LINKS[link][0]] for link in ("db", "auth"))
    assert (db["listen"], db["upstream"]) == (f"0.0.0.0:{network.LINKS['db'][1]}", "mariadb:3306")
    assert (auth["listen"], auth["upstream"]) == (f"0.0.0.0:{network.LINKS['auth'][1]}", "wiremock:8443")
    assert options == ["--db-port", str(network.LINKS["db"][1])]
    assert args == [f"--perflab.login.auth-api.base-url=https://localhost:{network.LINKS['auth'][1]}"]


def test_the_runners_proxy_ports_lie_below_the_kernels_ephemeral_ports_so_no_outgoing_connection_holds_them():
    ephemeral = pathlib.Path("/proc/sys/net/ipv4/ip_local_port_range")
    if not ephemeral.exists():
        pytest.skip("no /proc/sys/net/ipv4/ip_local_port_range")
    low, high = map(int, ephemeral.read_text().split())
    ports = [listen for _, listen, _ in network.LINKS.values()]
    assert all(port < low or port > high for port in ports), (ports, low, high)
    assert len(set(ports)) == len(ports)


def test_a_port_held_by_an_outgoing_connection_is_named_too():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        with socket.create_connection(server.getsockname()) as client:
            accepted, _ = server.accept()
            with accepted:
                local_port = client.getsockname()[1]  # not listening: only the connection holds it
                assert network.port_holder(local_port) == f" (pid {os.getpid()}, {process_name()})"


def test_a_port_held_by_another_process_is_named_with_that_process_and_the_way_out():
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        assert network.port_holder(port) == f" (pid {os.getpid()}, {process_name()})"


def test_creating_a_proxy_on_a_held_port_fails_with_a_message_that_names_the_port_and_the_proxy(toxiproxy):
    FakeToxiproxy.held_ports.add(24306)
    with pytest.raises(SystemExit) as failure:
        toxiproxy.create("ab-mariadb", 24306, "127.0.0.1:3306")
    assert "port 24306 for the runner's proxy ab-mariadb is held by another process" in str(failure.value)
    assert "PERFLAB_AB_PORT" in str(failure.value)


def process_name():
    """This process's command name as ss prints it (the first 15 characters of /proc/self/comm)."""
    return pathlib.Path("/proc/self/comm").read_text().strip()

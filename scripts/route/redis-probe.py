#!/usr/bin/env python3
"""A light, concurrent Redis workload for the layout experiment (stdlib only): GET of one small key at a fixed
rate over its own connection, in Redis database DB (default 3, not the app's), for SECONDS; prints p50/p99/max
in ms. While the app moves a multi-megabyte value, single-threaded Redis makes this GET wait.
usage: redis-probe.py [SECONDS=30] [RATE=200] [DB=3]; Redis at PERFLAB_REDIS_HOST:PERFLAB_REDIS_PORT (the lab's:
127.0.0.1:6379 natively, compose's `redis` service in its runner); its password from REDISCLI_AUTH, else the
install's secrets (PERFLAB_SECRETS_DIR, default .perflab/secrets, relative to the working directory: the repository
root)."""
import os
import pathlib
import socket
import sys
import time

seconds, rate, db = float(sys.argv[1]) if len(sys.argv) > 1 else 30, int(sys.argv[2]) if len(sys.argv) > 2 else 200, \
    int(sys.argv[3]) if len(sys.argv) > 3 else 3
sock = socket.create_connection((os.environ.get("PERFLAB_REDIS_HOST") or "127.0.0.1",
                                 int(os.environ.get("PERFLAB_REDIS_PORT") or 6379)))
sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
reader = sock.makefile("rb")


def command(*args):
    sock.sendall(b"*%d\r\n" % len(args) + b"".join(b"$%d\r\n%s\r\n" % (len(a), a) for a in args))
    line = reader.readline()
    if line.startswith(b"$") and line[1:3] != b"-1":
        reader.read(int(line[1:]) + 2)
    return line


password = os.environ.get("REDISCLI_AUTH") or ""
secret = pathlib.Path(os.environ.get("PERFLAB_SECRETS_DIR") or ".perflab/secrets") / "spring.data.redis.password"
if not password and secret.is_file():  # the native Redis requires this install's password (stack/secrets.sh)
    password = secret.read_text().strip()
if password and not command(b"AUTH", password.encode()).startswith(b"+OK"):
    sys.exit(f"redis-probe: Redis refused the password in {secret} (or REDISCLI_AUTH)")
command(b"SELECT", str(db).encode())
command(b"SET", b"route-probe:small", b"x" * 64)
latencies = []
interval = 1.0 / rate
start = time.perf_counter()
next_at = start
while next_at - start < seconds:
    now = time.perf_counter()
    if now < next_at:
        time.sleep(next_at - now)
    command(b"GET", b"route-probe:small")
    latencies.append((time.perf_counter() - next_at) * 1000)  # from the intended send time: no coordinated omission
    next_at += interval
latencies.sort()
pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]
print(f"redis-probe: {len(latencies)} GETs, p50 {pick(0.50):.3f} ms, p99 {pick(0.99):.3f} ms, "
      f"p99.9 {pick(0.999):.3f} ms, max {latencies[-1]:.3f} ms")

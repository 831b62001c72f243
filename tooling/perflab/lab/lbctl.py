"""The load balancers of the lab (./perflab lb, up --instances N, down, status; docs/scale-out.md): HAProxy from
Debian's packages, one process per name (--name NAME, default lb), its files in .perflab: NAME.cfg (rendered by
tooling/perflab/lab/lb.py), NAME.pid, NAME.log, NAME.sock (HAProxy's stats socket) and NAME.instances (one "instance port" line
each). Stdlib only."""
import os
import re
import subprocess
import sys
from collections.abc import Sequence

from perflab.lab import appctl
from perflab.lab import labenv
from perflab.lab import lb
from perflab.lab.labenv import STATE, die

STOP_WITHIN = 10  # seconds for HAProxy to exit after SIGTERM


class Balancer(labenv.Process):
    def __init__(self, name: str = "lb") -> None:
        if not appctl.NAME.fullmatch(name):
            die(f"load balancer name '{name}': use lower-case letters, digits, '.', '_' and '-'")
        super().__init__(name)
        self.socket = STATE / f"{name}.sock"
        self.config = STATE / f"{name}.cfg"
        self.instances_file = STATE / f"{name}.instances"

    def port(self) -> str:
        try:
            found = re.search(r"^ *bind .*:([0-9]*)$", self.config.read_text(), re.MULTILINE)
        except OSError:
            return ""
        return found.group(1) if found else ""

    def instances(self) -> list[tuple[str, str]]:
        """The instances it was started in front of: [(name, port)] (none: [])."""
        try:
            lines = self.instances_file.read_text().splitlines()
        except OSError:
            return []
        return [(fields[0], fields[1] if len(fields) > 1 else "") for fields in (line.split(None, 1) for line in lines)
                if fields]

    def start(self, port: int | str, specs: Sequence[str], bind: str | None = None) -> None:
        """HAProxy on `port` in front of the instances NAME=PORT (a running one is reloaded with the new config,
        without dropping a connection); returns when every instance is in rotation (PERFLAB_LB_WAIT s, default 60)."""
        bind = bind or os.environ.get("PERFLAB_LB_BIND") or "127.0.0.1"
        if not specs:
            die("lb start needs at least one --backend NAME=PORT")
        names = [spec.split("=", 1)[0] for spec in specs]
        labenv.native("install-lb")
        STATE.mkdir(parents=True, exist_ok=True)
        try:
            lb.write(self.name, port, lb.parse_backends(specs), STATE, bind)
        except ValueError as e:
            print(f"perflab lb: {e}", file=sys.stderr)
            raise SystemExit(1)
        if subprocess.run(["haproxy", "-c", "-q", "-f", str(self.config)]).returncode != 0:
            die(f"HAProxy rejects its config {self.config} (see above)")
        old = self.pid() if self.running() else None
        if old is None and labenv.port_open(port):
            die(f"port {port}, where the load balancer '{self.name}' goes, is already taken by another process "
                "(the single app? ./perflab app stop)")
        self.socket.unlink(missing_ok=True)
        self.spawn(["haproxy", "-db", "-f", self.config, *(["-sf", str(old)] if old else [])], append=True)
        self.instances_file.write_text("".join(spec.replace("=", " ") + "\n" for spec in specs))
        labenv.say(f"load balancer '{self.name}': HAProxy {'reloaded ' if old else ''}on {bind} port {port} in front "
                   f"of {' '.join(names)} (config {self.config}, log {self.log_file})")
        timeout = float(os.environ.get("PERFLAB_LB_WAIT") or 60)
        missing, state = lb.wait_in_rotation(self.socket, names, timeout)
        if missing:
            for name in missing:
                print(f"perflab: {name} is not in the load balancer's rotation after {timeout:.0f} s: "
                      f"{lb.describe(state[name]) if name in state else 'unknown to it'}", file=sys.stderr)
            if not self.running():
                print(labenv.tail(self.log_file, 20), end="", file=sys.stderr)
                die(f"HAProxy exited (log: {self.log_file})")
            die(f"the load balancer '{self.name}' runs, but not every instance is in rotation (./perflab status says why)")
        labenv.say(f"load balancer ready at http://127.0.0.1:{port}: {' '.join(names)} in rotation")

    def stop(self) -> None:
        stopped = super().stop_within(STOP_WITHIN, f"the load balancer '{self.name}'")
        self.socket.unlink(missing_ok=True)
        if stopped:
            labenv.say(f"load balancer '{self.name}' stopped")

    def stop_instances(self, keep: int, why: str = "") -> None:
        """Stops every instance behind it except app-1..app-KEEP (0: all of them)."""
        for name, port in self.instances():
            numbered = re.fullmatch(r"app-([0-9]+)", name)
            if numbered and int(numbered.group(1)) <= keep:
                continue
            if appctl.Instance(name).stop(quiet=True):
                labenv.say(f"app '{name}' (port {port}) stopped{': ' + why if why else ''}")

    def down(self) -> None:
        """It and every instance behind it; Prometheus goes back to scraping the single app."""
        self.stop_instances(0)
        self.stop()
        self.instances_file.unlink(missing_ok=True)
        labenv.native("prometheus-targets")  # the single app again, not the instances that are gone

    def report(self) -> None:
        """It and its instances for ./perflab status, naming each instance that is out of rotation."""
        instances = self.instances()
        if not self.running():
            labenv.say(f"load balancer '{self.name}': not running (./perflab up --instances N starts it with its "
                       "instances)")
            for name, port in instances:
                state = "running, but no load balancer in front" if appctl.Instance(name).running() else "not running"
                labenv.say(f"  {name} on port {port}: {state}")
            return
        labenv.say(f"load balancer '{self.name}': HAProxy running (pid {self.pid()}) on port {self.port()}, "
                   f"config {self.config}, log {self.log_file}")
        try:
            ports = {name: port for name, _, port in lb.parse_backends([f"{n}={p}" for n, p in instances])} \
                if instances else {}
            lines, problems = lb.status_lines(lb.servers(self.socket), STATE, ports)
        except ValueError as e:
            print(f"perflab lb: {e}", file=sys.stderr)
            return
        except OSError as e:
            print(f"perflab lb: the load balancer's stats socket {self.socket} does not answer: {e}", file=sys.stderr)
            return
        labenv.say("\n".join(lines))
        for problem in problems:
            labenv.say(f"  perflab: {problem}")

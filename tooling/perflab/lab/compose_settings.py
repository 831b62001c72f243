"""The case studies' settings for docker compose: one override file per machine profile (experiments/machine.toml)
and per network profile (experiments/network.toml), written into compose/ from the same tables the A/B runner reads,
so that compose and ./perflab ab put the app in the same setting.

    ./perflab python -m perflab.lab.compose_settings           write compose/machine-*.yml and compose/network-*.yml
    ./perflab python -m perflab.lab.compose_settings --check   exit 1 when a committed file differs from what it would write

A machine file holds the app to the profile's CPUs (compose's `cpus`) and, when its JVM flags give the JVM a memory
size (-XX:MaxRAM), to that memory (`mem_limit`); the JVM flags that size memory replace the Spring profile's heap
preset (PERFLAB_HEAP), as ./perflab app start --machine does, and the others go to PERFLAB_JVM_OPTS; MariaDB gets its
own `cpus`. A network file points the app at Toxiproxy's `mariadb` and `redis` proxies (stack/toxiproxy-compose.json)
and gives compose's toxiproxy-config service the profile's toxics (stack/toxics.sh), built by tooling/perflab/lab/network.py as the
runner builds them. The auth API's distance stays PERFLAB_AUTH_LATENCY_MS. Profiles that limit nothing (unlimited,
localhost) are the plain docker-compose.yml.
"""
import json
import pathlib
import re
import sys
from collections.abc import Mapping
from typing import Any

from perflab.lab import machine
from perflab.lab import network

from perflab.paths import ROOT
OUT = ROOT / "compose"
PROXIES = ROOT / "stack" / "toxiproxy-compose.json"
# network.toml's link -> (compose's proxy, the app's host and port variables)
LINKS = {"db": ("mariadb", "PERFLAB_DB_HOST", "PERFLAB_DB_PORT"),
         "redis": ("redis", "PERFLAB_REDIS_HOST", "PERFLAB_REDIS_PORT")}
MAX_RAM = re.compile(r"-XX:MaxRAM=(\d+[kmgKMG]?)$")


def header(source: str, name: str, description: str, file_name: str) -> str:
    return (f"# Generated from {source} [{name}] by ./perflab python -m perflab.lab.compose_settings: edit the table, not this "
            f"file.\n# {description}\n#   docker compose -f docker-compose.yml -f compose/{file_name} up -d --wait\n")


def quoted(text: str) -> str:
    return json.dumps(text)  # a JSON string is a YAML double-quoted scalar


def memory_limit(jvm: list[str]) -> str | None:
    """The container's memory for JVM flags that size the memory the JVM sees (the last -XX:MaxRAM), else None."""
    max_ram = [m.group(1) for m in map(MAX_RAM.match, jvm) if m]
    return max_ram[-1] if max_ram else None


def machine_file(profile: dict[str, Any]) -> str | None:
    """compose/machine-NAME.yml's text, or None for a profile that limits nothing."""
    app, mariadb = profile["app"], profile["mariadb"]
    if app["cpus"] is None and mariadb["cpus"] is None and not app["jvm"]:
        return None
    memory = [flag for flag in app["jvm"] if machine.sizes_memory([flag])]
    other = [flag for flag in app["jvm"] if flag not in memory]
    memory_size = memory_limit(app["jvm"])
    lines = ["services:", "  app:"]
    if app["cpus"] is not None:
        lines.append(f"    cpus: {app['cpus']:g}")
    if memory_size:
        lines.append(f"    mem_limit: {memory_size}")
    if app["jvm"]:
        lines.append("    environment:")
        if memory:
            lines.append(f"      PERFLAB_HEAP: {quoted(' '.join(memory))}")
        if other:
            lines.append(f"      PERFLAB_JVM_OPTS: {quoted(' '.join(other))}")
    if mariadb["cpus"] is not None:
        lines += ["  mariadb:", f"    cpus: {mariadb['cpus']:g}"]
    return "\n".join(lines) + "\n"


def proxy_ports() -> dict[str, str]:
    """compose's Toxiproxy proxies: name -> listen port."""
    return {proxy["name"]: proxy["listen"].rsplit(":", 1)[1] for proxy in json.loads(PROXIES.read_text())}


def network_file(links: Mapping[str, Any]) -> str | None:
    """compose/network-NAME.yml's text for a profile's links, or None when it names neither MariaDB nor Redis."""
    links = {link: attrs for link, attrs in links.items() if link in LINKS}
    if not links:
        return None
    ports = proxy_ports()
    app = ["services:", "  app:", "    environment:"]
    config = ["  toxiproxy-config:", "    environment:"]
    for link, attrs in sorted(links.items()):
        proxy, host_key, port_key = LINKS[link]
        app += [f"      {host_key}: toxiproxy", f"      {port_key}: {quoted(ports[proxy])}"]
        toxics = "\n".join(json.dumps(toxic, sort_keys=True) for toxic in network.profile_toxics(attrs))
        config.append(f"      PERFLAB_{link.upper()}_TOXICS: {quoted(toxics)}")
    return "\n".join(app + config) + "\n"


def files() -> dict[str, str]:
    """{file name: text} of every override file."""
    out: dict[str, str] = {}
    for name, table in machine.profiles().items():
        profile = machine.parse(name, table)
        text = machine_file(profile)
        if text:
            file_name = f"machine-{name}.yml"
            out[file_name] = header("experiments/machine.toml", name, profile["description"], file_name) + text
    for name, table in network.profiles().items():
        text = network_file(network.profile(name))
        if text:
            file_name = f"network-{name}.yml"
            out[file_name] = header("experiments/network.toml", name, table.get("description", ""), file_name) + text
    return out


def main(argv: list[str]) -> int:
    check = argv == ["--check"]
    if argv and not check:
        print("usage: ./perflab python -m perflab.lab.compose_settings [--check]", file=sys.stderr)
        return 2
    wanted = files()
    present = {path.name for path in OUT.glob("machine-*.yml")} | {path.name for path in OUT.glob("network-*.yml")}
    stale = sorted(present - set(wanted))
    differ = sorted(name for name, text in wanted.items()
                    if not (OUT / name).is_file() or (OUT / name).read_text() != text)
    if check:
        for name in differ + stale:
            print(f"compose/{name} differs from experiments/*.toml: run ./perflab python -m perflab.lab.compose_settings",
                  file=sys.stderr)
        return 1 if differ or stale else 0
    OUT.mkdir(exist_ok=True)
    for name in stale:
        (OUT / name).unlink()
    for name in differ:
        (OUT / name).write_text(wanted[name])
    print(f"compose/: {len(wanted)} override files, {len(differ)} written, {len(stale)} removed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""./perflab app start|stop|restart|status: only the app, one instance per --instance NAME (tooling/perflab/lab/appctl.py)."""
import os

from perflab.lab import appctl
from perflab.lab import labenv
from perflab.lab import machine

SYNOPSIS = """app start|stop|restart|status [--profile P] [--aot|--warm] [--instance NAME] [--port N] [--db NAME]
                  [--redis-db N] [--db-port N] [--redis-port N] [--heap FLAGS] [--jvm-opts FLAGS]
                  [--machine PROFILE] [--cpus N] [--jar PATH --migrations DIR] [-- app args]"""
SUMMARY = """only the app (built with ./mvnw package when the jar is missing or stale);
--aot starts it from the JDK 25 AOT cache that `aot build` made (--warm: from it
when it is this jar's, else a plain start); --instance runs
several side by side (own pid and log in .perflab/NAME.*), each on its --port;
--machine takes CPU share and JVM flags from experiments/machine.toml, --cpus
holds the app to N CPUs (a cgroup it starts in, else cpulimit); --jar and
--migrations run another build (a commit's) with its own db/migrations"""


def with_options(argv: list[str]) -> appctl.Options:
    """The options parsed; the variables they set (--db-port, --redis-port ...) apply to this command from here on."""
    options = appctl.parse(argv)
    os.environ.update(options.env)
    return options


def main(argv: list[str]) -> int:
    sub, args = (argv[0], argv[1:]) if argv else ("", [])
    if sub == "start":
        labenv.require_services("mariadb", "redis")
        appctl.start(args)
    elif sub == "stop":
        appctl.Instance(with_options(args).instance).stop()
    elif sub == "restart":
        appctl.Instance(with_options(args).instance).stop()
        labenv.require_services("mariadb", "redis")
        appctl.start(args)
    elif sub == "status":
        options = with_options(args)
        instance = appctl.Instance(options.instance)
        if not instance.running():
            labenv.say(f"app '{instance.name}': not running")
            return 1
        labenv.say(f"app '{instance.name}': running (pid {instance.pid()}), log {instance.log_file}")
        labenv.say(f"app '{instance.name}': CPU limit: {machine.status_line(instance.name)}; GC {appctl.gc(options.url)}")
    else:
        labenv.die("usage: ./perflab app start|stop|restart|status [options]")
    return 0

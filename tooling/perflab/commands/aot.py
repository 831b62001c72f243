"""./perflab aot build|status: the JDK 25 AOT cache of the app (tooling/perflab/lab/aotcache.py), trained under real k6 traffic of
the cold-start mix; `app start --aot` starts from it."""
from perflab.lab import aotcache
from perflab.lab import labenv

SYNOPSIS = "aot build|status"
SUMMARY = """train the AOT cache: extract the jar, run the app under real k6 traffic
(k6/cold-start.js), write target/aot/perflab.aot when it exits"""


def main(argv: list[str]) -> int:
    sub = argv[0] if argv else "status"
    if sub == "status":
        aotcache.status()
    elif sub == "build":
        aotcache.build(argv[1:])
    else:
        labenv.die("usage: ./perflab aot build|status")
    return 0

"""./perflab test [maven args]: the unit and integration tests (./mvnw -B verify) on the JDK 25, the stack started
first when a service they need is down (and no Docker engine serves Testcontainers), the tooling's tests (pytest on
tooling/tests) beside them, their output printed after Maven's, and the test count. -Dperflab.python.skip=true
leaves the tooling's tests out, -DskipTests both."""
import glob
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

from perflab.lab import labenv
from perflab.paths import ROOT

SYNOPSIS = "test [maven args]"
SUMMARY = """unit and integration tests: finds a JDK 25, starts the stack if a service is
down, runs ./mvnw -B verify and prints the test count"""
SERVICES = ("mariadb", "redis", "wiremock", "toxiproxy")
SKIP_PYTHON = {"-Dperflab.python.skip=true", "-DskipTests", "-DskipTests=true"}


PYTEST_LOG = ROOT / ".perflab" / "pytest.log"


def start_tooling_tests() -> subprocess.Popen[bytes]:
    """The tooling's tests (pytest on tooling/tests) started beside Maven, their output to PYTEST_LOG: Maven's tests
    keep about one of two cores busy (one test thread, the JIT beside it), pytest the other; their services do not
    meet (pytest's seeding uses perflab_seedtest and Redis db 9, Maven's tests perflab_test* and db 0)."""
    labenv.say(f"the tooling's tests: pytest tooling/tests, beside Maven (output: {PYTEST_LOG.relative_to(ROOT)})")
    PYTEST_LOG.parent.mkdir(exist_ok=True)
    with open(PYTEST_LOG, "wb") as log:
        return subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(ROOT / "tooling")],
                                cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)


def tooling_verdict(pytest_run: subprocess.Popen[bytes]) -> int:
    """The tooling's tests waited for, their output printed: their exit code."""
    code = pytest_run.wait()
    labenv.say("the tooling's tests (pytest tooling/tests):")
    sys.stdout.write(PYTEST_LOG.read_text(errors="replace"))
    sys.stdout.flush()
    return code


def stack_for_tests() -> None:
    """The tests need MariaDB, Redis, WireMock and Toxiproxy; without a Docker engine for Testcontainers
    (PERFLAB_TEST_SERVICES=local|docker|auto), start the native stack when one of them is down."""
    mode = os.environ.get("PERFLAB_TEST_SERVICES") or "auto"
    if mode == "docker" or (mode == "auto" and labenv.docker_engine()):
        return
    down = [service for service in SERVICES if not labenv.service_up(service)]
    if down:
        labenv.say(f"down: {' '.join(down)}; starting the native stack (stack/native.sh up)")
        labenv.native("up")


def count(since: float, root: str | os.PathLike[str] = ROOT) -> str:
    """The tests of this run, from the Surefire (unit) and Failsafe (integration) XML reports written since `since`
    (epoch seconds): one line."""
    parts, totals = [], dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
    for label, folder in (("unit", "surefire-reports"), ("integration", "failsafe-reports")):
        tests = 0
        for report in glob.glob(os.path.join(root, "target", folder, "TEST-*.xml")):
            if os.path.getmtime(report) < since:
                continue
            suite = ET.parse(report).getroot()
            tests += int(suite.get("tests", 0))
            for key in totals:
                totals[key] += int(suite.get(key, 0))
        parts.append(f"{tests} {label}")
    return (f"tests: {' + '.join(parts)} = {totals['tests']} (failures {totals['failures']}, "
            f"errors {totals['errors']}, skipped {totals['skipped']})")


def main(argv: list[str]) -> int:
    jdk = labenv.jdk()
    stack_for_tests()
    since = time.time()
    began = time.monotonic()
    labenv.say(f"./mvnw -B verify on JDK 25 ({jdk}), test database {os.environ.get('PERFLAB_TEST_DB') or 'perflab_test'}, "
               f"Redis db {os.environ.get('PERFLAB_TEST_REDIS_DB') or 'default'}")
    env = dict(os.environ, JAVA_HOME=jdk, PATH=f"{jdk}/bin:{os.environ['PATH']}",
               PERFLAB_TEST_SERVICES=os.environ.get("PERFLAB_TEST_SERVICES") or "auto")
    pytest_run = None if SKIP_PYTHON.intersection(argv) else start_tooling_tests()
    try:
        code = subprocess.run(["./mvnw", "-B", "verify", *argv], cwd=ROOT, env=env).returncode
    except BaseException:  # stopped (Ctrl-C): no pytest left running
        if pytest_run:
            pytest_run.kill()
        raise
    try:
        labenv.say(count(since))
    except (OSError, ET.ParseError) as e:
        print(f"perflab: could not count the tests: {e}", file=sys.stderr)
    if pytest_run:
        code = tooling_verdict(pytest_run) or code
    labenv.say(f"./perflab test: {'passed' if code == 0 else 'FAILED'} in {int(time.monotonic() - began)} s")
    return code

"""The JDK 25 AOT cache of the app (target/aot/perflab.aot), trained under real k6 traffic of the cold-start mix:
what ./perflab aot build|status runs, and what the runner calls when a variant starts from the cache (`aot = true`)
and there is none for the jar. `app start --aot` (appctl) starts from it."""
import os
import pathlib
import shutil
import subprocess
import sys
import time

from perflab.lab import appctl
from perflab.lab import labenv
from perflab.lab import launcher
from perflab.lab.appctl import AOT_CACHE, AOT_DIR, APP_JAR
from perflab.lab.labenv import die


def status() -> None:
    if appctl.aot_fresh():
        built = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(AOT_CACHE.stat().st_mtime))
        labenv.say(f"AOT cache: {AOT_CACHE} ({appctl.size_mb(AOT_CACHE)} MB, {built}), fresh")
    else:
        labenv.say("AOT cache: none for the current jar (./perflab aot build)")


def build(argv: list[str]) -> None:
    """Extract the jar, start it recording, drive AOT_TRAIN_REQUESTS (default 6000) requests of the cold-start mix
    through it, stop it: the JVM writes the cache as it exits. Loads its data first (./perflab seed coldstart, into
    PERFLAB_COLD_DB, default perflab_wallet_after: the wallet A/B's `after` database)."""
    if argv[:1] == ["--"]:
        argv = argv[1:]
    # the training run is an instance of its own on its own port, so that a running lab is left alone
    port = os.environ.get("PERFLAB_AOT_PORT") or "8090"
    training = appctl.Instance("aot-train")
    if training.running():
        die(f"an AOT training run is already going (pid {training.pid()})")
    appctl.build_jar()
    began = time.monotonic()
    java = pathlib.Path(labenv.jdk()) / "bin" / "java"
    cold_db = os.environ.get("PERFLAB_COLD_DB") or "perflab_wallet_after"
    loading = {**os.environ, **launcher.seeding_variables()}
    labenv.run([*launcher.SEEDING, "coldstart", "--db", cold_db, "ensure"], env=loading)
    shutil.rmtree(AOT_DIR, ignore_errors=True)
    labenv.run([java, "-Djarmode=tools", "-jar", APP_JAR, "extract", "--destination", AOT_DIR / "app"],
               stdout=subprocess.DEVNULL)
    labenv.say("[aot 1/3] training run: the app records the classes it loads and links and the methods it profiles")
    appctl.start(["--profile", os.environ.get("COLD_PROFILE") or "after", "--", *argv], aot="train",
                 instance="aot-train", env={"PERFLAB_DB_NAME": cold_db, "PERFLAB_APP_PORT": port})
    requests = os.environ.get("AOT_TRAIN_REQUESTS") or "6000"
    labenv.say(f"[aot 2/3] driving {requests} requests of the cold-start mix (k6/cold-start.js)")
    with open(AOT_DIR / "training-k6.log", "w") as k6_log:
        labenv.run([pathlib.Path(loading["PERFLAB_BIN"]) / "k6", "run", "-q", "-e", f"BASE_URL={appctl.url(port)}",
                    "-e", f"REQUESTS={requests}", "-e", f"SUMMARY={AOT_DIR / 'training.json'}", "k6/cold-start.js"],
                   env=dict(loading, **labenv.k6_secrets()), stdout=subprocess.DEVNULL, stderr=k6_log)
    labenv.say("[aot 3/3] stopping the app: the JVM writes the cache as it exits")
    training.stop(quiet=True)
    if "AOTCache creation is complete" not in training.log_file.read_text(errors="replace"):
        print(labenv.tail(training.log_file, 20), end="", file=sys.stderr)
        die(f"the JVM wrote no AOT cache (log: {training.log_file})")
    AOT_CACHE.touch()
    labenv.say(f"AOT cache {AOT_CACHE}: {appctl.size_mb(AOT_CACHE)} MB, built in {int(time.monotonic() - began)} s "
               f"(training traffic: {AOT_DIR / 'training.json'})")

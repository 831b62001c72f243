"""./perflab k6 <script> [k6 args]: a k6 script of k6/ against the app, with the stack's k6 binary."""
import os
import sys

import appctl
import labenv
from labenv import ROOT, die

SYNOPSIS = "k6 <script> [k6 args]"
SUMMARY = "run a k6 script from k6/ against the app (the stack's k6 binary)"


def main(argv):
    if not argv:
        die("usage: ./perflab k6 <script> [k6 args]")
    script, args = argv[0], argv[1:]
    if not (ROOT / script).is_file():
        script = f"k6/{script}"
    if not (ROOT / script).is_file():
        available = " ".join(sorted(p.name for p in (ROOT / "k6").glob("*.js")))
        die(f"no k6 script {script.removeprefix('k6/')}; available: {available} ")
    if " BASE_URL=" not in f" {' '.join(args)} ":
        labenv.require_services("app")
    # PERFLAB_DB_NAME lets a script's precondition name the database in the seed command it suggests; the JWT secret
    # goes in k6's environment (__ENV.JWT_SECRET, k6/lib/route-auth.js), not on its command line where ps shows it
    os.environ["JWT_SECRET"] = labenv.jwt_secret()
    k6 = os.path.join(labenv.native_bin(), "k6")
    sys.stdout.flush()
    os.execv(k6, [k6, "run", "-e", f"BASE_URL={appctl.url()}", "-e", f"PERFLAB_DB_NAME={os.environ['PERFLAB_DB_NAME']}",
                  *args, script])

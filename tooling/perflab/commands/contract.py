"""./perflab contract: the API contract suite (tooling/perflab/checks/contract.py)."""
import os

from perflab.lab import appctl
from perflab.lab import labenv
from perflab.paths import ROOT

SYNOPSIS = "contract [--preset wallet-before|wallet-after] [--role member|admin|both] [--max-examples N] [--seed N] [--keep DIR]"
SUMMARY = """the OpenAPI description validated, then Schemathesis as a member and as the
admin with every check on: what the description allows must be accepted, what it
forbids refused, every answer declared (tooling/perflab/checks/contract.py; its own database and port 8200)"""


def main(argv: list[str]) -> int:
    from perflab.checks import contract
    labenv.require_services("mariadb", "redis")
    labenv.ensure_secrets()  # the member's PIN hash and token use the app's generated secrets
    os.environ.update(PERFLAB_ROOT=str(ROOT), APP_URL=appctl.url(), PERFLAB_BIN=labenv.native_bin())
    return contract.main(argv)

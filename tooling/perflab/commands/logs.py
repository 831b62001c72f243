"""./perflab logs: follow the app's log (.perflab/app.log)."""
from perflab.lab import appctl
from perflab.lab import foreground

SYNOPSIS = "logs"
SUMMARY = "follow the app's log"


def main(argv: list[str]) -> int:
    return foreground.run(["tail", "-f", appctl.Instance().log_file])

"""./perflab's commands, one module each; tooling/perflab/cli.py lists them (COMMANDS) and dispatches to them. Each module has
SYNOPSIS and SUMMARY, its entry in `./perflab help`, and main(argv), which returns an exit code (help's also takes
the registry). A module imports what only its command needs inside main: cli imports every one of them."""

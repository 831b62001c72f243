"""./perflab's commands, one module each; ab/cli.py lists them (COMMANDS) and dispatches to them. Each module has
SYNOPSIS and SUMMARY, its entry in `./perflab help`, and main(argv), which returns an exit code."""

#!/usr/bin/env python3
"""Seed 000's table from ./perflab exp cold-start results (one JSON line per run; python3 stdlib only).

usage: report.py [--last] [--markdown] RESULTS.jsonl
  --last      only the last run, one line (the experiment prints it as it goes)
  --markdown  a Markdown table (for the README)
  --min-success P  exit 1 when a run's success rate (first 8,000) is below P percent (the CI smoke)
With several rounds, each cell is the median over the rounds of that combination.
"""
import json
import statistics
import sys

COLUMNS = [
    ("combination", "{}"), ("ready ms", "{:.0f}"), ("success %", "{:.2f}"), ("failed", "{:.0f}"),
    ("100 p50", "{:.0f}"), ("100 p95", "{:.0f}"), ("100 p99", "{:.0f}"),
    ("1k p50", "{:.0f}"), ("1k p95", "{:.0f}"), ("1k p99", "{:.0f}"),
    ("steady p99", "{:.0f}"), ("100 p99 / steady", "{:.1f}x"),
]


def combination(run):
    aot = "AOT cache" if run["aot"] != "no" else "no AOT"
    return f"{run['threads']}, warm-up {run['warmup']}, {aot}"


def cells(run):
    w = run["windows"]
    first8k = w["first8000"]
    failed = first8k["failures"] + run.get("dropped", 0)
    total = first8k["count"] + run.get("dropped", 0)
    steady_p99 = w["steady"]["p99"] if w.get("steady") else float("nan")
    return [
        run["readyEpochMs"] - run["startedMs"],
        100.0 * (total - failed) / total if total else float("nan"),
        failed,
        w["first100"]["p50"], w["first100"]["p95"], w["first100"]["p99"],
        w["first1000"]["p50"], w["first1000"]["p95"], w["first1000"]["p99"],
        steady_p99,
        w["first100"]["p99"] / steady_p99 if steady_p99 else float("nan"),
    ]


def rows(runs):
    grouped = {}
    for run in runs:
        grouped.setdefault(combination(run), []).append(cells(run))
    for name, values in grouped.items():
        yield [name] + [statistics.median(column) for column in zip(*values)]


def cell(fmt, value):
    return "-" if value != value else fmt.format(value)  # NaN: no steady window (the smoke's short runs)


def render(table, markdown):
    text = [[cell(fmt, v) if i else v for i, ((_, fmt), v) in enumerate(zip(COLUMNS, row))] for row in table]
    heads = [name for name, _ in COLUMNS]
    if markdown:
        lines = ["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
        return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in text])
    widths = [max(len(h), *(len(r[i]) for r in text)) for i, h in enumerate(heads)]
    fmt = lambda r: "  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(r))
    return "\n".join([fmt(heads)] + [fmt(r) for r in text])


def main(argv):
    min_success = None
    if "--min-success" in argv:
        i = argv.index("--min-success")
        min_success = float(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 1:
        sys.exit(__doc__)
    with open(args[0]) as f:
        runs = [json.loads(line) for line in f if line.strip()]
    if not runs:
        sys.exit(f"report.py: no runs in {args[0]}")
    if "--last" in argv:
        runs = runs[-1:]
    table = list(rows(runs))
    print(render(table, "--markdown" in argv))
    if min_success is not None:
        low = [row[0] for row in table if not row[2] >= min_success]
        if low:
            sys.exit(f"report.py: success below {min_success}% in: {', '.join(low)}")


if __name__ == "__main__":
    main(sys.argv[1:])

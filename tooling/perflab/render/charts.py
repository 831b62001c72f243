"""Charts of a result, as SVG text: pure functions of result.json (the same result gives the same bytes).

charts(result) -> {file name: standalone SVG} is what `./perflab ab --tables` and --publish write beside a published
result in docs/results/<name>/ (write()), and what README.md and docs/ show as images:

    verdict.svg     the headline: per profile (and sweep point, and candidate) the primary metric's B/A with its
                    95 % interval, the ±δ band of no difference and the verdict word
    rounds.svg      the primary metric's B/A in every round, with the interval and the band
    latency.svg     p95 over the measured window, every run, one colour per variant, one panel per profile
    sweep.svg       a sweep: B/A and its interval at each sweep value (where the candidate starts to win)
    capacity.svg    a capacity search: the rates each run held and broke at, and the bracket between them
    cold-start-success.svg, cold-start-p99.svg
                    a cold start: the share of the first requests answered, per run; p99 of the first 100, the
                    first 1,000 and the steady requests (the warm-up curve)
    first-request.svg
                    the first and the second request of each fresh instance, per run (and after the idle period)
    bars.svg        a command result (JMH, a benchmark's rows): one bar per row

Standalone means what GitHub renders as an <img>: xmlns, viewBox, width and height, a white background, a title,
axis labels with units, a legend, font-family sans-serif, no script and no external reference. report.html draws
its charts with the same functions (rounds_panel, latency_chart, sweep), inline. Each chart is drawn in a module of
its own group (charts_ratio: verdict, rounds, sweep; charts_load: latency, capacity, ramp; charts_start: cold start,
first request; charts_bars: bars), on charts_svg's drawing; this one lists them and writes the files.

"""
import pathlib
from collections.abc import Callable
from typing import Any

from perflab.render.charts_bars import bars
from perflab.render.charts_load import capacity, latency, ramp_chart
from perflab.render.charts_ratio import rounds, sweep, verdict
from perflab.render.charts_start import cold_start_p99, cold_start_success, first_request

DRAWERS: list[tuple[str, Callable[[dict[str, Any]], str | None]]] = [
    ("verdict.svg", verdict), ("rounds.svg", rounds), ("latency.svg", latency), ("sweep.svg", sweep),
    ("capacity.svg", capacity), ("ramp.svg", ramp_chart), ("cold-start-success.svg", cold_start_success),
    ("cold-start-p99.svg", cold_start_p99), ("first-request.svg", first_request), ("bars.svg", bars)]


def charts(result: dict[str, Any]) -> dict[str, str]:
    """{file name: SVG text} of every chart that applies to the result, in DRAWERS order."""
    out: dict[str, str] = {}
    for name, draw in DRAWERS:
        drawn = draw(result)
        if drawn:
            out[name] = drawn
    return out


def write(result: dict[str, Any], folder: str | pathlib.Path) -> list[pathlib.Path]:
    """Writes the result's charts into folder and removes any other .svg there (a chart that no longer applies);
    returns the paths written or removed whose bytes changed."""
    folder = pathlib.Path(folder)
    drawn = charts(result)
    changed = []
    for name, text in drawn.items():
        path = folder / name
        if not path.exists() or path.read_bytes() != text.encode():
            path.write_bytes(text.encode())
            changed.append(path)
    for stale in sorted(folder.glob("*.svg")):
        if stale.name not in drawn:
            stale.unlink()
            changed.append(stale)
    return changed

"""Where an A/B run's time goes (issue 50, item 5): the seconds of each phase, added up as the runner passes through
them, for result.json's `timings` and the runner's last line. Set-up is the data sets and the app starts; warm-up
the discarded load, primers and settling after each start; resets the data resets between runs; measurement what is
left of the rounds; analysis the statistics and reports after them."""
import contextlib
import time
from collections.abc import Iterator

PHASES = ("data_sets", "app_starts", "warmup", "resets", "measurement", "analysis")


class Timings:
    def __init__(self) -> None:
        self.seconds: dict[str, float] = {phase: 0.0 for phase in PHASES}
        self.began = time.monotonic()

    def add(self, phase: str, seconds: float) -> None:
        self.seconds[phase] += seconds

    @contextlib.contextmanager
    def timing(self, phase: str) -> Iterator[None]:
        began = time.monotonic()
        try:
            yield
        finally:
            self.add(phase, time.monotonic() - began)

    def rounds_took(self, seconds: float) -> None:
        """The rounds' wall time: what app starts, warm-ups and resets inside it did not take is measurement."""
        inside = self.seconds["app_starts"] + self.seconds["warmup"] + self.seconds["resets"]
        self.seconds["measurement"] = max(0.0, seconds - inside)

    def record(self) -> dict[str, float]:
        """result.json's `timings`: each phase, set-up (data sets and app starts) and the total, in seconds."""
        out = {f"{phase}_s": round(value, 1) for phase, value in self.seconds.items()}
        out["setup_s"] = round(self.seconds["data_sets"] + self.seconds["app_starts"], 1)
        out["total_s"] = round(time.monotonic() - self.began, 1)
        return out


def line(timings: dict[str, float]) -> str:
    """The runner's last line: where the time went."""
    return (f"time: {timings['total_s']:.0f} s in all: set-up {timings['setup_s']:.0f} s (data sets "
            f"{timings['data_sets_s']:.0f} s, app starts {timings['app_starts_s']:.0f} s), warm-up "
            f"{timings['warmup_s']:.0f} s, resets {timings['resets_s']:.0f} s, measurement {timings['measurement_s']:.0f} s, "
            f"analysis {timings['analysis_s']:.0f} s")

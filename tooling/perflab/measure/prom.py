"""The one parser of the Prometheus text format in perflab: the app's /actuator/prometheus, through the
maintained parser of prometheus_client, as a flat list of samples that the runner sums and compares."""
import urllib.request
from typing import NamedTuple

from prometheus_client.parser import text_string_to_metric_families


class Sample(NamedTuple):
    name: str
    labels: dict[str, str]
    value: float


def parse(text: str) -> list[Sample]:
    """Every sample of an exposition text, counters under their full sample name (e.g. `..._total`)."""
    return [Sample(s.name, dict(s.labels), float(s.value))
            for family in text_string_to_metric_families(text) for s in family.samples]


def scrape(base_url: str, timeout: float = 5) -> list[Sample]:
    with urllib.request.urlopen(f"{base_url}/actuator/prometheus", timeout=timeout) as response:
        return parse(response.read().decode())


def total(samples: list[Sample], name: str, labels: dict[str, str] | None = None) -> float:
    """The sum of every series of `name` whose labels include `labels`."""
    labels = labels or {}
    return sum(s.value for s in samples
               if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()))


def knobs(samples: list[Sample]) -> list[str]:
    """The knobs the app runs with, from its perflab_variant_info series: ['login.client=pooled', ...]."""
    return sorted(f"{s.labels['feature']}.{s.labels['knob']}={s.labels['value']}"
                  for s in samples if s.name == "perflab_variant_info")


def variant_line(samples: list[Sample]) -> str:
    """'variant after: perflab.login.client=pooled, ...' for ./perflab status."""
    names = {name for s in samples if s.name == "perflab_variant_info" if (name := s.labels.get("variant"))}
    return f"variant {', '.join(sorted(names)) or 'default'}: " + ", ".join(f"perflab.{k}" for k in knobs(samples))


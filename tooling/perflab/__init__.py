"""perflab's tooling: the A/B runner, the lab it measures in, and the suites, by pipeline stage (docs/design.md)."""

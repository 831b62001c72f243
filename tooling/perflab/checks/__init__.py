"""The suites and checks: chaos, abuse, the API contract, the newcomer check, the docs and the dashboards' PromQL."""

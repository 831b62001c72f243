"""Measurement: one run of one variant (its procedure by load shape, k6, Prometheus, JFR), and a cell's rounds."""

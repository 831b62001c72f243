"""Analysis: statistics, calibration, the comparison of every variant against the baseline, ramps, the write-up beside perflab."""

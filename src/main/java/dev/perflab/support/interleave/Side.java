package dev.perflab.support.interleave;

/**
 * Which variant of a feature's per-request code paths an arm takes in the interleaved mode: {@code before} (the
 * case study's starting point) or {@code after} (its fix). The wallet's: the 12-statement transfer and MariaDB
 * lookups, against the batched transfer and the Redis caches.
 */
public enum Side { BEFORE, AFTER }

package dev.perflab.route.after;

import java.nio.charset.StandardCharsets;

/**
 * The small value that says which version the cached batches hold, how many there are and how many routes they
 * hold in all: {@code "<version>:<batches>:<routes>"}. A reader checks all three, so a partial set never passes.
 */
record Manifest(long version, int batches, long routes) {

    /** Values in Redis are untrusted: no more batches than 10,000 (a university has 20 of 2,500 routes). */
    static final int MAX_BATCHES = 10_000;
    static final long MAX_ROUTES = 100_000_000L;

    byte[] bytes() {
        return (version + ":" + batches + ":" + routes).getBytes(StandardCharsets.US_ASCII);
    }

    /** The manifest in {@code bytes}, or null when it is missing, malformed or out of bounds. */
    static Manifest parse(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        String[] parts = new String(bytes, StandardCharsets.US_ASCII).split(":");
        try {
            if (parts.length != 3) {
                return null;
            }
            Manifest manifest = new Manifest(Long.parseLong(parts[0]), Integer.parseInt(parts[1]), Long.parseLong(parts[2]));
            return manifest.batches() > 0 && manifest.batches() <= MAX_BATCHES && manifest.routes() >= 0
                    && manifest.routes() <= MAX_ROUTES ? manifest : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}

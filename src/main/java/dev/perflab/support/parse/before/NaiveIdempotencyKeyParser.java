package dev.perflab.support.parse.before;

import java.util.Locale;
import java.util.UUID;

import dev.perflab.support.parse.IdempotencyKeyParser;

/**
 * Parses the key the way seed 000's server parsed its headers: {@code trim}, {@code toLowerCase},
 * {@code split("-")}, a length and digit check per part, then {@code Long.parseLong(part, 16)}. The
 * {@code split} allocates a list, its array, five substrings (a {@code String} and a {@code byte[]} each), a
 * sub-list and the result array: with the UUID, 15 objects (432 bytes) per call until C2 compiles it and 13
 * (376 bytes) after; an upper-case key adds a lower-case copy, 2 more. {@code gc.alloc.rate.norm} in
 * {@code HeaderParsingBenchmark} ({@code -prof gc}) and {@code scripts/alloc-count.sh}; docs/parsing.md.
 * At 250 bytecode bytes C2 may inline it: its cost is what it allocates, not its size.
 */
public class NaiveIdempotencyKeyParser implements IdempotencyKeyParser {

    private static final int[] PART_LENGTHS = {8, 4, 4, 4, 12};

    @Override
    public UUID parse(String value) {
        if (value == null) {
            throw new IllegalArgumentException("Idempotency-Key must be a UUID");
        }
        String key = value.trim().toLowerCase(Locale.ROOT);
        if (key.length() != 36) {
            throw new IllegalArgumentException("Idempotency-Key must be a UUID");
        }
        String[] parts = key.split("-");
        if (parts.length != PART_LENGTHS.length) {
            throw new IllegalArgumentException("Idempotency-Key must be a UUID");
        }
        for (int p = 0; p < parts.length; p++) {
            String part = parts[p];
            if (part.length() != PART_LENGTHS[p]) {
                throw new IllegalArgumentException("Idempotency-Key must be a UUID");
            }
            // Long.parseLong alone would take a sign and non-ASCII digits
            for (int i = 0; i < part.length(); i++) {
                char c = part.charAt(i);
                if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
                    throw new IllegalArgumentException("Idempotency-Key must be a UUID");
                }
            }
        }
        long mostSigBits = Long.parseLong(parts[0], 16) << 32 | Long.parseLong(parts[1], 16) << 16
                | Long.parseLong(parts[2], 16);
        long leastSigBits = Long.parseLong(parts[3], 16) << 48 | Long.parseLong(parts[4], 16);
        return new UUID(mostSigBits, leastSigBits);
    }
}

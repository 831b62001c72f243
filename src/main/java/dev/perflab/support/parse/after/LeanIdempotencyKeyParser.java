package dev.perflab.support.parse.after;

import java.util.UUID;

import dev.perflab.support.parse.HeaderValues;
import dev.perflab.support.parse.IdempotencyKeyParser;

/**
 * Parses the key in place: the bounds of the trimmed value by index, the four dashes by {@code charAt}, and
 * the 32 hex digits by arithmetic into the two longs, in methods small enough for C2 to inline ("inline
 * (hot)" in {@code -XX:+PrintInlining}, {@code scripts/inlining-check.sh}). The one allocation is the
 * resulting {@link UUID}, 32 bytes, cold or hot, whatever the case of the key: {@code gc.alloc.rate.norm} in
 * {@code HeaderParsingBenchmark}, {@code scripts/alloc-count.sh}; docs/parsing.md.
 */
public class LeanIdempotencyKeyParser implements IdempotencyKeyParser {

    private static final int LENGTH = 36;

    @Override
    public UUID parse(String value) {
        if (value == null) {
            throw invalid();
        }
        int end = HeaderValues.end(value);
        int start = HeaderValues.start(value, end);
        if (end - start != LENGTH || !hasDashes(value, start)) {
            throw invalid();
        }
        long mostSigBits = hex(value, start, 8) << 32 | hex(value, start + 9, 4) << 16 | hex(value, start + 14, 4);
        long leastSigBits = hex(value, start + 19, 4) << 48 | hex(value, start + 24, 12);
        return new UUID(mostSigBits, leastSigBits);
    }

    /** Whether the 36 chars from {@code start} have their dashes at 8, 13, 18 and 23. */
    static boolean hasDashes(String s, int start) {
        return s.charAt(start + 8) == '-' && s.charAt(start + 13) == '-' && s.charAt(start + 18) == '-'
                && s.charAt(start + 23) == '-';
    }

    /** The value of the {@code digits} hex digits from {@code from}. */
    static long hex(String s, int from, int digits) {
        long value = 0;
        for (int i = from; i < from + digits; i++) {
            value = value << 4 | nibble(s.charAt(i));
        }
        return value;
    }

    /** The value of one ASCII hex digit, either case. */
    static int nibble(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        int lower = c | 0x20;
        if (lower >= 'a' && lower <= 'f') {
            return lower - 'a' + 10;
        }
        throw invalid();
    }

    private static IllegalArgumentException invalid() {
        return new IllegalArgumentException("Idempotency-Key must be a UUID");
    }
}

package dev.perflab.support.parse;

import java.util.UUID;

/**
 * Reads an {@code Idempotency-Key} header value as a UUID: the canonical 8-4-4-4-12 hex form, hex digits in
 * either case, white space around the value ignored. {@code perflab.parse.header} picks the variant:
 * {@code naive} ({@link dev.perflab.support.parse.before.NaiveIdempotencyKeyParser}) or {@code lean}
 * ({@link dev.perflab.support.parse.after.LeanIdempotencyKeyParser}); both answer the same for every value.
 */
public interface IdempotencyKeyParser {

    /**
     * The UUID that {@code value} spells.
     *
     * @throws IllegalArgumentException when {@code value} is null or not a UUID in the canonical form
     */
    UUID parse(String value);
}

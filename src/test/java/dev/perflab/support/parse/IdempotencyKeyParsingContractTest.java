package dev.perflab.support.parse;

import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.perflab.support.parse.after.LeanIdempotencyKeyParser;
import dev.perflab.support.parse.before.NaiveIdempotencyKeyParser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Both Idempotency-Key parsers (perflab.parse.header) give the same answer for the same header value. */
class IdempotencyKeyParsingContractTest {

    static final String KEY = "3f1c2a9e-7b4d-4e8a-9c21-0d5e6f7a8b9c";

    static Stream<Arguments> parsers() {
        return Stream.of(Arguments.of("naive", new NaiveIdempotencyKeyParser()),
                Arguments.of("lean", new LeanIdempotencyKeyParser()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("parsers")
    void readsACanonicalUuid(String name, IdempotencyKeyParser parser) {
        assertThat(parser.parse(KEY)).isEqualTo(UUID.fromString(KEY));
        assertThat(parser.parse("00000000-0000-0000-0000-000000000000")).isEqualTo(new UUID(0, 0));
        assertThat(parser.parse("ffffffff-ffff-ffff-ffff-ffffffffffff")).isEqualTo(new UUID(-1, -1));
        for (int i = 0; i < 1_000; i++) {
            UUID random = UUID.randomUUID();
            assertThat(parser.parse(random.toString())).isEqualTo(random);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("parsers")
    void upperCaseAndWhiteSpaceAroundAreTheSameKey(String name, IdempotencyKeyParser parser) {
        UUID key = UUID.fromString(KEY);
        assertThat(parser.parse(KEY.toUpperCase())).isEqualTo(key);
        assertThat(parser.parse("3F1C2A9E-7b4d-4E8A-9c21-0D5E6F7A8B9C")).isEqualTo(key);
        assertThat(parser.parse("  " + KEY + " ")).isEqualTo(key);
        assertThat(parser.parse("\t" + KEY + "\r\n")).isEqualTo(key);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("parsers")
    void anythingElseIsRejected(String name, IdempotencyKeyParser parser) {
        for (String value : new String[] {
                null, "", " ", "   \t ",                              // empty, white space
                "3f1c2a9e7b4d4e8a9c210d5e6f7a8b9c",                   // missing dashes
                "3f1c2a9e-7b4d4e8a-9c21-0d5e6f7a8b9c",                // a dash missing
                "3f1c2a9e-7b4d-4e8a-9c21-0d5e6f7a8b9",                // wrong length: 35
                "3f1c2a9e-7b4d-4e8a-9c21-0d5e6f7a8b9c0",              // 37
                "3f1c2a9e-7b4d-4e8a-9c21-0d5e6f7a8b9c-",              // a trailing dash
                "3f1c2a9-e7b4d-4e8a-9c21-0d5e6f7a8b9c",               // dashes in the wrong places
                "3f1c2a9e--7b4-4e8a-9c21-0d5e6f7a8b9c",
                "1-2-3-4-5",                                          // UUID.fromString's lenient form
                "3f1c2a9g-7b4d-4e8a-9c21-0d5e6f7a8b9c",               // non-hex: g
                "3f1c2a9e-7b4d-4e8a-9c21-0d5e6f7a8b9z",
                "+f1c2a9e-7b4d-4e8a-9c21-0d5e6f7a8b9c",               // a sign Long.parseLong would take
                "-f1c2a9e-7b4d-4e8a-9c21-0d5e6f7a8b9c",
                "3f1c2a9e-7b4d-4e8a-9c21-0d5e6f7a8b\uff19c",          // a full-width digit Character.digit would take
                "3f1c2a9e 7b4d 4e8a 9c21 0d5e6f7a8b9c",
                "not-a-uuid"}) {
            assertThatThrownBy(() -> parser.parse(value)).as(String.valueOf(value))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}

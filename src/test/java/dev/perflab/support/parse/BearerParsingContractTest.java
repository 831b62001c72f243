package dev.perflab.support.parse;

import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.perflab.support.parse.after.LeanBearerTokenResolver;
import dev.perflab.support.parse.before.NaiveBearerTokenResolver;

import org.springframework.security.oauth2.core.OAuth2AuthenticationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Both header parsers (perflab.parse.header) give the same answer for the same header. */
class BearerParsingContractTest {

    static final String JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.abc-_~+/==";

    static Stream<Arguments> parsers() {
        return Stream.of(Arguments.of("naive", (Function<String, String>) NaiveBearerTokenResolver::parse),
                Arguments.of("lean", (Function<String, String>) LeanBearerTokenResolver::parse));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("parsers")
    void readsTheTokenOfABearerHeader(String name, Function<String, String> parse) {
        assertThat(parse.apply("Bearer " + JWT)).isEqualTo(JWT);
        assertThat(parse.apply("bearer abc")).isEqualTo("abc");
        assertThat(parse.apply("BEARER abc")).isEqualTo("abc");
        assertThat(parse.apply("bEaReR a")).isEqualTo("a");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("parsers")
    void spacesBetweenAndWhiteSpaceAroundAreAllowed(String name, Function<String, String> parse) {
        assertThat(parse.apply("Bearer  abc")).isEqualTo("abc");
        assertThat(parse.apply("Bearer     " + JWT)).isEqualTo(JWT);
        assertThat(parse.apply("  Bearer abc  ")).isEqualTo("abc");
        assertThat(parse.apply("\tBearer abc\r\n")).isEqualTo("abc");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("parsers")
    void otherSchemesAndNoHeaderAreNotBearerTokens(String name, Function<String, String> parse) {
        for (String header : new String[] {null, "", "   ", "Basic dXNlcjpwYXNz", "Bearerish abc", "Bear abc",
                "Bearer\tabc", "Token Bearer abc", "Béarer abc"}) {
            assertThat(parse.apply(header)).as(String.valueOf(header)).isNull();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("parsers")
    void aMalformedBearerHeaderIsRejected(String name, Function<String, String> parse) {
        for (String header : new String[] {"Bearer", "Bearer ", "  bearer   ", "Bearer a b", "Bearer a  b", "Bearer a=b",
                "Bearer ab$c", "Bearer a\tb", "Bearer ==", "Bearer =abc", "Bearer abc==x", "Bearer ab\u00e9c"}) {
            assertThatThrownBy(() -> parse.apply(header)).as(header).isInstanceOf(OAuth2AuthenticationException.class);
        }
    }
}

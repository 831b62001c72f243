package dev.perflab.support.parse.before;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.server.resource.BearerTokenErrors;
import org.springframework.security.oauth2.server.resource.web.BearerTokenResolver;

/**
 * Slow on a cold JIT, as seed 000's parser was. {@link #parse} is one method of 370 bytecode bytes
 * ({@code javap -c}; {@code scripts/inlining-check.sh} prints it), above C2's {@code FreqInlineSize} of 325,
 * so C2 does not inline it into its caller ("hot method too big" in {@code -XX:+PrintInlining}). Each call
 * allocates 12 objects, 536 bytes, until C2 compiles it ({@code split}'s list, its array, the two words, the
 * result array and a sub-list; the list of words and its array; the lower-case scheme), and still 8 or 9,
 * 432 bytes, after escape analysis: {@code gc.alloc.rate.norm} in {@code HeaderParsingBenchmark}
 * ({@code -prof gc}) and {@code scripts/alloc-count.sh}; docs/parsing.md.
 */
public class NaiveBearerTokenResolver implements BearerTokenResolver {

    @Override
    public String resolve(HttpServletRequest request) {
        return parse(request.getHeader("Authorization"));
    }

    /**
     * The token of an {@code Authorization} header value (RFC 6750: {@code "Bearer" 1*SP b64token}, scheme in
     * any case, white space around the value ignored), null when it is not a Bearer header. One method of 370
     * bytecode bytes ({@code javap -c}: its last instruction, {@code areturn}, is at 369), over C2's 325.
     *
     * @throws OAuth2AuthenticationException a Bearer header without a well-formed token
     */
    public static String parse(String header) {
        if (header == null) {
            return null;
        }
        String value = header.trim();
        if (value.isEmpty()) {
            return null;
        }
        // "Bearer  abc" is legal (1*SP): split at each space and drop the empty words between spaces
        String[] parts = value.split(" ");
        List<String> words = new ArrayList<>();
        for (String part : parts) {
            if (!part.isEmpty()) {
                words.add(part);
            }
        }
        String scheme = words.get(0).toLowerCase(Locale.ROOT);
        if (!scheme.equals("bearer")) {
            return null;
        }
        if (words.size() != 2) {
            throw new OAuth2AuthenticationException(BearerTokenErrors.invalidToken("Bearer token is malformed"));
        }
        String token = words.get(1);
        int characters = 0;
        int padding = 0;
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c == '=') {
                padding++;
                continue;
            }
            if (padding > 0) {
                throw new OAuth2AuthenticationException(BearerTokenErrors.invalidToken("Bearer token is malformed"));
            }
            boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
            boolean digit = c >= '0' && c <= '9';
            boolean symbol = c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/';
            if (!letter && !digit && !symbol) {
                throw new OAuth2AuthenticationException(BearerTokenErrors.invalidToken("Bearer token is malformed"));
            }
            characters++;
        }
        if (characters == 0) {
            throw new OAuth2AuthenticationException(BearerTokenErrors.invalidToken("Bearer token is malformed"));
        }
        return token;
    }
}

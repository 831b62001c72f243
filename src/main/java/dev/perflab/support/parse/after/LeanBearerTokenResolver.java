package dev.perflab.support.parse.after;

import jakarta.servlet.http.HttpServletRequest;

import dev.perflab.support.parse.HeaderValues;

import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.server.resource.BearerTokenErrors;
import org.springframework.security.oauth2.server.resource.web.BearerTokenResolver;

/**
 * Fast from the first requests, as seed 000's fix was: index arithmetic over the header value instead of
 * {@code trim}/{@code split}, {@code regionMatches} instead of {@code toLowerCase}, the well-formed case
 * straight through with the failures as early exits, and methods of a few dozen bytecode bytes that C2
 * inlines ("inline (hot)" in {@code -XX:+PrintInlining}, {@code scripts/inlining-check.sh}). The only
 * allocation is the token it returns, one {@code String} and its {@code byte[]} (224 bytes for a 179-character
 * token), cold or hot: {@code gc.alloc.rate.norm} in {@code HeaderParsingBenchmark}, {@code scripts/alloc-count.sh};
 * docs/parsing.md.
 */
public class LeanBearerTokenResolver implements BearerTokenResolver {

    private static final String SCHEME = "Bearer";

    @Override
    public String resolve(HttpServletRequest request) {
        return parse(request.getHeader("Authorization"));
    }

    /**
     * The token of an {@code Authorization} header value (RFC 6750: {@code "Bearer" 1*SP b64token}, scheme in
     * any case, white space around the value ignored), null when it is not a Bearer header.
     *
     * @throws OAuth2AuthenticationException a Bearer header without a well-formed token
     */
    public static String parse(String header) {
        if (header == null) {
            return null;
        }
        int end = HeaderValues.end(header);
        int start = HeaderValues.start(header, end);
        if (!isBearer(header, start, end)) {
            return null;
        }
        int token = HeaderValues.skipSpaces(header, start + SCHEME.length(), end);
        if (!isB64Token(header, token, end)) {
            throw malformed();
        }
        return header.substring(token, end);
    }

    /** Whether {@code s[start, end)} is the scheme {@code Bearer} (any case), alone or followed by a space. */
    static boolean isBearer(String s, int start, int end) {
        int schemeEnd = start + SCHEME.length();
        return schemeEnd <= end && s.regionMatches(true, start, SCHEME, 0, SCHEME.length())
                && (schemeEnd == end || s.charAt(schemeEnd) == ' ');
    }

    /** Whether {@code s[from, end)} is a b64token: one or more token68 characters, then any '=' padding. */
    static boolean isB64Token(String s, int from, int end) {
        int i = from;
        while (i < end && isTokenChar(s.charAt(i))) {
            i++;
        }
        if (i == from) {
            return false;
        }
        while (i < end && s.charAt(i) == '=') {
            i++;
        }
        return i == end;
    }

    static boolean isTokenChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/';
    }

    private static OAuth2AuthenticationException malformed() {
        return new OAuth2AuthenticationException(BearerTokenErrors.invalidToken("Bearer token is malformed"));
    }
}

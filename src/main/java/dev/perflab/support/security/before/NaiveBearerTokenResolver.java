package dev.perflab.support.security.before;

import java.util.Locale;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.server.resource.BearerTokenErrors;
import org.springframework.security.oauth2.server.resource.web.BearerTokenResolver;

/**
 * Slow on a cold JIT, as seed 000's parser was: one method of well over 325 bytecode bytes (too large
 * for C2 to inline into its caller), and {@code trim}, {@code split} and {@code toLowerCase} allocate a
 * handful of strings and an array on every request. Shows as allocated bytes per request
 * ({@code BearerParsingBenchmark} with {@code -prof gc}) and "too big" in {@code -XX:+PrintInlining}.
 */
public class NaiveBearerTokenResolver implements BearerTokenResolver {

    @Override
    public String resolve(HttpServletRequest request) {
        return parse(request.getHeader("Authorization"));
    }

    /** The token of an {@code Authorization} header value, null when it is not a Bearer header. */
    public static String parse(String header) {
        if (header == null) {
            return null;
        }
        String trimmed = header.trim();
        if (trimmed.isEmpty()) {
            return null;
        }
        String[] parts = trimmed.split(" ");
        String scheme = parts[0].toLowerCase(Locale.ROOT);
        if (!scheme.equals("bearer")) {
            return null;
        }
        if (parts.length != 2) {
            throw new OAuth2AuthenticationException(BearerTokenErrors.invalidToken("Bearer token is malformed"));
        }
        String token = parts[1].trim();
        if (token.isEmpty()) {
            throw new OAuth2AuthenticationException(BearerTokenErrors.invalidToken("Bearer token is malformed"));
        }
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
        }
        return token;
    }
}

package dev.perflab.support.security;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param secret HS256 key, at least 32 bytes; the default is for development only and {@link DevelopmentSecrets} refuses it
 * @param ttl    how long an issued token stays valid
 * @param issuer the {@code iss} claim written and required
 * @param verifiedCacheSize how many verified tokens {@link VerifiedTokenCache} keeps (each at most {@code ttl});
 *                          0 verifies every token on every request
 */
@ConfigurationProperties("perflab.security.jwt")
public record JwtProperties(
        @DefaultValue(DEV_SECRET) String secret,
        @DefaultValue("1h") Duration ttl,
        @DefaultValue("perflab") String issuer,
        @DefaultValue("10000") long verifiedCacheSize) {

    public static final String DEV_SECRET = "perflab-dev-secret-change-me-0123456789abcdef";

    public JwtProperties {
        if (secret.getBytes(java.nio.charset.StandardCharsets.UTF_8).length < 32) {
            throw new IllegalArgumentException("perflab.security.jwt.secret must be at least 32 bytes for HS256");
        }
    }

    @Override
    public String toString() {
        return "JwtProperties[secret=******, ttl=" + ttl + ", issuer=" + issuer + ", verifiedCacheSize=" + verifiedCacheSize + "]";
    }
}

package dev.perflab.support.security;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;

import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

import com.nimbusds.jose.jwk.source.ImmutableSecret;
import org.junit.jupiter.api.Test;

import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jose.jws.MacAlgorithm;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtIssuerValidator;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.JwtValidationException;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The verified-token cache skips re-verifying a byte-identical token, and nothing else. */
class VerifiedTokenCacheTest {

    private static final Instant T0 = Instant.parse("2026-11-22T18:00:00Z");
    private static final Duration TTL = Duration.ofMinutes(2);

    private final MutableClock clock = new MutableClock(T0);
    private final SecretKey key = key("perflab-test-secret-0123456789abcdef-0123");
    private final JwtProperties properties = new JwtProperties("perflab-test-secret-0123456789abcdef-0123", TTL, "perflab", 100);
    private final TokenService tokens = new TokenService(new NimbusJwtEncoder(new ImmutableSecret<>(key)), properties,
            Clock.fixed(T0, ZoneOffset.UTC));
    private final AtomicInteger verifications = new AtomicInteger();
    private final VerifiedTokenCache cache = cacheFor(key);

    @Test
    void aTokenIsVerifiedOnceAndThenServedFromTheCache() {
        String token = tokens.issue(42, "user42").accessToken();

        Jwt first = cache.decode(token);
        Jwt second = cache.decode(token);

        assertThat(second.getSubject()).isEqualTo("42");
        assertThat(second).isSameAs(first);
        assertThat(verifications).hasValue(1);
        assertThat(cache.size()).isEqualTo(1);
    }

    @Test
    void anExpiredTokenIsRejectedEvenWhenItIsCached() {
        String token = tokens.issue(42, "user42").accessToken();
        cache.decode(token);

        clock.set(T0.plus(TTL).plusSeconds(59)); // within the validator's default 60 s of clock skew: still valid
        assertThat(cache.decode(token).getSubject()).isEqualTo("42");

        clock.set(T0.plus(TTL).plusSeconds(61));
        assertThatThrownBy(() -> cache.decode(token)).isInstanceOf(JwtValidationException.class)
                .hasMessageContaining("expired");
        assertThat(cache.size()).isZero();
        assertThat(verifications).hasValue(1);
    }

    @Test
    void aTamperedTokenIsRejectedAfterTheGenuineOneWasCached() {
        String token = tokens.issue(42, "user42").accessToken();
        cache.decode(token);
        String[] parts = token.split("\\.");
        String otherPayload = tokens.issue(1, "user1").accessToken().split("\\.")[1];
        String lastChar = parts[2].substring(parts[2].length() - 1);

        String forgedPayload = parts[0] + "." + otherPayload + "." + parts[2];
        String alteredSignature = parts[0] + "." + parts[1] + "." + parts[2].substring(0, parts[2].length() - 1)
                + (lastChar.equals("A") ? "B" : "A");

        assertThatThrownBy(() -> cache.decode(forgedPayload)).isInstanceOf(BadJwtException.class);
        assertThatThrownBy(() -> cache.decode(alteredSignature)).isInstanceOf(BadJwtException.class);
        assertThat(cache.size()).isEqualTo(1);
    }

    @Test
    void aTokenSignedWithAnotherKeyIsRejected() {
        SecretKey other = key("another-secret-of-at-least-32-bytes-xxxxxxx");
        String foreign = new TokenService(new NimbusJwtEncoder(new ImmutableSecret<>(other)), properties,
                Clock.fixed(T0, ZoneOffset.UTC)).issue(42, "user42").accessToken();

        assertThatThrownBy(() -> cache.decode(foreign)).isInstanceOf(BadJwtException.class);
        assertThat(cache.size()).isZero();
    }

    private VerifiedTokenCache cacheFor(SecretKey secret) {
        JwtTimestampValidator timestamps = new JwtTimestampValidator();
        timestamps.setClock(clock);
        OAuth2TokenValidator<Jwt> validator = new DelegatingOAuth2TokenValidator<>(timestamps, new JwtIssuerValidator("perflab"));
        NimbusJwtDecoder nimbus = NimbusJwtDecoder.withSecretKey(secret).macAlgorithm(MacAlgorithm.HS256).build();
        nimbus.setJwtValidator(validator);
        JwtDecoder counting = token -> {
            verifications.incrementAndGet();
            return nimbus.decode(token);
        };
        return new VerifiedTokenCache(counting, validator, 100, TTL);
    }

    private static SecretKey key(String secret) {
        return new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    private static final class MutableClock extends Clock {

        private volatile Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void set(Instant instant) {
            now = instant;
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}

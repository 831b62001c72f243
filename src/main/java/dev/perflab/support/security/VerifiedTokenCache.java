package dev.perflab.support.security;

import java.time.Duration;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.JwtValidationException;

/**
 * A {@link JwtDecoder} that remembers the tokens it has verified, so that a client sending the same token on
 * every request pays for parsing it (base64, JSON) and checking its HMAC once, not on every request: the
 * profile of a transfer showed {@code NimbusJwtDecoder.decode} at about 6% of a request's CPU
 * (docs/wallet.md, "Where the CPU goes").
 * <p>
 * What it keeps correct: the key is the whole token string, so a token that differs in any character (a
 * tampered payload or signature) is a miss and goes through full verification; and the claim validators
 * (expiry, not-before, issuer) run again on <em>every</em> call, hit or miss, so an expired token is rejected
 * at the same instant as without the cache. What it trades: memory for up to {@code maximumSize} verified
 * tokens, each kept at most {@code keepFor}; and a verified token is trusted for that long as far as its
 * signature goes: fine while the signing key is fixed for the life of the process (it is here), wrong if keys
 * rotated at runtime or tokens could be revoked (neither exists in perflab). {@code maximumSize} 0 turns the
 * cache off ({@code perflab.security.jwt.verified-cache-size}).
 */
public final class VerifiedTokenCache implements JwtDecoder {

    private final JwtDecoder verifier;
    private final OAuth2TokenValidator<Jwt> validator;
    private final Cache<String, Jwt> verified;

    /**
     * @param verifier  the full decoder: parses, verifies the signature and validates the claims
     * @param validator the claim validators the verifier uses, run again on every cache hit
     */
    public VerifiedTokenCache(JwtDecoder verifier, OAuth2TokenValidator<Jwt> validator, long maximumSize, Duration keepFor) {
        this.verifier = verifier;
        this.validator = validator;
        this.verified = Caffeine.newBuilder().maximumSize(maximumSize).expireAfterWrite(keepFor).build();
    }

    @Override
    public Jwt decode(String token) throws JwtException {
        if (token == null) {
            throw new BadJwtException("no token");
        }
        Jwt known = verified.getIfPresent(token);
        if (known == null) {
            Jwt jwt = verifier.decode(token);
            verified.put(token, jwt);
            return jwt;
        }
        OAuth2TokenValidatorResult result = validator.validate(known);
        if (result.hasErrors()) {
            verified.invalidate(token);
            throw new JwtValidationException("An error occurred while attempting to decode the Jwt: "
                    + result.getErrors().iterator().next().getDescription(), result.getErrors());
        }
        return known;
    }

    /** How many verified tokens are kept now (for tests and diagnostics). */
    long size() {
        verified.cleanUp();
        return verified.estimatedSize();
    }
}

package dev.perflab.support.parse;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.Random;
import java.util.UUID;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Header values as this app sees them, for the parsing benchmark and the inlining driver: an
 * {@code Authorization} header with a real HS256 token shaped like {@code TokenService}'s (iss, sub, login,
 * iat, exp; signed with the development secret), and lower-case {@code Idempotency-Key}s as
 * {@code UUID.randomUUID().toString()} writes them (what k6/transfer.js sends).
 */
public final class SampleHeaders {

    /** A JWT of 179 characters (the header 186), fixed so that every run parses the same bytes. */
    public static final String JWT = hs256("{\"alg\":\"HS256\"}",
            "{\"iss\":\"perflab\",\"sub\":\"42017\",\"login\":\"user42017\",\"exp\":1767229200,\"iat\":1767225600}",
            "perflab-dev-secret-change-me-0123456789abcdef");

    public static final String AUTHORIZATION = "Bearer " + JWT;

    public static final String IDEMPOTENCY_KEY = "3f1c2a9e-7b4d-4e8a-9c21-0d5e6f7a8b9c";

    private SampleHeaders() {
    }

    /** {@code n} distinct lower-case keys from a fixed seed. */
    public static String[] idempotencyKeys(int n) {
        Random random = new Random(42);
        String[] keys = new String[n];
        for (int i = 0; i < n; i++) {
            keys[i] = new UUID(random.nextLong() & ~0xF000L | 0x4000L,
                    random.nextLong() & 0x3FFFFFFFFFFFFFFFL | 0x8000000000000000L).toString();
        }
        return keys;
    }

    static String hs256(String header, String payload, String secret) {
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        String signingInput = base64.encodeToString(header.getBytes(StandardCharsets.UTF_8)) + "."
                + base64.encodeToString(payload.getBytes(StandardCharsets.UTF_8));
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return signingInput + "." + base64.encodeToString(mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}

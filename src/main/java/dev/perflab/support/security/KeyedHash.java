package dev.perflab.support.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.stereotype.Component;

/**
 * HMAC-SHA256 with a server secret ({@code perflab.security.hash.secret}, env {@code PERFLAB_SECURITY_HASH_SECRET}),
 * for values that are stored only to be compared later and that contain a secret, such as the idempotency
 * record's request fingerprint (it covers the PIN). A plain SHA-256 of such a value gives a 4-digit PIN back after
 * 10,000 guesses to anyone who can read the table; without the server secret, the keyed hash gives nothing.
 */
@Component
public class KeyedHash {

    private static final Logger log = LoggerFactory.getLogger(KeyedHash.class);
    private final SecretKeySpec key;

    KeyedHash(Properties properties) {
        this.key = new SecretKeySpec(properties.secret().getBytes(StandardCharsets.UTF_8), "HmacSHA256");
        if (properties.usesDevSecret()) {
            log.warn("perflab.security.hash.secret is the built-in development secret: set PERFLAB_SECURITY_HASH_SECRET "
                    + "(>= 32 bytes) before storing real data");
        }
    }

    /** 64 lower-case hex digits. */
    public String hex(String text) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return HexFormat.of().formatHex(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @param secret the HMAC key, at least 32 bytes; the default is for development only and the app warns about it */
    @ConfigurationProperties("perflab.security.hash")
    public record Properties(@DefaultValue(DEV_SECRET) String secret) {

        static final String DEV_SECRET = "perflab-dev-hash-secret-change-me-0123456789";

        public Properties {
            if (secret.getBytes(StandardCharsets.UTF_8).length < 32) {
                throw new IllegalArgumentException("perflab.security.hash.secret must be at least 32 bytes");
            }
        }

        boolean usesDevSecret() {
            return DEV_SECRET.equals(secret);
        }

        @Override
        public String toString() {
            return "KeyedHash.Properties[secret=******]";
        }
    }
}

package dev.perflab.support.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;


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

    private final SecretKeySpec key;

    KeyedHash(Properties properties) {
        this.key = new SecretKeySpec(properties.secret().getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    /**
     * The key's inner and outer HMAC pads in hex (RFC 2104: the key, hashed first if longer than SHA-256's 64-byte
     * block, zero-padded to 64 bytes, XOR 0x36 and XOR 0x5c), so that SQL can compute the same HMAC with SHA2() alone
     * over many rows: {@code SHA2(CONCAT(UNHEX(outer), UNHEX(SHA2(CONCAT(UNHEX(inner), message), 256))), 256)}.
     */
    public Pads pads() {
        byte[] raw = key.getEncoded();
        if (raw.length > 64) {
            try {
                raw = java.security.MessageDigest.getInstance("SHA-256").digest(raw);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }
        byte[] inner = new byte[64];
        byte[] outer = new byte[64];
        for (int i = 0; i < 64; i++) {
            byte b = i < raw.length ? raw[i] : 0;
            inner[i] = (byte) (b ^ 0x36);
            outer[i] = (byte) (b ^ 0x5c);
        }
        return new Pads(HexFormat.of().formatHex(inner), HexFormat.of().formatHex(outer));
    }

    /** HMAC pads in hex; they are as secret as the key. */
    public record Pads(String inner, String outer) {

        @Override
        public String toString() {
            return "Pads[******]";
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

    /** @param secret the HMAC key, at least 32 bytes; the default is for development only and
     *               {@link DevelopmentSecrets} refuses it */
    @ConfigurationProperties("perflab.security.hash")
    public record Properties(@DefaultValue(DEV_SECRET) String secret) {

        static final String DEV_SECRET = "perflab-dev-hash-secret-change-me-0123456789";

        public Properties {
            if (secret.getBytes(StandardCharsets.UTF_8).length < 32) {
                throw new IllegalArgumentException("perflab.security.hash.secret must be at least 32 bytes");
            }
        }

        @Override
        public String toString() {
            return "KeyedHash.Properties[secret=******]";
        }
    }
}

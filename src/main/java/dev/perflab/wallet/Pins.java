package dev.perflab.wallet;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The wallet PIN is stored as SHA-256("perflab-pin:" + memberId + ":" + pin), the same expression the seeder
 * writes with MariaDB's SHA2(). A real wallet would use a slow KDF and lock out after a few wrong PINs; here
 * the hash is deliberately cheap so that both variants pay the same few microseconds and the database is
 * what the benchmark measures.
 */
public final class Pins {

    private Pins() {
    }

    public static String hash(long memberId, String pin) {
        return sha256Hex("perflab-pin:" + memberId + ":" + pin);
    }

    public static boolean matches(long memberId, String pin, String storedHash) {
        return pin != null && MessageDigest.isEqual(hash(memberId, pin).getBytes(StandardCharsets.US_ASCII),
                storedHash.getBytes(StandardCharsets.US_ASCII));
    }

    static String sha256Hex(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

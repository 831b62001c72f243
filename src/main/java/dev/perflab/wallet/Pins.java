package dev.perflab.wallet;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import dev.perflab.support.security.KeyedHash;

import org.springframework.stereotype.Component;

/**
 * The wallet PIN is stored as HMAC-SHA256 under the server's hash secret ({@link KeyedHash}) of
 * SHA-256("perflab-pin:" + memberId + ":" + pin): a copy of the table without the secret gives no PIN back, while
 * 10,000 unkeyed hashes would give every one. The inner SHA-256 is the value stored before the key came in, so the
 * migration ({@code db.migrations.V6__Key_pin_hashes}) wraps existing rows without knowing their PINs; the seeder
 * writes the same in SQL. Deliberately cheap (no slow KDF): both variants pay the same few microseconds, and guessing is stopped
 * by {@link PinGuard}, not by the hash's cost.
 */
@Component
public class Pins {

    private final KeyedHash keyed;

    Pins(KeyedHash keyed) {
        this.keyed = keyed;
    }

    /** The stored form of this member's PIN: 64 lower-case hex digits. */
    public String hash(long memberId, String pin) {
        return keyed.hex(unkeyed(memberId, pin));
    }

    /** Compares in constant time. */
    public static boolean matches(String pinHash, String storedHash) {
        return pinHash != null && storedHash != null && MessageDigest.isEqual(pinHash.getBytes(StandardCharsets.US_ASCII),
                storedHash.getBytes(StandardCharsets.US_ASCII));
    }

    static String unkeyed(long memberId, String pin) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(("perflab-pin:" + memberId + ":" + pin).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

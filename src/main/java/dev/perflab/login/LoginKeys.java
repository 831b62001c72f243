package dev.perflab.login;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.text.Normalizer;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What {@link LoginGuard} counts a login under, before it is keyed. A login id is folded so that the spellings of
 * one account share one count: NFKC, without Unicode's default-ignorable code points (zero-width space, joiners, soft
 * hyphen, BOM, variation selectors, tags...), trimmed, lower case; otherwise {@code user1\u200B} would be another id
 * with its own tries. An IPv6 client counts per /64, the block a single subscriber is given, so that one client
 * cannot spray passwords from 2^64 addresses; an IPv4 client per address.
 */
final class LoginKeys {

    /** Unicode 16's Default_Ignorable_Code_Point (DerivedCoreProperties.txt); java.util.regex has no such property. */
    private static final Pattern IGNORABLE = Pattern.compile("[\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5"
            + "\\u180B-\\u180F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u206F\\u3164\\uFE00-\\uFE0F\\uFEFF\\uFFA0"
            + "\\uFFF0-\\uFFF8\\x{1BCA0}-\\x{1BCA3}\\x{1D173}-\\x{1D17A}\\x{E0000}-\\x{E0FFF}]");

    private LoginKeys() {
    }

    static String loginId(String loginId) {
        String folded = Normalizer.normalize(loginId, Normalizer.Form.NFKC);
        return IGNORABLE.matcher(folded).replaceAll("").strip().toLowerCase(Locale.ROOT);
    }

    /** The address, or its IPv6 /64 prefix ({@code 2001:db8:0:1::/64}); a string that is no IP literal as it is. */
    static String address(String address) {
        InetAddress parsed;
        try {
            parsed = InetAddress.ofLiteral(address.startsWith("[") && address.endsWith("]")
                    ? address.substring(1, address.length() - 1) : address);
        } catch (IllegalArgumentException e) {
            return address;
        }
        if (!(parsed instanceof Inet6Address)) {
            return parsed.getHostAddress();
        }
        byte[] prefix = java.util.Arrays.copyOf(parsed.getAddress(), 16);
        java.util.Arrays.fill(prefix, 8, 16, (byte) 0);
        return HexFormat.of().formatHex(prefix, 0, 8) + "::/64";
    }
}

package dev.perflab.support.parse;

/**
 * Index arithmetic over an HTTP header value for the lean parsers: where the value starts and ends without
 * the white space around it ({@link String#trim()}'s rule: any char up to U+0020), without allocating a
 * trimmed copy. Each method is a few dozen bytecode bytes, so C2 inlines it into its caller.
 */
public final class HeaderValues {

    private HeaderValues() {
    }

    /** The index after the last char of {@code s} above U+0020, 0 when there is none. */
    public static int end(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) <= ' ') {
            end--;
        }
        return end;
    }

    /** The index of the first char of {@code s} above U+0020, {@code end} when there is none before it. */
    public static int start(String s, int end) {
        int start = 0;
        while (start < end && s.charAt(start) <= ' ') {
            start++;
        }
        return start;
    }

    /** The index of the first char at or after {@code from} that is not a space, at most {@code end}. */
    public static int skipSpaces(String s, int from, int end) {
        int i = from;
        while (i < end && s.charAt(i) == ' ') {
            i++;
        }
        return i;
    }
}

package dev.perflab.route.after;

import java.nio.charset.StandardCharsets;

/** The small value that says which version the cached batches hold and how many there are: {@code "<version>:<count>"}. */
record Manifest(long version, int batches) {

    byte[] bytes() {
        return (version + ":" + batches).getBytes(StandardCharsets.US_ASCII);
    }

    /** The manifest in {@code bytes}, or null when it is missing or malformed. */
    static Manifest parse(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        String text = new String(bytes, StandardCharsets.US_ASCII);
        int colon = text.indexOf(':');
        try {
            int count = Integer.parseInt(text.substring(colon + 1));
            return colon > 0 && count > 0 ? new Manifest(Long.parseLong(text.substring(0, colon)), count) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}

package dev.perflab.support.interleave;

import java.util.Optional;

/**
 * The arm of the request this thread serves, set by {@link ArmFilter} in the interleaved mode: a feature whose
 * variants differ in a code path picks the path of the current arm. Empty outside that mode.
 */
public final class Arm {

    private static final ThreadLocal<String> CURRENT = new ThreadLocal<>();

    private Arm() {
    }

    public static Optional<String> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    static void set(String arm) {
        CURRENT.set(arm);
    }

    static void clear() {
        CURRENT.remove();
    }
}

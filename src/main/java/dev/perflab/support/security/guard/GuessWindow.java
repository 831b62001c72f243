package dev.perflab.support.security.guard;

import java.util.List;
import java.util.Optional;

/**
 * One secret's window as the fallback stores hold it ({@link LocalGuessStore}, {@link SqlGuessStore}): the tries
 * counted in it, when it ends, and until when tries are paused (epoch ms).
 */
record GuessWindow(long count, long windowEndMs, long blockedUntilMs) {

    /** As reserve.lua's: a window's tries all reserved, none of them known wrong yet, refuse for this long. */
    static final long BUSY_MS = 1_000;

    long expiresMs() {
        return Math.max(windowEndMs, blockedUntilMs);
    }

    /**
     * reserve.lua's rule for a store that has read every secret's window: the first secret that is paused refuses
     * the try until its pause ends; the first whose window's tries are all reserved refuses it as busy (ask again
     * within {@value #BUSY_MS} ms); else none does, and the try is counted in every window.
     */
    static Optional<Reservation.Refusal> refusal(List<Guess> guesses, List<GuessWindow> windows, long nowMs) {
        for (int i = 0; i < guesses.size(); i++) {
            GuessWindow window = windows.get(i);
            if (window.blockedUntilMs() > nowMs) {
                return Optional.of(new Reservation.Refusal(guesses.get(i), window.blockedUntilMs(), false));
            }
            if (window.count() >= guesses.get(i).policy().maxFailures()) { // tries being checked: ask again soon
                return Optional.of(new Reservation.Refusal(guesses.get(i),
                        Math.min(window.windowEndMs(), nowMs + BUSY_MS), true));
            }
        }
        return Optional.empty();
    }
}

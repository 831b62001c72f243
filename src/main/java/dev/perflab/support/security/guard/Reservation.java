package dev.perflab.support.security.guard;

import java.util.List;
import java.util.Optional;

/**
 * What {@link GuessCounter#reserve} answers: either a refusal (which secret, until when) or one try counted against
 * every secret, with each count and the end of its window, to be settled with {@link GuessCounter#failed} or
 * {@link GuessCounter#release}.
 *
 * @param local whether the try was counted in this instance's fallback ({@link LocalGuessStore}), not in Redis
 */
public record Reservation(List<Guess> guesses, List<Counted> counts, Optional<Refusal> refusal, boolean local) {

    /** The count a try got in one secret's window (1 for the window's first), and when the window ends. */
    public record Counted(long count, long windowEndMs) {
    }

    /**
     * The try is refused because of {@code guess} until {@code untilMs} (epoch ms); {@code busy}: not paused, but every
     * try the window has left is being checked now, so the answer may change as soon as one of them is settled.
     */
    public record Refusal(Guess guess, long untilMs, boolean busy) {
    }

    static Reservation refused(List<Guess> guesses, Refusal refusal, boolean local) {
        return new Reservation(guesses, List.of(), Optional.of(refusal), local);
    }

    boolean busy() {
        return refusal.map(Refusal::busy).orElse(false);
    }

    static Reservation counted(List<Guess> guesses, List<Counted> counts, boolean local) {
        return new Reservation(guesses, List.copyOf(counts), Optional.empty(), local);
    }

    /** Each secret's pause after this try turned out wrong, in ms from {@code nowMs} (0: none). */
    List<Long> pausesAfterFailure(long nowMs) {
        return java.util.stream.IntStream.range(0, counts.size()).mapToObj(i -> Math.max(0, guesses.get(i).policy()
                .blockedUntil((int) Math.min(Integer.MAX_VALUE, counts.get(i).count()), nowMs, counts.get(i).windowEndMs())
                - nowMs)).toList();
    }
}

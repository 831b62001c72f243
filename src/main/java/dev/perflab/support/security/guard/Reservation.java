package dev.perflab.support.security.guard;

import java.util.List;
import java.util.Optional;

/**
 * What {@link GuessCounter#reserve} answers: either a refusal (which secret, until when) or one try counted against
 * every secret, with each count and the end of its window, to be settled with {@link GuessCounter#failed} or
 * {@link GuessCounter#release}.
 *
 * @param store where the try was counted, and so where it is settled
 */
public record Reservation(List<Guess> guesses, List<Counted> counts, Optional<Refusal> refusal, Store store) {

    /**
     * Where a try is counted: in Redis, which every instance shares; while Redis does not answer, in MariaDB
     * ({@link SqlGuessStore}), shared too; while neither answers, in this instance only ({@link LocalGuessStore}).
     */
    public enum Store { REDIS, SHARED_SQL, LOCAL }

    /** The count a try got in one secret's window (1 for the window's first), and when the window ends. */
    public record Counted(long count, long windowEndMs) {
    }

    /**
     * The try is refused because of {@code guess} until {@code untilMs} (epoch ms); {@code busy}: not paused, but every
     * try the window has left is being checked now, so the answer may change as soon as one of them is settled.
     */
    public record Refusal(Guess guess, long untilMs, boolean busy) {
    }

    static Reservation refused(List<Guess> guesses, Refusal refusal, Store store) {
        return new Reservation(guesses, List.of(), Optional.of(refusal), store);
    }

    boolean busy() {
        return refusal.map(Refusal::busy).orElse(false);
    }

    static Reservation counted(List<Guess> guesses, List<Counted> counts, Store store) {
        return new Reservation(guesses, List.copyOf(counts), Optional.empty(), store);
    }

    /** Each secret's pause after this try turned out wrong, in ms from {@code nowMs} (0: none). */
    List<Long> pausesAfterFailure(long nowMs) {
        return java.util.stream.IntStream.range(0, counts.size()).mapToObj(i -> Math.max(0, guesses.get(i).policy()
                .blockedUntil((int) Math.min(Integer.MAX_VALUE, counts.get(i).count()), nowMs, counts.get(i).windowEndMs())
                - nowMs)).toList();
    }
}

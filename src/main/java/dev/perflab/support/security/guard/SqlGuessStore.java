package dev.perflab.support.security.guard;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The guards' counts in MariaDB's {@code guard_guess}, which every instance shares: {@link GuessCounter} uses it only
 * while Redis does not answer, so that guessing stays bounded by one policy across all instances, not once per
 * instance. A reserve is one transaction that locks each secret's row (in key order, so two reserves never deadlock),
 * starts a new window where the last one ended, refuses as reserve.lua does, else counts the try in every row. No
 * statement runs here while Redis answers, so a transfer's statements are unchanged. Throws Spring's
 * {@code DataAccessException} when MariaDB does not answer either; {@link GuessCounter} then counts in
 * {@link LocalGuessStore}.
 */
@Component
class SqlGuessStore {

    /** Every this many reserves, rows whose window and block have both ended are deleted (a bounded batch). */
    static final long SWEEP_EVERY = 64;
    static final int SWEEP_BATCH = 500;

    private static final String OPEN = """
            INSERT INTO guard_guess (guess_key, fails, window_end_ms, blocked_until_ms) VALUES (?, 0, ?, 0)
            ON DUPLICATE KEY UPDATE fails = IF(window_end_ms <= ?, 0, fails),
                                    window_end_ms = IF(window_end_ms <= ?, VALUES(window_end_ms), window_end_ms)""";
    private static final String READ =
            "SELECT fails, window_end_ms, blocked_until_ms FROM guard_guess WHERE guess_key = ? FOR UPDATE";

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transaction;
    private final AtomicLong reserves = new AtomicLong();

    SqlGuessStore(JdbcTemplate jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.transaction = new TransactionTemplate(transactions);
        this.transaction.setTimeout(2);
        // its own transaction even if a caller's is open: a count must not roll back with a wrong PIN's transfer
        this.transaction.setPropagationBehavior(TransactionTemplate.PROPAGATION_REQUIRES_NEW);
    }

    Reservation reserve(List<Guess> guesses, long nowMs) {
        if (reserves.incrementAndGet() % SWEEP_EVERY == 0) {
            transaction.executeWithoutResult(status -> jdbc.update(
                    "DELETE FROM guard_guess WHERE window_end_ms <= ? AND blocked_until_ms <= ? LIMIT " + SWEEP_BATCH,
                    nowMs, nowMs));
        }
        return transaction.execute(status -> reserveLocked(guesses, nowMs));
    }

    private Reservation reserveLocked(List<Guess> guesses, long nowMs) {
        List<Integer> inKeyOrder = IntStream.range(0, guesses.size()).boxed()
                .sorted(Comparator.comparing(i -> guesses.get(i).key())).toList();
        GuessWindow[] rows = new GuessWindow[guesses.size()];
        for (int i : inKeyOrder) {
            Guess guess = guesses.get(i);
            long windowEnd = nowMs + guess.policy().window().toMillis();
            jdbc.update(OPEN, guess.key(), windowEnd, nowMs, nowMs);
            rows[i] = jdbc.queryForObject(READ, (rs, n) ->
                    new GuessWindow(rs.getLong(1), rs.getLong(2), rs.getLong(3)), guess.key());
        }
        Optional<Reservation.Refusal> refusal = GuessWindow.refusal(guesses, List.of(rows), nowMs);
        if (refusal.isPresent()) {
            return Reservation.refused(guesses, refusal.get(), Reservation.Store.SHARED_SQL);
        }
        List<Reservation.Counted> counts = new ArrayList<>();
        for (int i = 0; i < guesses.size(); i++) {
            jdbc.update("UPDATE guard_guess SET fails = fails + 1 WHERE guess_key = ?", guesses.get(i).key());
            counts.add(new Reservation.Counted(rows[i].count() + 1, rows[i].windowEndMs()));
        }
        return Reservation.counted(guesses, counts, Reservation.Store.SHARED_SQL);
    }

    /** Each statement in a transaction of its own: the pool may hand out connections with auto-commit off. */
    void failed(Reservation reservation, long nowMs) {
        List<Long> pauses = reservation.pausesAfterFailure(nowMs);
        transaction.executeWithoutResult(status -> {
            for (int i = 0; i < pauses.size(); i++) {
                if (pauses.get(i) > 0) {
                    jdbc.update("UPDATE guard_guess SET blocked_until_ms = GREATEST(blocked_until_ms, ?) "
                            + "WHERE guess_key = ?", nowMs + pauses.get(i), reservation.guesses().get(i).key());
                }
            }
        });
    }

    void release(Reservation reservation) {
        transaction.executeWithoutResult(status -> reservation.guesses().forEach(guess -> jdbc.update(
                "UPDATE guard_guess SET fails = fails - 1 WHERE guess_key = ? AND fails > 0", guess.key())));
    }
}

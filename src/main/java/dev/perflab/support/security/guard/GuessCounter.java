package dev.perflab.support.security.guard;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.stereotype.Component;

/**
 * Reserve, then verify: a try of a guessable secret is counted ({@link #reserve}) before the secret is checked, and
 * refused when the secret is paused or its window's tries are used up; a wrong secret then pauses further tries
 * ({@link #failed}), a right one (or one never checked) hands its try back ({@link #release}). So tries sent at once
 * are checked at most {@code max-failures} per window, whatever the concurrency. Counted in Redis
 * ({@link RedisGuessStore}), shared by every instance; while Redis is unreachable (an error, or within
 * {@value #SKIP_MS} ms of one) in MariaDB ({@link SqlGuessStore}), shared by every instance too, so one policy bounds
 * guessing across all of them; while MariaDB does not answer either, in this instance's {@link LocalGuessStore}: never
 * let through uncounted. No SQL while Redis answers.
 *
 * <p>A Redis command that times out is not Redis gone: the script may have counted the try, and other instances still
 * count in Redis. Counting that try in MariaDB would start a second count beside Redis's (120 guesses at once behind
 * three instances were checked 10 times, not 5, when one instance's reserve timed out under the burst). So a timeout
 * refuses that try as busy (asked again, then 429), and only timeouts that go on for {@value #SKIP_MS} ms move this
 * instance to MariaDB, as an error that says Redis is unreachable does at once. While a burst waits for busy places
 * it asks again after {@value #BUSY_POLL_MS} ms, doubling up to {@value #BUSY_POLL_MAX_MS} ms, so that the waiting
 * tries do not themselves load Redis past its timeout. {@code perflab_guard_failures_total{guard}},
 * {@code perflab_guard_refusals_total{guard}}; the fallback's use shows only to the admin, in
 * {@code /actuator/health}'s {@code guards} ({@link GuardsHealth}).
 */
@Component
public class GuessCounter {

    private static final Logger log = LoggerFactory.getLogger(GuessCounter.class);
    static final long SKIP_MS = 5_000;
    static final long BUSY_WAIT_MS = 2_000;
    static final long BUSY_POLL_MS = 10;
    static final long BUSY_POLL_MAX_MS = 80;
    static final long TIMEOUT_RETRY_MS = 1_000;

    private final RedisGuessStore redis;
    private final SqlGuessStore sql;
    private final LocalGuessStore local;
    private final GuardMetrics metrics;
    private final AtomicLong skipUntil = new AtomicLong();
    private final AtomicLong sqlSkipUntil = new AtomicLong();
    private final LongAdder fallbacks = new LongAdder();
    private final LongAdder localFallbacks = new LongAdder();
    private final AtomicLong timingOutSince = new AtomicLong(); // the first Redis timeout of the current run of them
    private final LongSupplier clock;

    @Autowired
    GuessCounter(RedisGuessStore redis, SqlGuessStore sql, LocalGuessStore local, GuardMetrics metrics) {
        this(redis, sql, local, metrics, System::currentTimeMillis);
    }

    GuessCounter(RedisGuessStore redis, SqlGuessStore sql, LocalGuessStore local, GuardMetrics metrics, LongSupplier clock) {
        this.redis = redis;
        this.sql = sql;
        this.local = local;
        this.metrics = metrics;
        this.clock = clock;
    }

    /**
     * Counts one try of every secret at once, or refuses it (counted in {@code perflab_guard_refusals_total}). While
     * the window's last places are held by tries being checked (a member's own concurrent transfers, or a burst of
     * guesses), it asks again every {@value #BUSY_POLL_MS} ms for up to {@value #BUSY_WAIT_MS} ms: a right try hands
     * its place back within milliseconds, a wrong one pauses the secret, and either settles the answer.
     */
    public Reservation reserve(List<Guess> guesses) {
        long deadline = clock.getAsLong() + BUSY_WAIT_MS;
        Reservation reservation = reserveIn(guesses, clock.getAsLong());
        long poll = BUSY_POLL_MS;
        while (reservation.busy() && clock.getAsLong() < deadline && pause(poll)) {
            reservation = reserveIn(guesses, clock.getAsLong());
            poll = Math.min(2 * poll, BUSY_POLL_MAX_MS);
        }
        reservation.refusal().ifPresent(refusal -> metrics.refused(refusal.guess().guard()));
        return reservation;
    }

    /** {@link #reserve}, throwing 429 {@code code} (with {@code Retry-After}) when the try is refused. */
    public Reservation reserveOrRefuse(List<Guess> guesses, String code, String detail) {
        long now = clock.getAsLong();
        Reservation reservation = reserve(guesses);
        reservation.refusal().ifPresent(refusal -> {
            throw new TooManyFailuresException(code, detail, refusal.untilMs(), now);
        });
        return reservation;
    }

    /** {@link #failed} when the secret was wrong, else {@link #release}. */
    public void settle(Reservation reservation, boolean wrong) {
        if (wrong) {
            failed(reservation);
        } else {
            release(reservation);
        }
    }

    private static boolean pause(long ms) {
        try {
            Thread.sleep(ms);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The reserved try was wrong: it stays counted, and pauses the next tries as the policies say. */
    public void failed(Reservation reservation) {
        if (reservation.refusal().isPresent()) {
            return;
        }
        reservation.guesses().forEach(guess -> metrics.failed(guess.guard()));
        long now = clock.getAsLong();
        try {
            switch (reservation.store()) {
                case REDIS -> redis.failed(reservation, now);
                case SHARED_SQL -> sql.failed(reservation, now);
                case LOCAL -> local.failed(reservation, now);
            }
        } catch (DataAccessException e) {
            storeFailed(reservation.store(), e); // the try is counted already; only its pause is lost
        }
    }

    /** The reserved try was right, or never checked: it is handed back. */
    public void release(Reservation reservation) {
        if (reservation.refusal().isPresent()) {
            return;
        }
        try {
            switch (reservation.store()) {
                case REDIS -> redis.release(reservation);
                case SHARED_SQL -> sql.release(reservation);
                case LOCAL -> local.release(reservation, clock.getAsLong());
            }
        } catch (DataAccessException e) {
            storeFailed(reservation.store(), e); // the try stays counted: on the safe side
        }
    }

    /** Where tries are counted now: in Redis, else in MariaDB, else in this instance only. */
    public Reservation.Store store() {
        long now = clock.getAsLong();
        if (now >= skipUntil.get()) {
            return Reservation.Store.REDIS;
        }
        return now >= sqlSkipUntil.get() ? Reservation.Store.SHARED_SQL : Reservation.Store.LOCAL;
    }

    /** How many tries were counted outside Redis (in MariaDB or locally) because Redis did not answer, since startup. */
    public long fallbacks() {
        return fallbacks.sum();
    }

    /** How many of those were counted in this instance only, because MariaDB did not answer either. */
    public long localFallbacks() {
        return localFallbacks.sum();
    }

    private Reservation reserveIn(List<Guess> guesses, long now) {
        Reservation.Store store = store();
        if (store == Reservation.Store.REDIS) {
            try {
                Reservation reservation = redis.reserve(guesses, now);
                if (timingOutSince.get() != 0) {
                    timingOutSince.set(0); // read first: no write to the shared counter on every transfer's reserve
                }
                return reservation;
            } catch (QueryTimeoutException e) {
                long since = timingOutSince.updateAndGet(first -> first == 0 ? now : first);
                if (now - since < SKIP_MS) {
                    return Reservation.refused(guesses, new Reservation.Refusal(guesses.getFirst(), now + TIMEOUT_RETRY_MS, true),
                            Reservation.Store.REDIS);
                }
                timingOutSince.set(0);
                storeFailed(store, e);
                store = store();
            } catch (DataAccessException e) {
                storeFailed(store, e);
                store = store();
            }
        }
        fallbacks.increment();
        if (store == Reservation.Store.SHARED_SQL) {
            try {
                return sql.reserve(guesses, now);
            } catch (DataAccessException e) {
                storeFailed(store, e);
            }
        }
        localFallbacks.increment();
        return local.reserve(guesses, now);
    }

    /** Redis or MariaDB did not answer: skip it for {@value #SKIP_MS} ms (this instance's store never throws this). */
    private void storeFailed(Reservation.Store store, DataAccessException e) {
        AtomicLong skip = store == Reservation.Store.REDIS ? skipUntil : sqlSkipUntil;
        long previous = skip.getAndSet(clock.getAsLong() + SKIP_MS);
        if (previous == 0 || clock.getAsLong() - previous > 60_000) {
            log.warn("guess guards: {} is unreachable ({}); tries are counted in {} for now",
                    store == Reservation.Store.REDIS ? "Redis" : "MariaDB", e.toString(),
                    store == Reservation.Store.REDIS ? "MariaDB, shared by every instance" : "this instance only");
        }
    }
}

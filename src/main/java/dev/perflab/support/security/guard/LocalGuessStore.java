package dev.perflab.support.security.guard;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;

import org.springframework.stereotype.Component;

/**
 * This instance's own counts, used by {@link GuessCounter} while Redis is unreachable, so that guessing stays bounded
 * (by the same policies, per instance) instead of unlimited. Bounded in memory ({@value #MAX_KEYS} keys, each gone
 * when its window and block end); one lock, since it only serves while Redis is down. Counts made here are not
 * carried to Redis when it returns. {@code perflab_guard_failures_total} counts the wrong guesses either way;
 * the admin's {@code /actuator/health} shows under {@code guards} whether this store is in use.
 */
@Component
class LocalGuessStore {

    static final long MAX_KEYS = 100_000;
    /** As reserve.lua's: a window's tries all reserved, none of them known wrong yet, refuse for this long. */
    static final long BUSY_MS = 1_000;

    /** One key's window: its count, when the window ends, and until when tries are paused (epoch ms). */
    private record Entry(long count, long windowEndMs, long blockedUntilMs) {

        long expiresMs() {
            return Math.max(windowEndMs, blockedUntilMs);
        }
    }

    private final Cache<String, Entry> entries = Caffeine.newBuilder().maximumSize(MAX_KEYS)
            .expireAfter(Expiry.<String, Entry>writing((key, entry) ->
                    Duration.ofMillis(Math.max(1, entry.expiresMs() - System.currentTimeMillis()))))
            .build();

    synchronized Reservation reserve(List<Guess> guesses, long nowMs) {
        List<Entry> current = guesses.stream().map(guess -> live(guess, nowMs)).toList();
        for (int i = 0; i < guesses.size(); i++) {
            Entry entry = current.get(i);
            if (entry.blockedUntilMs() > nowMs) {
                return Reservation.refused(guesses, new Reservation.Refusal(guesses.get(i), entry.blockedUntilMs(), false), Reservation.Store.LOCAL);
            }
            if (entry.count() >= guesses.get(i).policy().maxFailures()) { // tries being checked: ask again soon
                return Reservation.refused(guesses, new Reservation.Refusal(guesses.get(i),
                        Math.min(entry.windowEndMs(), nowMs + BUSY_MS), true), Reservation.Store.LOCAL);
            }
        }
        List<Reservation.Counted> counts = new ArrayList<>();
        for (int i = 0; i < guesses.size(); i++) {
            Entry entry = current.get(i);
            Entry counted = new Entry(entry.count() + 1, entry.windowEndMs(), entry.blockedUntilMs());
            entries.put(guesses.get(i).key(), counted);
            counts.add(new Reservation.Counted(counted.count(), counted.windowEndMs()));
        }
        return Reservation.counted(guesses, counts, Reservation.Store.LOCAL);
    }

    synchronized void failed(Reservation reservation, long nowMs) {
        List<Long> pauses = reservation.pausesAfterFailure(nowMs);
        for (int i = 0; i < pauses.size(); i++) {
            Guess guess = reservation.guesses().get(i);
            Entry entry = live(guess, nowMs);
            long until = nowMs + pauses.get(i);
            if (until > entry.blockedUntilMs()) {
                entries.put(guess.key(), new Entry(entry.count(), entry.windowEndMs(), until));
            }
        }
    }

    synchronized void release(Reservation reservation, long nowMs) {
        for (Guess guess : reservation.guesses()) {
            Entry entry = live(guess, nowMs);
            if (entry.count() > 0) {
                entries.put(guess.key(), new Entry(entry.count() - 1, entry.windowEndMs(), entry.blockedUntilMs()));
            }
        }
    }

    /** The key's entry, or a fresh window starting now when it has none or its window has ended. */
    private Entry live(Guess guess, long nowMs) {
        Entry entry = entries.getIfPresent(guess.key());
        if (entry == null || entry.windowEndMs() <= nowMs) {
            long blocked = entry == null ? 0 : entry.blockedUntilMs();
            return new Entry(0, nowMs + guess.policy().window().toMillis(), blocked);
        }
        return entry;
    }
}

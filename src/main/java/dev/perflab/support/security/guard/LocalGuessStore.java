package dev.perflab.support.security.guard;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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

    private final Cache<String, GuessWindow> entries = Caffeine.newBuilder().maximumSize(MAX_KEYS)
            .expireAfter(Expiry.<String, GuessWindow>writing((key, entry) ->
                    Duration.ofMillis(Math.max(1, entry.expiresMs() - System.currentTimeMillis()))))
            .build();

    synchronized Reservation reserve(List<Guess> guesses, long nowMs) {
        List<GuessWindow> current = guesses.stream().map(guess -> live(guess, nowMs)).toList();
        Optional<Reservation.Refusal> refusal = GuessWindow.refusal(guesses, current, nowMs);
        if (refusal.isPresent()) {
            return Reservation.refused(guesses, refusal.get(), Reservation.Store.LOCAL);
        }
        List<Reservation.Counted> counts = new ArrayList<>();
        for (int i = 0; i < guesses.size(); i++) {
            GuessWindow entry = current.get(i);
            GuessWindow counted = new GuessWindow(entry.count() + 1, entry.windowEndMs(), entry.blockedUntilMs());
            entries.put(guesses.get(i).key(), counted);
            counts.add(new Reservation.Counted(counted.count(), counted.windowEndMs()));
        }
        return Reservation.counted(guesses, counts, Reservation.Store.LOCAL);
    }

    synchronized void failed(Reservation reservation, long nowMs) {
        List<Long> pauses = reservation.pausesAfterFailure(nowMs);
        for (int i = 0; i < pauses.size(); i++) {
            Guess guess = reservation.guesses().get(i);
            GuessWindow entry = live(guess, nowMs);
            long until = nowMs + pauses.get(i);
            if (until > entry.blockedUntilMs()) {
                entries.put(guess.key(), new GuessWindow(entry.count(), entry.windowEndMs(), until));
            }
        }
    }

    synchronized void release(Reservation reservation, long nowMs) {
        for (Guess guess : reservation.guesses()) {
            GuessWindow entry = live(guess, nowMs);
            if (entry.count() > 0) {
                entries.put(guess.key(), new GuessWindow(entry.count() - 1, entry.windowEndMs(), entry.blockedUntilMs()));
            }
        }
    }

    /** The key's entry, or a fresh window starting now when it has none or its window has ended. */
    private GuessWindow live(Guess guess, long nowMs) {
        GuessWindow entry = entries.getIfPresent(guess.key());
        if (entry == null || entry.windowEndMs() <= nowMs) {
            long blocked = entry == null ? 0 : entry.blockedUntilMs();
            return new GuessWindow(0, nowMs + guess.policy().window().toMillis(), blocked);
        }
        return entry;
    }
}

package dev.perflab.support.security.guard;

import java.util.ArrayList;
import java.util.List;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * The guards' counts in Redis, which every instance shares: {@code guess:<key>:fails} counts a window's tries (given
 * its window in the same script that counts it, so it always expires) and {@code guess:<key>:block} pauses tries
 * until it expires. Each step is one Lua script (guard/*.lua), so a burst of tries sent at once is counted one by one
 * and refused past the limit, whatever the concurrency and however many instances. Throws Spring's
 * {@code DataAccessException} when Redis does not answer; {@link GuessCounter} then falls back.
 */
@Component
class RedisGuessStore {

    private static final RedisScript<List> RESERVE = script("reserve", List.class);
    private static final RedisScript<Long> BLOCK = script("block", Long.class);
    private static final RedisScript<Long> RELEASE = script("release", Long.class);

    private final StringRedisTemplate redis;

    RedisGuessStore(StringRedisTemplate redis) {
        this.redis = redis;
    }

    Reservation reserve(List<Guess> guesses, long nowMs) {
        List<String> keys = new ArrayList<>();
        List<String> args = new ArrayList<>();
        for (Guess guess : guesses) {
            keys.add(fails(guess));
            keys.add(block(guess));
            args.add(Integer.toString(guess.policy().maxFailures()));
            args.add(Long.toString(guess.policy().window().toMillis()));
        }
        List<?> reply = redis.execute(RESERVE, keys, args.toArray());
        if (reply == null || reply.isEmpty()) {
            throw new IllegalStateException("the guard's reserve script answered nothing");
        }
        if (number(reply.get(0)) == 0) {
            Guess refusedBy = guesses.get((int) number(reply.get(1)) - 1);
            return Reservation.refused(guesses,
                    new Reservation.Refusal(refusedBy, nowMs + number(reply.get(2)), number(reply.get(3)) == 1), Reservation.Store.REDIS);
        }
        List<Reservation.Counted> counts = new ArrayList<>();
        for (int i = 0; i < guesses.size(); i++) {
            counts.add(new Reservation.Counted(number(reply.get(1 + 2 * i)), nowMs + number(reply.get(2 + 2 * i))));
        }
        return Reservation.counted(guesses, counts, Reservation.Store.REDIS);
    }

    void failed(Reservation reservation, long nowMs) {
        List<Long> pauses = reservation.pausesAfterFailure(nowMs);
        if (pauses.stream().allMatch(pause -> pause == 0)) {
            return; // a free failure: the reserved count is the whole record of it
        }
        redis.execute(BLOCK, reservation.guesses().stream().map(RedisGuessStore::block).toList(),
                pauses.stream().map(String::valueOf).toArray());
    }

    void release(Reservation reservation) {
        redis.execute(RELEASE, reservation.guesses().stream().map(RedisGuessStore::fails).toList());
    }

    static String fails(Guess guess) {
        return "guess:" + guess.key() + ":fails";
    }

    static String block(Guess guess) {
        return "guess:" + guess.key() + ":block";
    }

    private static long number(Object reply) {
        return ((Number) reply).longValue();
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static <T> RedisScript<T> script(String name, Class<? super T> type) {
        return (RedisScript<T>) RedisScript.of(new ClassPathResource("guard/" + name + ".lua"), (Class) type);
    }
}

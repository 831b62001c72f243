package dev.perflab.support.parse;

import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import dev.perflab.support.parse.after.LeanBearerTokenResolver;
import dev.perflab.support.parse.after.LeanIdempotencyKeyParser;
import dev.perflab.support.parse.before.NaiveBearerTokenResolver;
import dev.perflab.support.parse.before.NaiveIdempotencyKeyParser;

/**
 * Both header parsers of {@code perflab.parse.header}, naive and lean, on the values a transfer request
 * carries: {@code Authorization: Bearer} with a real 179-character HS256 token, and an {@code Idempotency-Key}
 * in lower case (as {@code UUID.randomUUID().toString()} writes it) and in upper case. With {@code -prof gc},
 * {@code gc.alloc.rate.norm} is the bytes each parse allocates; docs/parsing.md turns them into objects.
 * Run: {@code ./mvnw -B -q -Pjmh test-compile exec:exec -Djmh.args="HeaderParsingBenchmark -prof gc"}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class HeaderParsingBenchmark {

    // fields, not constants, so that the JIT cannot fold the parse away
    private String authorization = SampleHeaders.AUTHORIZATION;
    private String key = SampleHeaders.IDEMPOTENCY_KEY;
    private String upperCaseKey = SampleHeaders.IDEMPOTENCY_KEY.toUpperCase();
    private final NaiveIdempotencyKeyParser naiveKeys = new NaiveIdempotencyKeyParser();
    private final LeanIdempotencyKeyParser leanKeys = new LeanIdempotencyKeyParser();

    @Benchmark
    public String bearerNaive() {
        return NaiveBearerTokenResolver.parse(authorization);
    }

    @Benchmark
    public String bearerLean() {
        return LeanBearerTokenResolver.parse(authorization);
    }

    @Benchmark
    public UUID keyNaive() {
        return naiveKeys.parse(key);
    }

    @Benchmark
    public UUID keyLean() {
        return leanKeys.parse(key);
    }

    @Benchmark
    public UUID upperCaseKeyNaive() {
        return naiveKeys.parse(upperCaseKey);
    }

    @Benchmark
    public UUID upperCaseKeyLean() {
        return leanKeys.parse(upperCaseKey);
    }
}

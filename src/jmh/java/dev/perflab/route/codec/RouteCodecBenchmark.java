package dev.perflab.route.codec;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import dev.perflab.route.CautionFactor;
import dev.perflab.route.DangerFactor;
import dev.perflab.route.LightNode;
import dev.perflab.route.LightRoute;
import dev.perflab.route.RouteBatch;
import dev.perflab.route.RouteCodec;

/**
 * Encode and decode of one 2,500-route batch (seed 001's batch size) by each codec, on data shaped like the
 * seeder's (full-precision coordinates, ~8% of routes with caution factors). Bytes per batch are printed at setup.
 * Run: {@code ./mvnw -Pjmh -q test-compile exec:exec} (add {@code -Djmh.args="-prof gc"} for allocation).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime) // the median of sampled calls holds up on a shared, busy machine; the mean does not
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "--sun-misc-unsafe-memory-access=allow"})
public class RouteCodecBenchmark {

    @Param({"jackson", "fastjson2", "fastjson2-jsonb", "fory"})
    public String codec;

    private RouteCodec routeCodec;
    private RouteBatch batch;
    private byte[] bytes;

    @Setup(Level.Trial)
    public void setUp() {
        routeCodec = switch (codec) {
            case "jackson" -> new JacksonRouteCodec();
            case "fastjson2" -> new Fastjson2RouteCodec();
            case "fastjson2-jsonb" -> new Fastjson2JsonbRouteCodec();
            case "fory" -> new ForyRouteCodec();
            default -> throw new IllegalArgumentException(codec);
        };
        batch = realisticBatch(2500);
        bytes = routeCodec.encode(batch);
        if (!routeCodec.decode(bytes).equals(batch)) {
            throw new IllegalStateException(codec + " does not round-trip");
        }
        System.out.printf("%n[bytes] codec=%s routes=%d bytes=%d%n", codec, batch.routes().size(), bytes.length);
    }

    @Benchmark
    public RouteBatch decode() {
        return routeCodec.decode(bytes);
    }

    @Benchmark
    public byte[] encode() {
        return routeCodec.encode(batch);
    }

    static RouteBatch realisticBatch(int size) {
        Random random = new Random(42);
        CautionFactor[] cautions = CautionFactor.values();
        List<LightRoute> routes = new ArrayList<>(size);
        long nodeId = 10_001_600;
        double lat = 37.500031978185554;
        double lng = 126.99994002808575;
        LightNode previous = new LightNode(nodeId, lat, lng);
        for (int i = 0; i < size; i++) {
            lat += (random.nextDouble() - 0.5) * 5e-5;
            lng += (random.nextDouble() - 0.5) * 5e-5;
            LightNode next = new LightNode(++nodeId, lat, lng);
            List<CautionFactor> caution = random.nextDouble() < 0.08 ? List.of(cautions[random.nextInt(cautions.length)]) : List.of();
            List<DangerFactor> danger = random.nextDouble() < 0.03 ? List.of(DangerFactor.STAIRS) : List.of();
            routes.add(new LightRoute(10_000_001L + i, 1 + random.nextDouble() * 4, previous, next, caution, danger));
            previous = next;
        }
        return new RouteBatch(1, 2, 0, routes);
    }
}

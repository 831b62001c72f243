package dev.perflab.route.after;

import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The route cache's mechanism metrics: codec time per batch and per request, bytes per key and per request,
 * and what each request got from the cache (hit, miss, degraded) and how many values were corrupt.
 */
final class RouteCacheMetrics {

    private final Timer decodeBatch;
    private final Timer encodeBatch;
    private final Timer decodeRequest;
    private final DistributionSummary keyBytes;
    private final DistributionSummary requestBytes;
    private final Counter hit;
    private final Counter miss;
    private final Counter degraded;
    private final Counter corrupt;
    private final Counter rejected;

    RouteCacheMetrics(MeterRegistry registry, String codec) {
        decodeBatch = codecTimer(registry, codec, "decode", "batch");
        encodeBatch = codecTimer(registry, codec, "encode", "batch");
        decodeRequest = codecTimer(registry, codec, "decode", "request");
        keyBytes = bytes(registry, codec, "key");
        requestBytes = bytes(registry, codec, "request");
        hit = result(registry, "hit");
        miss = result(registry, "miss");
        degraded = result(registry, "degraded");
        corrupt = Counter.builder("perflab.route.cache.corrupt").tag("codec", codec)
                .description("cached route values that could not be decoded; each was evicted and reloaded")
                .register(registry);
        rejected = Counter.builder("perflab.route.cache.rejected").tag("codec", codec)
                .description("cached route values refused before decoding (a manifest malformed or out of bounds, "
                        + "a value too large); each is a miss served from the database")
                .register(registry);
    }

    <T> T decodeBatch(Supplier<T> decode) {
        return decodeBatch.record(decode);
    }

    byte[] encodeBatch(Supplier<byte[]> encode) {
        byte[] bytes = encodeBatch.record(encode);
        keyBytes.record(bytes.length);
        return bytes;
    }

    void decodedRequest(long nanos, long bytes) {
        decodeRequest.record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
        requestBytes.record(bytes);
    }

    void hit() {
        hit.increment();
    }

    void miss() {
        miss.increment();
    }

    void degraded() {
        degraded.increment();
    }

    void rejected() {
        rejected.increment();
    }

    void corrupt() {
        corrupt.increment();
    }

    private static Timer codecTimer(MeterRegistry registry, String codec, String op, String scope) {
        return Timer.builder("perflab.route.codec").description("route codec time, per cached batch or per request")
                .tags("codec", codec, "op", op, "scope", scope).publishPercentileHistogram().register(registry);
    }

    private static DistributionSummary bytes(MeterRegistry registry, String codec, String scope) {
        return DistributionSummary.builder("perflab.route.cache.bytes").baseUnit("bytes")
                .description("encoded route bytes per Redis key or per request").tags("codec", codec, "scope", scope)
                .register(registry);
    }

    private static Counter result(MeterRegistry registry, String result) {
        return Counter.builder("perflab.route.cache.requests").tag("result", result)
                .description("route requests by what the cache gave them").register(registry);
    }
}

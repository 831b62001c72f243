package dev.perflab.route.codec;

import org.apache.fory.Fory;
import org.apache.fory.ThreadSafeFory;
import org.apache.fory.config.Language;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

import dev.perflab.route.CautionFactor;
import dev.perflab.route.DangerFactor;
import dev.perflab.route.LightNode;
import dev.perflab.route.LightRoute;
import dev.perflab.route.RouteBatch;
import dev.perflab.route.RouteCodec;

/**
 * {@code codec=fory}: Apache Fory's binary format with generated serializers. The fastest and smallest: no field
 * names, no text, compressed numbers ({@code perflab_route_codec_seconds{codec="fory"}},
 * {@code perflab_route_cache_bytes}). Safe: class registration is required, so a value naming any class outside
 * the five registered route types is rejected before it is loaded.
 */
@Component
@ConditionalOnProperty(name = "perflab.route.codec", havingValue = "fory")
public class ForyRouteCodec implements RouteCodec {

    private final ThreadSafeFory fory;

    public ForyRouteCodec() {
        this.fory = Fory.builder()
                .withLanguage(Language.JAVA)
                .requireClassRegistration(true)
                .withRefTracking(false)
                .withNumberCompressed(true)
                .buildThreadSafeForyPool(Math.max(4, Runtime.getRuntime().availableProcessors() * 4));
        fory.register(RouteBatch.class);
        fory.register(LightRoute.class);
        fory.register(LightNode.class);
        fory.register(CautionFactor.class);
        fory.register(DangerFactor.class);
    }

    @Override
    public String name() {
        return "fory";
    }

    @Override
    public byte[] encode(RouteBatch batch) {
        return fory.serialize(batch);
    }

    @Override
    public RouteBatch decode(byte[] bytes) {
        // untyped on purpose: the typed read trusts the caller's class and skips the root's registered type check
        return Decoding.guard(name(), () -> fory.deserialize(bytes));
    }
}

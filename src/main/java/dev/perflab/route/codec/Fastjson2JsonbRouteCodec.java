package dev.perflab.route.codec;

import com.alibaba.fastjson2.JSONB;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

import dev.perflab.route.RouteBatch;
import dev.perflab.route.RouteCodec;

/**
 * {@code codec=fastjson2-jsonb}: fastjson2's binary JSONB. Faster than JSON because numbers are stored binary
 * (no text to parse) and the value is smaller: {@code perflab_route_codec_seconds{codec="fastjson2-jsonb"}} and
 * {@code perflab_route_cache_bytes}. Written without type names and read for {@link RouteBatch} only.
 */
@Component
@ConditionalOnProperty(name = "perflab.route.codec", havingValue = "fastjson2-jsonb")
public class Fastjson2JsonbRouteCodec implements RouteCodec {

    @Override
    public String name() {
        return "fastjson2-jsonb";
    }

    @Override
    public byte[] encode(RouteBatch batch) {
        return JSONB.toBytes(batch);
    }

    @Override
    public RouteBatch decode(byte[] bytes) {
        return Decoding.guard(name(), () -> JSONB.parseObject(bytes, RouteBatch.class, Fastjson2Safety.READ_FEATURES));
    }
}

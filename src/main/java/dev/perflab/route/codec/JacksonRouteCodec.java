package dev.perflab.route.codec;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

import dev.perflab.route.RouteBatch;
import dev.perflab.route.RouteCodec;

/**
 * {@code codec=jackson}, the seed's starting point: Jackson 3 JSON. Slow to decode big batches because it binds
 * through general-purpose, reflection-driven deserializers (the seed measured 692 of 730 ms in it):
 * {@code perflab_route_codec_seconds{codec="jackson",op="decode"}}. Safe: its own mapper, no default typing,
 * a reader bound to {@link RouteBatch} only, unknown properties (such as {@code @class}) rejected.
 */
@Component
@ConditionalOnProperty(name = "perflab.route.codec", havingValue = "jackson", matchIfMissing = true)
public class JacksonRouteCodec implements RouteCodec {

    private final ObjectReader reader;
    private final ObjectWriter writer;

    public JacksonRouteCodec() {
        JsonMapper mapper = JsonMapper.builder()
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .build();
        this.reader = mapper.readerFor(RouteBatch.class);
        this.writer = mapper.writerFor(RouteBatch.class);
    }

    @Override
    public String name() {
        return "jackson";
    }

    @Override
    public byte[] encode(RouteBatch batch) {
        return writer.writeValueAsBytes(batch);
    }

    @Override
    public RouteBatch decode(byte[] bytes) {
        return Decoding.guard(name(), () -> reader.readValue(bytes));
    }
}

package dev.perflab.route;

/**
 * Encodes and decodes one {@link RouteBatch} for Redis. Implementations are safe by construction: they read
 * only the route batch type, with no polymorphic typing, no {@code @type}/AutoType and no default typing.
 */
public interface RouteCodec {

    /** The knob value this codec answers to, e.g. {@code fastjson2-jsonb}. */
    String name();

    byte[] encode(RouteBatch batch);

    /** @throws RouteCodecException when the bytes are not a route batch of this codec */
    RouteBatch decode(byte[] bytes);
}

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

    /**
     * Decodes the value stored as batch {@code index} of university {@code univId} and checks that it is one:
     * lenient readers (fastjson2 ignores unknown properties, {@code @type} included, when it binds a record) turn
     * foreign JSON into an empty-looking batch, which must count as corrupt rather than as routes.
     *
     * @throws RouteCodecException when the bytes are not that batch
     */
    default RouteBatch decode(byte[] bytes, long univId, int index) {
        RouteBatch batch = decode(bytes);
        if (batch.univId() != univId || batch.index() != index || !RouteBatch.wellFormed(batch)) {
            throw new RouteCodecException(name(), new IllegalArgumentException(
                    "not a well-formed batch " + index + " of university " + univId));
        }
        return batch;
    }
}

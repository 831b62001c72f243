package dev.perflab.route.codec;

import java.util.function.Supplier;

import dev.perflab.route.RouteBatch;
import dev.perflab.route.RouteCodecException;

/** What every codec does around its own read: no result or any failure becomes a {@link RouteCodecException}. */
final class Decoding {

    private Decoding() {
    }

    static RouteBatch guard(String codec, Supplier<?> reader) {
        try {
            if (reader.get() instanceof RouteBatch batch) {
                return batch;
            }
            throw new IllegalArgumentException("not a route batch");
        } catch (RuntimeException e) {
            throw new RouteCodecException(codec, e);
        }
    }
}

package dev.perflab.route.codec;

import java.util.function.Supplier;

import dev.perflab.route.RouteBatch;
import dev.perflab.route.RouteCodecException;

/**
 * What every codec does around its own read: no result or any failure becomes a {@link RouteCodecException}, also an
 * allocation that a size announced in the value made impossible (an {@code OutOfMemoryError} would otherwise escape
 * the cache's error handling and fail every route request).
 */
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
        } catch (OutOfMemoryError e) {
            // a size announced inside a (bounded) value that one allocation could not meet: nothing was allocated,
            // the value is corrupt like any other; the heap itself is not short
            throw new RouteCodecException(codec, new IllegalArgumentException("a size in the value is out of bounds", e));
        }
    }
}

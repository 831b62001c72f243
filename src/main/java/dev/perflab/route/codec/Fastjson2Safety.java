package dev.perflab.route.codec;

import java.util.function.Supplier;

import com.alibaba.fastjson2.JSONReader;

import dev.perflab.route.RouteBatch;
import dev.perflab.route.RouteCodecException;

/**
 * What both fastjson2 codecs share: AutoType is never enabled (no {@code SupportAutoType}); a {@code @type} or any
 * other unknown property, an unknown enum name or a null primitive is an error; every failure becomes a
 * {@link RouteCodecException}.
 */
final class Fastjson2Safety {

    static final JSONReader.Feature[] READ_FEATURES = {JSONReader.Feature.ErrorOnNotSupportAutoType,
            JSONReader.Feature.ErrorOnUnknownProperties, JSONReader.Feature.ErrorOnEnumNotMatch,
            JSONReader.Feature.ErrorOnNullForPrimitives};

    private Fastjson2Safety() {
    }

    static RouteBatch read(String codec, Supplier<RouteBatch> reader) {
        try {
            RouteBatch batch = reader.get();
            if (batch == null) {
                throw new IllegalArgumentException("empty value");
            }
            return batch;
        } catch (RuntimeException e) {
            throw new RouteCodecException(codec, e);
        }
    }
}

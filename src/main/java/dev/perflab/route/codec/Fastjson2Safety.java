package dev.perflab.route.codec;

import com.alibaba.fastjson2.JSONReader;

/**
 * The read features both fastjson2 codecs use: AutoType is never enabled (no {@code SupportAutoType}); a
 * {@code @type} is an error where fastjson2 checks it; so are unknown properties (on beans; fastjson2 ignores them
 * on records), unknown enum names and null primitives.
 */
final class Fastjson2Safety {

    static final JSONReader.Feature[] READ_FEATURES = {JSONReader.Feature.ErrorOnNotSupportAutoType,
            JSONReader.Feature.ErrorOnUnknownProperties, JSONReader.Feature.ErrorOnEnumNotMatch,
            JSONReader.Feature.ErrorOnNullForPrimitives};

    private Fastjson2Safety() {
    }
}

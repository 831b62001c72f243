package dev.perflab.support.json;

import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.type.LogicalType;

import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Request bodies are read as the OpenAPI description types them: a JSON number is not a string and a string is not
 * a number. Jackson's defaults coerce both ways ({@code "phone": -20339132468516} became the phone
 * {@code "-20339132468516"}, and {@code "amount": "10"} the amount 10), so a body the description calls invalid
 * was accepted. With coercion off such a body is a 400 {@code malformed-body}, like any other of the wrong shape.
 */
@Configuration(proxyBeanMethods = false)
class StrictJsonConfiguration {

    @Bean
    JsonMapperBuilderCustomizer noScalarCoercion() {
        return builder -> builder
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .withCoercionConfig(LogicalType.Textual, textual -> textual
                        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail));
    }
}

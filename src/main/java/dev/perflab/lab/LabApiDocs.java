package dev.perflab.lab;

import java.util.List;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.parameters.Parameter;

import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.stereotype.Component;

import dev.perflab.login.AuthApi;

/**
 * The slow dependency's {@code delayMs} in the OpenAPI description as the enum the controller checks
 * ({@link AuthApi#SLOW_DELAYS_MS}: the stub's delays), not any integer.
 */
@Component
class LabApiDocs implements OpenApiCustomizer {

    @Override
    public void customise(OpenAPI openApi) {
        PathItem dependency = openApi.getPaths().get("/api/lab/dependency");
        if (dependency == null || dependency.getGet() == null) {
            return;
        }
        for (Parameter parameter : dependency.getGet().getParameters()) {
            if (parameter.getName().equals("delayMs")) {
                IntegerSchema delays = new IntegerSchema();
                delays.setEnum(List.copyOf(AuthApi.SLOW_DELAYS_MS));
                delays.setDefault(parameter.getSchema().getDefault());
                parameter.setSchema(delays);
            }
        }
    }
}

package dev.perflab.route;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.BinarySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;

import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.stereotype.Component;

/**
 * The route answers in the OpenAPI description: the controllers write them to the response themselves (a
 * {@link RouteResponseWriter} streams the JSON, the ceiling harness copies cached bytes), so springdoc sees
 * {@code void} and would declare no body at all.
 */
@Component
class RouteApiDocs implements OpenApiCustomizer {

    @Override
    public void customise(OpenAPI openApi) {
        answer(openApi.getPaths().get("/api/universities/{univId}/routes"), new ApiResponse()
                .description("the university's core routes")
                .content(new Content().addMediaType("application/json", new MediaType().schema(new ObjectSchema()))));
        answer(openApi.getPaths().get("/api/universities/{univId}/routes/cached-bytes"), new ApiResponse()
                .description("the cached batches as stored in Redis, concatenated (the ceiling harness)")
                .addHeaderObject("X-Route-Version", new Header().required(true).schema(new IntegerSchema().format("int64")))
                .content(new Content().addMediaType("application/octet-stream", new MediaType().schema(new BinarySchema()))));
    }

    private static void answer(PathItem path, ApiResponse ok) {
        if (path != null && path.getGet() != null) {
            path.getGet().getResponses().addApiResponse("200", ok);
        }
    }
}

package dev.perflab.support.openapi;

import java.util.List;

import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;

/** The RFC 9457 problem body every 4xx and 5xx of perflab has, as {@code ProblemResponses} writes it. */
final class ProblemSchema {

    private ProblemSchema() {
    }

    static Schema<Object> schema() {
        ObjectSchema schema = new ObjectSchema();
        schema.description("RFC 9457 problem details (application/problem+json) with a stable code");
        schema.addProperty("type", new StringSchema().format("uri").example("urn:perflab:problem:invalid-request")
                .description("urn:perflab:problem:<code>"));
        schema.addProperty("title", new StringSchema());
        schema.addProperty("status", new IntegerSchema().minimum(java.math.BigDecimal.valueOf(400))
                .maximum(java.math.BigDecimal.valueOf(599)));
        schema.addProperty("detail", new StringSchema());
        schema.addProperty("instance", new StringSchema());
        schema.addProperty("code", new StringSchema().pattern("^[a-z0-9-]+$")
                .description("stable, machine-readable: what went wrong"));
        schema.addProperty("errors", new ObjectSchema().description("invalid-request only: the message per field")
                .additionalProperties(new StringSchema()));
        schema.required(List.of("type", "status", "code"));
        return schema;
    }
}

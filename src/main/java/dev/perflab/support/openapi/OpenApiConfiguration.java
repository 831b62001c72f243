package dev.perflab.support.openapi;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.security.SecurityScheme;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI document ({@code /v3/api-docs}) and Swagger UI ({@code /swagger-ui.html}), both open like health:
 * the Bearer scheme that every {@code /api/**} path but the login needs, and the RFC 9457 problem body that
 * every 4xx and 5xx has ({@link ProblemResponsesCustomizer} lists each endpoint's codes).
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

    static final String BEARER = "bearer";
    static final String PROBLEM = "Problem";

    @Bean
    OpenAPI perflabOpenApi() {
        return new OpenAPI()
                .info(new Info().title("perflab").version("0.1.0")
                        .description("Spring Boot performance lab: each feature has a before and an after variant "
                                + "(perflab_variant_info says which one runs). Log in with POST /api/auth/login "
                                + "(user1 ... user100000, password perflab-pass) and use the accessToken as Bearer token."))
                .components(new Components()
                        .addSecuritySchemes(BEARER, new SecurityScheme().type(SecurityScheme.Type.HTTP)
                                .scheme("bearer").bearerFormat("JWT")
                                .description("HS256 token from POST /api/auth/login"))
                        .addSchemas(PROBLEM, problemSchema()));
    }

    @Bean
    ProblemResponsesCustomizer problemResponsesCustomizer() {
        return new ProblemResponsesCustomizer();
    }

    private static ObjectSchema problemSchema() {
        ObjectSchema schema = new ObjectSchema();
        schema.description("RFC 9457 problem details (application/problem+json) with a stable code");
        schema.addProperty("type", new StringSchema().example("urn:perflab:problem:invalid-request")
                .description("urn:perflab:problem:<code>"));
        schema.addProperty("title", new StringSchema());
        schema.addProperty("status", new IntegerSchema());
        schema.addProperty("detail", new StringSchema());
        schema.addProperty("instance", new StringSchema());
        schema.addProperty("code", new StringSchema().description("stable, machine-readable: what went wrong"));
        schema.addProperty("errors", new ObjectSchema().description("invalid-request only: the message per field")
                .additionalProperties(new StringSchema()));
        return schema;
    }
}

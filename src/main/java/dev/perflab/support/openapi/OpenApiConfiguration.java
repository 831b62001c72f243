package dev.perflab.support.openapi;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
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
                                + "with an account of the auth API and use the accessToken as Bearer token."))
                .components(new Components()
                        .addSecuritySchemes(BEARER, new SecurityScheme().type(SecurityScheme.Type.HTTP)
                                .scheme("bearer").bearerFormat("JWT")
                                .description("HS256 token from POST /api/auth/login")));
    }

    @Bean
    ProblemResponsesCustomizer problemResponsesCustomizer() {
        return new ProblemResponsesCustomizer();
    }
}

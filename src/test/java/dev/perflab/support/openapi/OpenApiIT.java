package dev.perflab.support.openapi;

import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import dev.perflab.testing.Http;
import dev.perflab.testing.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

@IntegrationTest
class OpenApiIT {

    @LocalServerPort
    int port;

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    /** Every endpoint of perflab's controllers, as "METHOD /path/{var}" (the error page is no API). */
    private Set<String> controllerEndpoints() {
        Set<String> endpoints = new TreeSet<>();
        mappings.getHandlerMethods().forEach((RequestMappingInfo info, HandlerMethod handler) -> {
            Class<?> type = handler.getBeanType();
            if (!type.getPackageName().startsWith("dev.perflab") || ErrorController.class.isAssignableFrom(type)) {
                return;
            }
            for (String path : info.getPatternValues()) {
                for (RequestMethod method : info.getMethodsCondition().getMethods()) {
                    endpoints.add(method.name() + " " + path);
                }
            }
        });
        return endpoints;
    }

    private JsonNode apiDocs() {
        Http.Response docs = new Http(port).get("/v3/api-docs");
        assertThat(docs.status()).isEqualTo(200);
        return docs.json();
    }

    private static Set<String> documentedOperations(JsonNode docs) {
        Set<String> operations = new TreeSet<>();
        docs.get("paths").properties().forEach(path -> path.getValue().properties()
                .forEach(operation -> operations.add(operation.getKey().toUpperCase() + " " + path.getKey())));
        return operations;
    }

    @Test
    void everyControllerEndpointAppearsInTheApiDocs() {
        Set<String> endpoints = controllerEndpoints();
        assertThat(endpoints).contains("POST /api/auth/login", "POST /api/transfers", "GET /api/universities/{univId}/routes");
        assertThat(documentedOperations(apiDocs())).containsAll(endpoints);
    }

    @Test
    void everyControllerEndpointHasItsProblemCodesInTheCatalog() {
        assertThat(ProblemCatalog.BY_OPERATION.keySet()).containsAll(controllerEndpoints());
    }

    @Test
    void transfersDeclareBearerAndTheirProblemCodes() {
        JsonNode docs = apiDocs();
        assertThat(docs.at("/components/securitySchemes/bearer/scheme").asString()).isEqualTo("bearer");
        JsonNode transfer = docs.at("/paths/~1api~1transfers/post");
        assertThat(transfer.at("/security/0").has("bearer")).isTrue();
        JsonNode conflict = transfer.at("/responses/409/content/application~1problem+json");
        assertThat(conflict.at("/schema/$ref").asString()).isEqualTo("#/components/schemas/Problem");
        assertThat(conflict.at("/examples/insufficient-funds/value/type").asString())
                .isEqualTo("urn:perflab:problem:insufficient-funds");
        assertThat(transfer.at("/responses/401/description").asString()).contains("unauthorized");
        assertThat(transfer.at("/responses/400/description").asString()).contains("invalid-amount", "malformed-body");
    }

    @Test
    void theLoginNeedsNoTokenAndSaysWhenTheAuthApiIsDown() {
        JsonNode login = apiDocs().at("/paths/~1api~1auth~1login/post");
        assertThat(login.has("security")).isFalse();
        assertThat(login.at("/responses/401/description").asString()).contains("bad-credentials");
        assertThat(login.at("/responses/503/description").asString()).contains("auth-api-unavailable", "auth-api-circuit-open");
    }

    @Test
    void swaggerUiAnswersWithoutAToken() {
        Http http = new Http(port);
        Http.Response entry = http.get("/swagger-ui.html");
        assertThat(entry.status()).isEqualTo(302);
        assertThat(entry.header("Location")).contains("/swagger-ui/index.html");
        Http.Response ui = http.get("/swagger-ui/index.html");
        assertThat(ui.status()).isEqualTo(200);
        assertThat(ui.body()).contains("swagger-ui");
    }
}

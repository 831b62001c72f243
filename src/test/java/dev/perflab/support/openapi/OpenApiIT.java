package dev.perflab.support.openapi;

import java.util.ArrayList;
import java.util.List;
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

import dev.perflab.support.security.AccessRules;
import dev.perflab.support.security.TokenService;
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

    @Autowired
    TokenService tokens;

    private String[] member() {
        return new String[] {"Authorization", "Bearer " + tokens.issue(1, "openapi-member").accessToken()};
    }

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

    /** Every {@code $ref} in the description, with where it stands. */
    private static List<String> references(JsonNode node, String at) {
        List<String> found = new ArrayList<>();
        if (node.isObject()) {
            node.properties().forEach(field -> {
                if (field.getKey().equals("$ref")) {
                    found.add(field.getValue().asString() + " at " + at);
                } else {
                    found.addAll(references(field.getValue(), at + "/" + field.getKey()));
                }
            });
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                found.addAll(references(node.get(i), at + "/" + i));
            }
        }
        return found;
    }

    @Test
    void everyReferenceResolvesAndEveryErrorUsesTheOneProblemSchema() {
        JsonNode docs = apiDocs();
        List<String> refs = references(docs, "");
        assertThat(refs).anyMatch(ref -> ref.startsWith("#/components/schemas/Problem "));
        for (String ref : refs) {
            String pointer = ref.substring(1, ref.indexOf(' '));
            assertThat(docs.at(pointer).isMissingNode()).as(ref).isFalse();
        }
        assertThat(docs.at("/components/schemas/Problem/required").toString()).contains("type", "status", "code");
    }

    @Test
    void everyOperationOnAnAdminPathDeclaresForbiddenAndAMemberGetsIt() {
        JsonNode docs = apiDocs();
        List<String> adminOperations = new ArrayList<>();
        docs.get("paths").properties().forEach(path -> path.getValue().properties().forEach(operation -> {
            boolean admin = ProblemResponsesCustomizer.adminOnly(path.getKey());
            assertThat(operation.getValue().at("/responses/403").isMissingNode())
                    .as(operation.getKey() + " " + path.getKey()).isEqualTo(!admin && !path.getKey().equals("/api/transfers"));
            if (admin && operation.getKey().equals("get")) {
                adminOperations.add(path.getKey());
            }
        }));
        assertThat(adminOperations).contains("/api/lab/dependency");
        assertThat(AccessRules.ADMIN_PATHS).isNotEmpty();
        Http http = new Http(port);
        for (String path : adminOperations) {
            Http.Response answer = http.get(path.replaceAll("\\{[^}]+}", "11"), member());
            assertThat(answer.status()).as(path).isEqualTo(403);
            assertThat(answer.json().at("/code").asString()).isEqualTo("forbidden");
        }
    }

    @Test
    void theRequestConstraintsTheValidationEnforcesAreDeclared() {
        JsonNode schemas = apiDocs().at("/components/schemas");
        assertThat(schemas.at("/TransferRequest/required").toString()).contains("receiverPhone", "amount", "pin");
        assertThat(schemas.at("/TransferRequest/properties/receiverPhone/pattern").asString()).isNotBlank();
        assertThat(schemas.at("/TransferRequest/properties/amount/exclusiveMinimum").asInt()).isZero();
        assertThat(schemas.at("/TransferRequest/properties/amount/maximum").decimalValue()).isPositive();
        assertThat(schemas.at("/TransferRequest/properties/pin/minLength").asInt()).isEqualTo(1);
        assertThat(schemas.at("/PhoneView/required").toString()).contains("phone");
        assertThat(schemas.at("/Credentials/properties/password/minLength").asInt()).isEqualTo(1);
        JsonNode transfer = apiDocs().at("/paths/~1api~1transfers/post");
        assertThat(transfer.at("/responses/201/headers/Idempotent-Replayed").isMissingNode()).isFalse();
        assertThat(transfer.at("/responses/200").isMissingNode()).isTrue();
        assertThat(transfer.at("/responses/429/description").asString()).contains("too-many-pin-failures");
        assertThat(transfer.get("parameters").toString()).contains("\"format\":\"uuid\"");
    }

    @Test
    void aMethodThePathDoesNotSupportGets405WithAllowAsProblemDetails() {
        Http http = new Http(port);
        for (String method : List.of("QUERY", "PATCH", "FOO")) {
            Http.Response answer = http.send(method, "/api/wallets/me", null, null, member());
            assertThat(answer.status()).as(method).isEqualTo(405);
            assertThat(answer.header("Allow")).as(method).contains("GET");
            assertThat(answer.contentType()).startsWith("application/problem+json");
            assertThat(answer.json().at("/code").asString()).isEqualTo("method-not-allowed");
        }
        assertThat(http.send("QUERY", "/api/wallets/me", null, null).status()).isEqualTo(401); // the token first
    }

    @Test
    void aBodyOfTheWrongJsonTypeOrMediaTypeIsAClientMistake() {
        Http http = new Http(port);
        Http.Response numberAsString = http.post("/api/auth/login", "{\"loginId\": 12345, \"password\": \"x\"}");
        assertThat(numberAsString.status()).isEqualTo(400);
        assertThat(numberAsString.json().at("/code").asString()).isEqualTo("malformed-body");
        Http.Response stringAsNumber = http.post("/api/transfers", "{\"receiverPhone\": \"01000000002\", "
                + "\"amount\": \"10.00\", \"pin\": \"1234\"}", "Idempotency-Key",
                "3f0c1d2e-0000-4000-8000-000000000001", member()[0], member()[1]);
        assertThat(stringAsNumber.status()).isEqualTo(400);
        assertThat(stringAsNumber.json().at("/code").asString()).isEqualTo("malformed-body");
        Http.Response multipart = http.send("POST", "/api/auth/login", "multipart/form-data",
                "{\"loginId\": \"a\", \"password\": \"b\"}");
        assertThat(multipart.status()).isEqualTo(415);
        assertThat(multipart.json().at("/code").asString()).isEqualTo("unsupported-media-type");
        assertThat(http.send("GET", "/api/auth/me", "multipart/form-data", null, member()).status()).isEqualTo(200);
        Http.Response xml = http.get("/api/auth/me", "Accept", "application/xml", member()[0], member()[1]);
        assertThat(xml.status()).isEqualTo(406);
        assertThat(xml.json().at("/code").asString()).isEqualTo("not-acceptable");
        assertThat(apiDocs().at("/paths/~1api~1auth~1me/get/responses/406/description").asString())
                .contains("not-acceptable");
    }
}

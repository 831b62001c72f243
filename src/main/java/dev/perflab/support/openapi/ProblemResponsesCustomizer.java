package dev.perflab.support.openapi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.examples.Example;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;

import org.springdoc.core.customizers.OpenApiCustomizer;

import dev.perflab.support.problem.ProblemResponses;

/**
 * Adds to every operation its problem answers from {@link ProblemCatalog}, one response per status whose
 * examples are the codes, plus {@code unauthorized} (401) and the Bearer requirement on every {@code /api/**}
 * path but the login, and {@code internal} (500) everywhere.
 */
class ProblemResponsesCustomizer implements OpenApiCustomizer {

    private static final String OPEN_PATH = "/api/auth/login";

    @Override
    public void customise(OpenAPI openApi) {
        if (openApi.getPaths() == null) {
            return;
        }
        openApi.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) ->
                document(method + " " + path, path, operation)));
    }

    private static void document(String key, String path, Operation operation) {
        List<ProblemCatalog.Problem> problems = new ArrayList<>(ProblemCatalog.BY_OPERATION.getOrDefault(key, List.of()));
        if (path.startsWith("/api/") && !path.equals(OPEN_PATH)) {
            operation.addSecurityItem(new SecurityRequirement().addList(OpenApiConfiguration.BEARER));
            problems.add(new ProblemCatalog.Problem(401, "unauthorized"));
        }
        problems.add(new ProblemCatalog.Problem(500, "internal"));
        if (operation.getResponses() == null) {
            operation.setResponses(new ApiResponses());
        }
        Map<Integer, List<String>> codesByStatus = new TreeMap<>();
        for (ProblemCatalog.Problem problem : problems) {
            codesByStatus.computeIfAbsent(problem.status(), s -> new ArrayList<>()).add(problem.code());
        }
        codesByStatus.forEach((status, codes) -> operation.getResponses().addApiResponse(String.valueOf(status), response(status, codes)));
    }

    private static ApiResponse response(int status, List<String> codes) {
        Map<String, Example> examples = new LinkedHashMap<>();
        for (String code : codes) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("type", ProblemResponses.typeOf(code).toString());
            body.put("status", status);
            body.put("code", code);
            examples.put(code, new Example().value(body));
        }
        MediaType problemJson = new MediaType()
                .schema(new Schema<>().$ref("#/components/schemas/" + OpenApiConfiguration.PROBLEM))
                .examples(examples);
        return new ApiResponse()
                .description("problem: " + String.join(", ", codes))
                .content(new Content().addMediaType("application/problem+json", problemJson));
    }
}

package dev.perflab.support.openapi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.examples.Example;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;

import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

import dev.perflab.support.problem.ProblemResponses;
import dev.perflab.support.security.AccessRules;

/**
 * Adds to every operation its problem answers: the codes {@link ProblemCatalog} lists for it, {@code unauthorized}
 * (401) and the Bearer requirement on every {@code /api/**} path but the login, {@code forbidden} (403) on every path
 * {@link AccessRules#ADMIN_PATHS} reserves for the admin (the list the security filter enforces), and
 * {@code not-acceptable} (406) and {@code internal} (500) everywhere; one response per status, whose examples are the codes, all referring to the one
 * {@code Problem} schema that this customizer also declares. (The schema is added here, not on the {@code OpenAPI}
 * bean: springdoc drops a bean's schema that no operation refers to before the customizers add the references.)
 */
class ProblemResponsesCustomizer implements OpenApiCustomizer {

    private static final List<PathPattern> ADMIN = AccessRules.ADMIN_PATHS.stream()
            .map(PathPatternParser.defaultInstance::parse).toList();

    @Override
    public void customise(OpenAPI openApi) {
        openApi.getComponents().addSchemas(OpenApiConfiguration.PROBLEM, ProblemSchema.schema());
        if (openApi.getPaths() == null) {
            return;
        }
        openApi.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) ->
                document(method + " " + path, path, operation)));
    }

    private static void document(String key, String path, Operation operation) {
        List<ProblemCatalog.Problem> problems = new ArrayList<>(ProblemCatalog.BY_OPERATION.getOrDefault(key, List.of()));
        if (path.startsWith("/api/") && !path.equals(AccessRules.LOGIN_PATH)) {
            operation.addSecurityItem(new SecurityRequirement().addList(OpenApiConfiguration.BEARER));
            problems.add(new ProblemCatalog.Problem(401, "unauthorized"));
        }
        if (adminOnly(path)) {
            problems.add(new ProblemCatalog.Problem(403, "forbidden"));
        }
        problems.add(new ProblemCatalog.Problem(406, "not-acceptable")); // an Accept that excludes the answer's type
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

    /** Whether the security filter reserves {@code path} (an OpenAPI template) for the admin. */
    static boolean adminOnly(String path) {
        PathContainer concrete = PathContainer.parsePath(path.replaceAll("\\{[^}/]+}", "1"));
        return ADMIN.stream().anyMatch(pattern -> pattern.matches(concrete));
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
        ApiResponse response = new ApiResponse()
                .description("problem: " + String.join(", ", codes))
                .content(new Content().addMediaType("application/problem+json", problemJson));
        if (status == 429 || status == 503) {
            response.addHeaderObject(HttpHeaders.RETRY_AFTER, new Header()
                    .description("seconds to wait before trying again").schema(new IntegerSchema().minimum(java.math.BigDecimal.ZERO)));
        }
        return response;
    }
}

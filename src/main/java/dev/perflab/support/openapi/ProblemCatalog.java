package dev.perflab.support.openapi;

import java.util.List;
import java.util.Map;

/**
 * The problem codes each endpoint answers with, for the OpenAPI document: every code a controller or its
 * service throws ({@code ApiException}, {@code ProblemHandler}'s mapping of Spring's exceptions), by endpoint.
 * On top of these, {@link ProblemResponsesCustomizer} adds {@code unauthorized} to every endpoint that needs a
 * token and {@code internal} to all. {@code OpenApiIT} fails when an endpoint has no entry here.
 */
final class ProblemCatalog {

    /** One problem answer: the HTTP status and the stable {@code code} ({@code type} is {@code urn:perflab:problem:<code>}). */
    record Problem(int status, String code) {
    }

    private static final List<Problem> AUTH_API_DOWN = List.of(new Problem(503, "auth-api-unavailable"),
            new Problem(503, "auth-api-busy"), new Problem(503, "auth-api-circuit-open"));

    /** By {@code "<METHOD> <path template>"}, as the OpenAPI document names the operation. */
    static final Map<String, List<Problem>> BY_OPERATION = Map.of(
            "POST /api/auth/login", concat(List.of(new Problem(400, "malformed-body"), new Problem(400, "invalid-request"),
                    new Problem(401, "bad-credentials")), AUTH_API_DOWN),
            "GET /api/auth/me", List.of(),
            "GET /api/lab/dependency", concat(List.of(new Problem(400, "invalid-parameter")), AUTH_API_DOWN),
            "GET /api/lab/dependency/queued", List.of(new Problem(503, "lab-queue-full"),
                    new Problem(503, "lab-task-cancelled")),
            "POST /api/transfers", List.of(new Problem(400, "malformed-body"), new Problem(400, "invalid-request"),
                    new Problem(400, "missing-header"), new Problem(400, "invalid-idempotency-key"),
                    new Problem(400, "invalid-amount"), new Problem(400, "amount-over-limit"),
                    new Problem(400, "invalid-phone"), new Problem(400, "self-transfer"), new Problem(403, "wrong-pin"),
                    new Problem(404, "wallet-not-found"), new Problem(404, "receiver-not-found"),
                    new Problem(409, "insufficient-funds"), new Problem(422, "idempotency-key-reused"),
                    new Problem(503, "lock-contention")),
            "GET /api/wallets/me", List.of(new Problem(404, "wallet-not-found")),
            "PUT /api/members/me/phone", List.of(new Problem(400, "malformed-body"), new Problem(400, "invalid-request"),
                    new Problem(400, "invalid-phone"), new Problem(404, "member-not-found"), new Problem(409, "phone-taken")),
            "GET /api/universities/{univId}/routes", List.of(new Problem(400, "invalid-parameter"),
                    new Problem(404, "university-not-found"), new Problem(429, "too-many-route-reads"),
                    new Problem(503, "routes-busy"), new Problem(503, "database-busy")),
            "GET /api/universities/{univId}/routes/cached-bytes", List.of(new Problem(400, "invalid-parameter"),
                    new Problem(404, "university-not-found")),
            "PUT /api/admin/universities/{univId}/routes/{routeId}", List.of(new Problem(400, "malformed-body"),
                    new Problem(400, "invalid-request"), new Problem(400, "invalid-parameter"),
                    new Problem(404, "university-not-found"), new Problem(404, "route-not-found")));

    private ProblemCatalog() {
    }

    private static List<Problem> concat(List<Problem> first, List<Problem> second) {
        return java.util.stream.Stream.concat(first.stream(), second.stream()).toList();
    }
}

package dev.perflab.support.openapi;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The problem codes each endpoint answers with, for the OpenAPI description: every code a controller or its
 * service throws ({@code ApiException}, {@code ProblemHandler}'s mapping of Spring's exceptions, {@code Outage}'s
 * 503s), by endpoint. On top of these, {@link ProblemResponsesCustomizer} adds {@code unauthorized} to every
 * endpoint that needs a token, {@code forbidden} to the admin's and {@code internal} to all. {@code OpenApiIT} fails
 * when an endpoint has no entry here; the contract suite ({@code ./perflab contract}) fails when the app answers a
 * status that the description does not declare.
 */
final class ProblemCatalog {

    /** One problem answer: the HTTP status and the stable {@code code} ({@code type} is {@code urn:perflab:problem:<code>}). */
    record Problem(int status, String code) {
    }

    private static final List<Problem> AUTH_API_DOWN = List.of(new Problem(502, "auth-api-bad-answer"),
            new Problem(503, "auth-api-unavailable"), new Problem(503, "auth-api-busy"),
            new Problem(503, "auth-api-circuit-open"));
    /** A JSON body that is missing, malformed, of another media type or not of the expected shape. */
    private static final List<Problem> BODY = List.of(new Problem(400, "malformed-body"),
            new Problem(400, "invalid-request"), new Problem(415, "unsupported-media-type"));
    private static final Problem DATABASE_DOWN = new Problem(503, "database-unavailable");
    private static final Problem REDIS_DOWN = new Problem(503, "redis-unavailable");

    /** By {@code "<METHOD> <path template>"}, as the OpenAPI description names the operation. */
    static final Map<String, List<Problem>> BY_OPERATION = Map.of(
            "POST /api/auth/login", concat(BODY, AUTH_API_DOWN, List.of(new Problem(401, "bad-credentials"),
                    new Problem(429, "too-many-login-failures"), DATABASE_DOWN, REDIS_DOWN)),
            "GET /api/auth/me", List.of(),
            "GET /api/lab/dependency", concat(List.of(new Problem(400, "invalid-parameter")), AUTH_API_DOWN),
            "GET /api/lab/dependency/queued", List.of(new Problem(503, "lab-queue-full"),
                    new Problem(503, "lab-task-cancelled")),
            "POST /api/transfers", concat(BODY, List.of(new Problem(400, "missing-header"),
                    new Problem(400, "invalid-idempotency-key"), new Problem(400, "invalid-amount"),
                    new Problem(400, "amount-over-limit"), new Problem(400, "invalid-phone"),
                    new Problem(409, "self-transfer"), new Problem(403, "wrong-pin"),
                    new Problem(404, "wallet-not-found"), new Problem(404, "receiver-not-found"),
                    new Problem(409, "insufficient-funds"), new Problem(422, "idempotency-key-reused"),
                    new Problem(429, "too-many-pin-failures"), new Problem(503, "lock-contention"), DATABASE_DOWN,
                    REDIS_DOWN)),
            "GET /api/wallets/me", List.of(new Problem(404, "wallet-not-found"), DATABASE_DOWN),
            "PUT /api/members/me/phone", concat(BODY, List.of(new Problem(400, "invalid-phone"),
                    new Problem(404, "member-not-found"), new Problem(409, "phone-taken"), DATABASE_DOWN, REDIS_DOWN)),
            "GET /api/universities/{univId}/routes", List.of(new Problem(400, "invalid-parameter"),
                    new Problem(404, "university-not-found"), new Problem(429, "too-many-route-reads"),
                    new Problem(503, "routes-busy"), new Problem(503, "database-busy"), DATABASE_DOWN),
            "GET /api/universities/{univId}/routes/cached-bytes", List.of(new Problem(400, "invalid-parameter"),
                    new Problem(404, "university-not-found"), new Problem(503, "routes-busy"), DATABASE_DOWN,
                    REDIS_DOWN),
            "PUT /api/admin/universities/{univId}/routes/{routeId}", concat(BODY, List.of(
                    new Problem(400, "invalid-parameter"), new Problem(404, "university-not-found"),
                    new Problem(404, "route-not-found"), DATABASE_DOWN)));

    private ProblemCatalog() {
    }

    @SafeVarargs
    private static List<Problem> concat(List<Problem>... parts) {
        return Stream.of(parts).flatMap(List::stream).toList();
    }
}

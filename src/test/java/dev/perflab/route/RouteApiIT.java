package dev.perflab.route;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.perflab.testing.Http;
import dev.perflab.testing.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/** The routes API on the baseline ({@code cache=off}): the graph, its errors, and the admin change. */
@IntegrationTest
class RouteApiIT extends RouteTestSupport {

    static final long UNIV = 9101;
    long version;

    @BeforeEach
    void seed() {
        version = fixture().create(UNIV);
    }

    @Test
    void servesTheCompressedGraphOfTheUniversity() {
        Http.Response response = routes(UNIV);

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.contentType()).startsWith("application/json");
        JsonNode body = response.json();
        assertThat(body.get("univId").asLong()).isEqualTo(UNIV);
        assertThat(body.get("version").asLong()).isEqualTo(version);
        assertThat(body.get("routeCount").asInt()).isEqualTo(RouteFixture.ROUTES);
        assertThat(body.get("nodeCount").asInt()).isEqualTo(10);
        assertThat(body.get("nodes")).hasSize(10);
        assertThat(body.get("coreRoutes")).hasSize(RouteFixture.CORE_ROUTES);
        int routesInCores = 0;
        for (JsonNode core : body.get("coreRoutes")) {
            routesInCores += core.get("nodes").size() - 1;
        }
        assertThat(routesInCores).isEqualTo(RouteFixture.ROUTES);
        assertThat(directDistance(body, UNIV)).isEqualTo(10.0 + RouteFixture.DIRECT_ROUTE - 1);
        assertThat(body.toString()).contains("\"SLOPE\"").contains("\"STAIRS\"");
    }

    @Test
    void anUnknownUniversityIsA404Problem() {
        Http.Response response = routes(987_654_321L);

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.json().get("code").asString()).isEqualTo("university-not-found");
    }

    @Test
    void routesNeedABearerToken() {
        Http.Response response = http().get("/api/universities/" + UNIV + "/routes");

        assertThat(response.status()).isEqualTo(401);
        assertThat(response.json().get("code").asString()).isEqualTo("unauthorized");
    }

    @Test
    void aChangeBumpsTheVersionAndIsServedAtOnce() {
        long route = RouteFixture.directRouteId(UNIV);

        Http.Response changed = change(UNIV, route, "{\"distance\":77.5,\"cautionFactors\":[\"CURB\"]}");

        assertThat(changed.status()).isEqualTo(200);
        assertThat(changed.json().get("version").asLong()).isEqualTo(version + 1);
        JsonNode body = routes(UNIV).json();
        assertThat(body.get("version").asLong()).isEqualTo(version + 1);
        assertThat(directDistance(body, UNIV)).isEqualTo(77.5);
    }

    @Test
    void badChangesAre4xxAndChangeNothing() {
        long route = RouteFixture.directRouteId(UNIV);
        double before = dbDistance(route);

        assertThat(change(UNIV, route, "{\"distance\":-1}").status()).isEqualTo(400);
        assertThat(change(UNIV, route, "{}").status()).isEqualTo(400);
        assertThat(change(UNIV, route, "{\"distance\":5,\"dangerFactors\":[\"LAVA\"]}").status()).isEqualTo(400);
        assertThat(change(UNIV, route, "not json").status()).isEqualTo(400);
        Http.Response otherUniversity = change(UNIV, RouteFixture.directRouteId(9102), "{\"distance\":5}");
        assertThat(otherUniversity.status()).isEqualTo(404);
        assertThat(otherUniversity.json().get("code").asString()).isEqualTo("route-not-found");
        assertThat(change(987_654_321L, route, "{\"distance\":5}").status()).isEqualTo(404);

        assertThat(dbDistance(route)).isEqualTo(before);
        assertThat(dbVersion(UNIV)).isEqualTo(version);
    }

    /** Issue 14, finding 4: any logged-in member could change routes. */
    @Test
    void aMemberMayNotChangeARouteOnlyAnAdminMay() {
        long route = RouteFixture.directRouteId(UNIV);
        double before = dbDistance(route);

        Http.Response member = changeAs(UNIV, route, "{\"distance\":5}", auth());

        assertThat(member.status()).isEqualTo(403);
        assertThat(member.contentType()).startsWith("application/problem+json");
        assertThat(member.json().get("code").asString()).isEqualTo("forbidden");
        assertThat(dbDistance(route)).isEqualTo(before);
        assertThat(dbVersion(UNIV)).isEqualTo(version);
        assertThat(change(UNIV, route, "{\"distance\":5}").status()).isEqualTo(200);
    }
}

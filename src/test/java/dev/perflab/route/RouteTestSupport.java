package dev.perflab.route;

import java.util.Arrays;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.perflab.support.security.TokenService;
import dev.perflab.testing.Http;

/** What the route integration tests share: an authenticated client, the fixture, raw Redis and the counters. */
abstract class RouteTestSupport {

    @LocalServerPort
    int port;
    @Autowired
    TokenService tokens;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    MeterRegistry registry;
    @Autowired
    RedisConnectionFactory redisConnections;

    Http http() {
        return new Http(port);
    }

    String[] auth() {
        return authAs(1);
    }

    /** A member's token: route reads are limited per member ({@code perflab.route.member-concurrency}). */
    String[] authAs(long memberId) {
        return new String[] {"Authorization", "Bearer " + tokens.issue(memberId, "route-test-" + memberId).accessToken()};
    }

    Http.Response routes(long univId) {
        return routesAs(univId, 1);
    }

    Http.Response routesAs(long univId, long memberId) {
        return http().get("/api/universities/" + univId + "/routes", authAs(memberId));
    }

    /** A token with the admin role, as login gives {@code perflab-admin}. */
    String[] adminAuth() {
        return new String[] {"Authorization", "Bearer " + tokens.issue(1, "route-admin", java.util.List.of(TokenService.ADMIN)).accessToken()};
    }

    Http.Response change(long univId, long routeId, String json) {
        return changeAs(univId, routeId, json, adminAuth());
    }

    Http.Response changeAs(long univId, long routeId, String json, String... auth) {
        return http().put("/api/admin/universities/" + univId + "/routes/" + routeId, json, auth);
    }

    RouteFixture fixture() {
        return new RouteFixture(jdbc);
    }

    long dbVersion(long univId) {
        return jdbc.queryForObject("SELECT route_version FROM university WHERE id = ?", Long.class, univId);
    }

    double dbDistance(long routeId) {
        return jdbc.queryForObject("SELECT distance FROM route WHERE id = ?", Double.class, routeId);
    }

    RedisTemplate<String, byte[]> rawRedis() {
        RedisTemplate<String, byte[]> template = new RedisTemplate<>();
        template.setConnectionFactory(redisConnections);
        template.setKeySerializer(RedisSerializer.string());
        template.setValueSerializer(RedisSerializer.byteArray());
        template.afterPropertiesSet();
        return template;
    }

    double count(String name, String... tags) {
        return Search.in(registry).name(name).tags(tags).counters().stream().mapToDouble(c -> c.count()).sum();
    }

    /** The distance of the core route made of the direct A-B route alone (node list [A, B]). */
    static double directDistance(JsonNode body, long univId) {
        for (JsonNode core : body.get("coreRoutes")) {
            long[] nodes = new long[core.get("nodes").size()];
            for (int i = 0; i < nodes.length; i++) {
                nodes[i] = core.get("nodes").get(i).asLong();
            }
            if (nodes.length == 2 && Arrays.stream(nodes).sum() == RouteFixture.nodeA(univId) + RouteFixture.nodeB(univId)) {
                return core.get("distance").asDouble();
            }
        }
        throw new AssertionError("no direct A-B core route in " + body);
    }
}

package dev.perflab.route;

import java.util.List;
import java.util.Map;

import dev.perflab.support.security.TokenService;
import dev.perflab.support.warmup.WarmupRequest;
import dev.perflab.support.warmup.WarmupRequests;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/** The routes' share of the server warm-up: reads of the smallest university's routes (read-only). */
@Component
@ConditionalOnProperty(name = "perflab.server.warmup", havingValue = "on")
class RouteWarmupRequests implements WarmupRequests {

    private final RouteRepository routes;
    private final TokenService tokens;

    RouteWarmupRequests(RouteRepository routes, TokenService tokens) {
        this.routes = routes;
        this.tokens = tokens;
    }

    @Override
    public List<WarmupRequest> warmupRequests() {
        String bearer = "Bearer " + tokens.issue(0, "perflab-warmup").accessToken();
        return routes.smallestUniversity().stream()
                .mapToObj(univ -> WarmupRequest.get("/api/universities/" + univ + "/routes", Map.of("Authorization", bearer)))
                .toList();
    }
}

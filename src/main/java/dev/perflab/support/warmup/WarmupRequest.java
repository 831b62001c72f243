package dev.perflab.support.warmup;

import java.util.Map;

/**
 * One request a feature wants sent through the app's own port before readiness ({@code perflab.server.warmup=on}),
 * so that its whole path (Tomcat, security, parsing, the controller, SQL, Redis, Jackson) is loaded and compiled
 * before the first user arrives. It must have no effect on real data: read-only, or a dry run that the feature
 * rolls back when it sees {@link WarmupMarker#HEADER}.
 */
public record WarmupRequest(String method, String path, Map<String, String> headers, String body) {

    public static WarmupRequest get(String path, Map<String, String> headers) {
        return new WarmupRequest("GET", path, headers, null);
    }
}

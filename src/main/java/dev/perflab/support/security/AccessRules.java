package dev.perflab.support.security;

import java.util.List;

/**
 * Who may call which path: the one list that {@link SecurityConfiguration} enforces and the OpenAPI description
 * declares (403 {@code forbidden} on every operation under {@link #ADMIN_PATHS}), so the two cannot drift.
 */
public final class AccessRules {

    /** The one path open without a token (POST only). */
    public static final String LOGIN_PATH = "/api/auth/login";

    /** Paths that need the admin role: the lab and the route ceiling harness load the server on purpose. */
    public static final List<String> ADMIN_PATHS = List.of("/api/admin/**", "/api/lab/**",
            "/api/universities/*/routes/cached-bytes");

    private AccessRules() {
    }
}

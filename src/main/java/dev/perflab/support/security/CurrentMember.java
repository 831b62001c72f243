package dev.perflab.support.security;

import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.jwt.Jwt;

/** The member behind the Bearer token of the current request. */
public final class CurrentMember {

    private CurrentMember() {
    }

    public static long id() {
        return Long.parseLong(jwt().getSubject());
    }

    public static String loginId() {
        return jwt().getClaimAsString("login");
    }

    private static Jwt jwt() {
        if (SecurityContextHolder.getContext().getAuthentication() instanceof org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken token) {
            return token.getToken();
        }
        throw new IllegalStateException("no authenticated member on this request");
    }
}

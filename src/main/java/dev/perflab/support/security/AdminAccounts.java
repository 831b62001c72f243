package dev.perflab.support.security;

import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Which logins get the admin role ({@code roles: ["admin"]} in their token) when the auth API accepts them.
 * The stub defines the account {@code perflab-admin} (wiremock/mappings/auth-admin.json); members
 * ({@code user1..user100000}) never get the role.
 *
 * @param logins login ids that are admins; {@code PERFLAB_SECURITY_ADMIN_LOGINS} overrides the default
 */
@ConfigurationProperties("perflab.security.admin")
public record AdminAccounts(@DefaultValue("perflab-admin") List<String> logins) {

    public boolean isAdmin(String loginId) {
        return loginId != null && logins.contains(loginId);
    }
}

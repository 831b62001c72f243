package dev.perflab.support.security;

import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Which accounts get the admin role ({@code roles: ["admin"]} in their token) when the auth API accepts them, named by
 * the auth API's own id of the account (its {@code studentId}), never by the login id a client typed: a login id is
 * only what the client sent, and any spelling the auth API folds to the admin's account would otherwise differ from
 * the configured string or, worse, match it. The stub's admin account (this install's {@code admin-login},
 * wiremock/templates/auth-admin.json) answers with {@code A-perflab-admin}; members ({@code S-user…}) never get the role.
 *
 * @param ids the auth API's ids of the admins: none unless configured ({@code PERFLAB_SECURITY_ADMIN_IDS}, or the
 *            config-tree file {@code perflab.security.admin.ids} stack/secrets.sh writes)
 */
@ConfigurationProperties("perflab.security.admin")
public record AdminAccounts(@DefaultValue List<String> ids) {

    public boolean isAdmin(String authApiId) {
        return authApiId != null && ids.contains(authApiId);
    }
}

package dev.perflab.support.security;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Refuses to start with a secret that is committed in this repository: anyone who can read it could sign an admin
 * token or test every PIN against a copied table. {@code ./perflab} (stack/secrets.sh), compose and Kubernetes give
 * each install its own secrets through the config tree {@code PERFLAB_SECRETS_DIR}; tests and a throwaway local run
 * may set {@code perflab.security.allow-development-secrets=true}.
 */
@Component
class DevelopmentSecrets implements InitializingBean {

    /** Every secret value the repository holds: the defaults of application.yml and the records. */
    static final Set<String> COMMITTED = Set.of(JwtProperties.DEV_SECRET, KeyedHash.Properties.DEV_SECRET);

    private final JwtProperties jwt;
    private final KeyedHash.Properties hash;
    private final boolean allowed;

    DevelopmentSecrets(JwtProperties jwt, KeyedHash.Properties hash,
            @Value("${perflab.security.allow-development-secrets:false}") boolean allowed) {
        this.jwt = jwt;
        this.hash = hash;
        this.allowed = allowed;
    }

    @Override
    public void afterPropertiesSet() {
        List<String> committed = committedIn(jwt.secret(), hash.secret());
        if (!committed.isEmpty() && !allowed) {
            throw new IllegalStateException(String.join(" and ", committed) + " committed in the repository: "
                    + "run stack/secrets.sh (./perflab does it) or set PERFLAB_SECRETS_DIR / PERFLAB_SECURITY_JWT_SECRET "
                    + "and PERFLAB_SECURITY_HASH_SECRET; perflab.security.allow-development-secrets=true allows them "
                    + "for tests only");
        }
    }

    /** The names of the properties whose value is a committed one (never the values). */
    static List<String> committedIn(String jwtSecret, String hashSecret) {
        List<String> names = new ArrayList<>();
        if (COMMITTED.contains(jwtSecret)) {
            names.add("perflab.security.jwt.secret is a development value");
        }
        if (COMMITTED.contains(hashSecret)) {
            names.add("perflab.security.hash.secret is a development value");
        }
        return names;
    }
}

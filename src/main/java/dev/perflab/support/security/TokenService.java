package dev.perflab.support.security;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

import org.springframework.security.oauth2.jose.jws.MacAlgorithm;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;

/** Issues HS256 access tokens; {@link SecurityConfiguration} verifies them on every {@code /api/**} call. */
public class TokenService {

    /** The claim that lists a token's roles; {@link SecurityConfiguration} maps each to {@code ROLE_<role>}. */
    public static final String ROLES_CLAIM = "roles";
    public static final String ADMIN = "admin";

    private final JwtEncoder encoder;
    private final JwtProperties properties;
    private final Clock clock;

    public TokenService(JwtEncoder encoder, JwtProperties properties, Clock clock) {
        this.encoder = encoder;
        this.properties = properties;
        this.clock = clock;
    }

    /** A signed token whose subject is the member id, with the login id as a claim. */
    public IssuedToken issue(long memberId, String loginId) {
        return issue(memberId, loginId, List.of());
    }

    /** The same with roles (claim {@value #ROLES_CLAIM}, e.g. {@value #ADMIN}); no claim when there are none. */
    public IssuedToken issue(long memberId, String loginId, List<String> roles) {
        Instant now = clock.instant();
        JwtClaimsSet.Builder builder = JwtClaimsSet.builder()
                .issuer(properties.issuer())
                .subject(Long.toString(memberId))
                .claim("login", loginId)
                .issuedAt(now)
                .expiresAt(now.plus(properties.ttl()));
        if (!roles.isEmpty()) {
            builder.claim(ROLES_CLAIM, roles);
        }
        JwtClaimsSet claims = builder.build();
        String value = encoder.encode(JwtEncoderParameters.from(JwsHeader.with(MacAlgorithm.HS256).build(), claims))
                .getTokenValue();
        return new IssuedToken(value, properties.ttl().toSeconds());
    }

    public record IssuedToken(String accessToken, long expiresInSeconds) {
    }
}

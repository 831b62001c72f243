package dev.perflab.support.security;

import java.nio.charset.StandardCharsets;
import java.time.Clock;

import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

import com.nimbusds.jose.jwk.source.ImmutableSecret;

import dev.perflab.support.problem.ProblemResponses;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jose.jws.MacAlgorithm;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.jwt.JwtValidators;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationConverter;
import org.springframework.security.oauth2.server.resource.authentication.JwtGrantedAuthoritiesConverter;
import org.springframework.security.oauth2.server.resource.web.BearerTokenResolver;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.firewall.StrictHttpFirewall;

/**
 * Stateless JWT security: {@code POST /api/auth/login} and the actuator's health, info and prometheus are open;
 * every other {@code /api/**} path needs a valid HS256 Bearer token, and {@code /api/admin/**}, {@code /api/lab/**},
 * the route ceiling harness and the other
 * actuator endpoints (metrics, configprops) need the admin role ({@code roles: ["admin"]} in the token, given at
 * login to the {@link AdminAccounts}).
 * Failures are problem+json with codes {@code unauthorized} and {@code forbidden}. The {@code Authorization} header's
 * parser, a {@link BearerTokenResolver}, comes from {@code support/parse} ({@code perflab.parse.header}).
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {


    @Bean
    SecurityFilterChain apiSecurity(HttpSecurity http, ProblemResponses problems, BearerTokenResolver bearerTokens)
            throws Exception {
        return http
                .csrf(csrf -> csrf.disable())
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .requestCache(cache -> cache.disable())
                .authorizeHttpRequests(auth -> auth
                        .requestMatchers(HttpMethod.POST, AccessRules.LOGIN_PATH).permitAll()
                        // the lab and the route ceiling harness load the server on purpose: not a member's to call
                        .requestMatchers(AccessRules.ADMIN_PATHS.toArray(String[]::new)).hasRole(TokenService.ADMIN)
                        .requestMatchers("/api/**").authenticated()
                        .requestMatchers("/actuator/health", "/actuator/health/**", "/actuator/prometheus", "/actuator/info")
                        .permitAll()
                        .requestMatchers("/actuator/**").hasRole(TokenService.ADMIN)
                        .anyRequest().permitAll())
                .oauth2ResourceServer(rs -> rs
                        .bearerTokenResolver(bearerTokens)
                        .jwt(jwt -> jwt.jwtAuthenticationConverter(rolesFromClaim()))
                        .authenticationEntryPoint((request, response, e) -> problems.write(response,
                                HttpStatus.UNAUTHORIZED, "unauthorized", "A valid Bearer token is required."))
                        .accessDeniedHandler((request, response, e) -> problems.write(response,
                                HttpStatus.FORBIDDEN, "forbidden", "This token may not do that.")))
                .exceptionHandling(ex -> ex
                        .authenticationEntryPoint((request, response, e) -> problems.write(response,
                                HttpStatus.UNAUTHORIZED, "unauthorized", "A valid Bearer token is required.")))
                .build();
    }

    /**
     * Any method reaches Spring MVC, which answers one a path does not support with 405 and {@code Allow}
     * ({@code method-not-allowed}); the default firewall would refuse an unknown one ({@code QUERY}) with a bare 400
     * before routing. Safe here because no authorization rule depends on the method but the login's
     * {@code permitAll}, which only opens POST: every other method on that path still needs a token.
     */
    @Bean
    HttpFirewall httpFirewall() {
        StrictHttpFirewall firewall = new StrictHttpFirewall();
        firewall.setUnsafeAllowAnyHttpMethod(true);
        return firewall;
    }

    /** Each entry of the {@code roles} claim becomes {@code ROLE_<entry>}; a token without the claim has no role. */
    private static JwtAuthenticationConverter rolesFromClaim() {
        JwtGrantedAuthoritiesConverter roles = new JwtGrantedAuthoritiesConverter();
        roles.setAuthoritiesClaimName(TokenService.ROLES_CLAIM);
        roles.setAuthorityPrefix("ROLE_");
        JwtAuthenticationConverter converter = new JwtAuthenticationConverter();
        converter.setJwtGrantedAuthoritiesConverter(roles);
        return converter;
    }

    @Bean
    SecretKey jwtKey(JwtProperties properties) {
        return new SecretKeySpec(properties.secret().getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    @Bean
    JwtEncoder jwtEncoder(SecretKey jwtKey) {
        return new NimbusJwtEncoder(new ImmutableSecret<>(jwtKey));
    }

    @Bean
    JwtDecoder jwtDecoder(SecretKey jwtKey, JwtProperties properties) {
        NimbusJwtDecoder decoder = NimbusJwtDecoder.withSecretKey(jwtKey).macAlgorithm(MacAlgorithm.HS256).build();
        OAuth2TokenValidator<Jwt> validator = new DelegatingOAuth2TokenValidator<>(JwtValidators.createDefaultWithIssuer(properties.issuer()));
        decoder.setJwtValidator(validator);
        return properties.verifiedCacheSize() > 0
                ? new VerifiedTokenCache(decoder, validator, properties.verifiedCacheSize(), properties.ttl()) : decoder;
    }

    @Bean
    TokenService tokenService(JwtEncoder jwtEncoder, JwtProperties properties) {
        return new TokenService(jwtEncoder, properties, Clock.systemUTC());
    }
}

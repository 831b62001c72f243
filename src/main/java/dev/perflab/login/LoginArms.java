package dev.perflab.login;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

import dev.perflab.login.client.PerRequestClientConfiguration;
import dev.perflab.login.client.PooledClientConfiguration;
import dev.perflab.support.interleave.ArmChoice;
import dev.perflab.support.interleave.InterleaveProperties;
import dev.perflab.support.interleave.Side;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Login in the interleaved mode ({@code perflab.lab.interleave.enabled=true}): beside the client the app's knob chose,
 * the other side's is built (per-request for {@code before}, pooled for {@code after}; keep-alive counts as before),
 * and each login calls the auth API through its arm's client. Both arms share the guard and its bulkhead.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty("perflab.lab.interleave.enabled")
class LoginArms {

    /** The client of the side the knob did not choose, closed with the app. */
    record OtherSideClient(Side side, CloseableHttpClient http) implements AutoCloseable {

        @Override
        public void close() throws java.io.IOException {
            http.close();
        }
    }

    static Side sideOf(LoginKnobs knobs) {
        return knobs.client() == LoginKnobs.Client.POOLED ? Side.AFTER : Side.BEFORE;
    }

    @Bean(destroyMethod = "close")
    OtherSideClient otherSideAuthApiClient(LoginKnobs knobs, AuthApiHttpClients clients, AuthApiProperties properties) {
        return sideOf(knobs) == Side.AFTER
                ? new OtherSideClient(Side.BEFORE, PerRequestClientConfiguration.build(clients))
                : new OtherSideClient(Side.AFTER, PooledClientConfiguration.build(clients, properties));
    }

    /** Each login's auth API by its arm: the knob's client, or the other side's. */
    static AuthApi route(InterleaveProperties arms, Side ownSide, AuthApi own, OtherSideClient other, AuthApiProperties properties,
            AuthApiGuard guard) {
        AuthApi others = new RestClientAuthApi(other.http(), properties, guard);
        return new ArmAuthApi(new ArmChoice<>(arms, Map.of(ownSide, own, other.side(), others), ownSide));
    }

    record ArmAuthApi(ArmChoice<AuthApi> choice) implements AuthApi {

        @Override
        public Optional<ExternalProfile> authenticate(Credentials credentials) {
            return choice.current().authenticate(credentials);
        }

        @Override
        public void ping() {
            choice.current().ping();
        }

        @Override
        public Duration slow(int delayMs) {
            return choice.current().slow(delayMs);
        }
    }
}

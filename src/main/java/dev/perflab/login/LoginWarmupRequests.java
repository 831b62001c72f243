package dev.perflab.login;

import java.util.List;
import java.util.Map;

import dev.perflab.support.warmup.WarmupRequest;
import dev.perflab.support.warmup.WarmupRequests;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/** The login's share of the server warm-up: logins of the stub's warm-up account (only its member row is written). */
@Component
@ConditionalOnProperty(name = "perflab.server.warmup", havingValue = "on")
class LoginWarmupRequests implements WarmupRequests {

    private final AuthApiProperties properties;

    LoginWarmupRequests(AuthApiProperties properties) {
        this.properties = properties;
    }

    @Override
    public List<WarmupRequest> warmupRequests() {
        String body = properties.warmup().loginBody();
        return body == null ? List.of()
                : List.of(new WarmupRequest("POST", "/api/auth/login", Map.of("Content-Type", "application/json"), body));
    }
}

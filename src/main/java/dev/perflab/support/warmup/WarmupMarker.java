package dev.perflab.support.warmup;

import java.util.UUID;

import org.springframework.stereotype.Component;

/**
 * Tells the warm-up's own requests apart from users': the warm-up sends {@link #HEADER} with a secret made at
 * startup that never leaves the process, so no client can ask for a dry run.
 */
@Component
public class WarmupMarker {

    public static final String HEADER = "X-Perflab-Warmup";

    private final String secret = UUID.randomUUID().toString();

    String secret() {
        return secret;
    }

    /** Whether a request carried this process's warm-up secret. */
    public boolean isWarmup(String headerValue) {
        return secret.equals(headerValue);
    }
}

package dev.perflab.support.warmup;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How much the server warm-up ({@code perflab.server.warmup=on}) sends before readiness.
 *
 * @param requests    requests in all, round the features' lists (seed 000: about 300 did it)
 * @param concurrency workers sending at once, so that the pools (Tomcat, Hikari, Redis) open more than one connection
 * @param timeout     the bound: a dependency that is down cannot hold startup longer than this
 */
@ConfigurationProperties("perflab.warmup")
public record WarmupProperties(
        @DefaultValue("300") int requests,
        @DefaultValue("4") int concurrency,
        @DefaultValue("30s") Duration timeout) {
}

package dev.perflab.support.server;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The server's thread model, shared by every feature.
 *
 * @param threads {@code platform}: Tomcat's bounded pool of platform threads ({@code server.tomcat.threads.max});
 *                {@code virtual}: one virtual thread per request ({@code spring.threads.virtual.enabled}).
 * @param warmup  {@code on}: before readiness, the app sends {@code perflab.warmup.requests} of every feature's hot
 *                requests to itself (seed 000's ~300 warm-up requests); {@code off}: the first users warm it.
 */
@ConfigurationProperties("perflab.server")
public record ServerKnobs(@DefaultValue("platform") Threads threads, @DefaultValue("off") Warmup warmup) {

    public enum Threads {
        PLATFORM, VIRTUAL
    }

    public enum Warmup {
        OFF, ON
    }
}

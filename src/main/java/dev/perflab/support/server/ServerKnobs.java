package dev.perflab.support.server;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The server's thread model, shared by every feature.
 *
 * @param threads {@code platform}: Tomcat's bounded pool of platform threads ({@code server.tomcat.threads.max});
 *                {@code virtual}: one virtual thread per request ({@code spring.threads.virtual.enabled}).
 */
@ConfigurationProperties("perflab.server")
public record ServerKnobs(@DefaultValue("platform") Threads threads) {

    public enum Threads {
        PLATFORM, VIRTUAL
    }
}

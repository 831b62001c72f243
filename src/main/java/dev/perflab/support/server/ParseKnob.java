package dev.perflab.support.server;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the app parses the text it reads on every request (seed 000): the {@code Authorization: Bearer}
 * header today.
 *
 * @param header {@code naive}: {@code split}/{@code toLowerCase}/{@code trim} in one large method;
 *               {@code lean}: {@code regionMatches} and an index scan in methods small enough to inline
 */
@ConfigurationProperties("perflab.parse")
public record ParseKnob(@DefaultValue("naive") Header header) {

    public enum Header { NAIVE, LEAN }
}

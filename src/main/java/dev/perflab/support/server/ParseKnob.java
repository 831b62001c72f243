package dev.perflab.support.server;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the app parses the text it reads on every request (seed 000): the {@code Authorization: Bearer}
 * header ({@code SecurityConfiguration}) and the wallet's {@code Idempotency-Key} ({@code ParseConfiguration}).
 * See docs/parsing.md.
 *
 * @param header {@code naive}: {@code split}/{@code toLowerCase}/{@code trim}, the Bearer parse in one method
 *               too large to inline; {@code lean}: {@code regionMatches} and index arithmetic in methods small
 *               enough to inline, allocating only the result
 */
@ConfigurationProperties("perflab.parse")
public record ParseKnob(@DefaultValue("naive") Header header) {

    public enum Header { NAIVE, LEAN }
}

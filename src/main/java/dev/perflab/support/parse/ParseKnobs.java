package dev.perflab.support.parse;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The header-parsing knob (seed 000): how the app parses the text it reads on every request, the
 * {@code Authorization: Bearer} header and the wallet's {@code Idempotency-Key}. {@link ParseConfiguration} picks
 * both parsers; what the presets {@code before} and {@code after} set lives in {@code features/parse.yml}.
 * See docs/parsing.md.
 *
 * @param header {@code naive}: {@code split}/{@code toLowerCase}/{@code trim}, the Bearer parse in one method
 *               too large to inline; {@code lean}: {@code regionMatches} and index arithmetic in methods small
 *               enough to inline, allocating only the result
 */
@ConfigurationProperties("perflab.parse")
public record ParseKnobs(@DefaultValue("naive") Header header) {

    public enum Header { NAIVE, LEAN }
}

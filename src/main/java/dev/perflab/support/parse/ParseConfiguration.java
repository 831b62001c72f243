package dev.perflab.support.parse;

import dev.perflab.support.parse.after.LeanIdempotencyKeyParser;
import dev.perflab.support.parse.before.NaiveIdempotencyKeyParser;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The per-request header parsers of {@code perflab.parse.header} (seed 000) other than the Bearer token's,
 * which {@code SecurityConfiguration} picks with the same knob.
 */
@Configuration(proxyBeanMethods = false)
class ParseConfiguration {

    /** {@code perflab.parse.header=naive}: {@code trim}/{@code toLowerCase}/{@code split} and {@code Long.parseLong}. */
    @Bean
    @ConditionalOnProperty(name = "perflab.parse.header", havingValue = "naive", matchIfMissing = true)
    IdempotencyKeyParser naiveIdempotencyKeyParser() {
        return new NaiveIdempotencyKeyParser();
    }

    /** {@code perflab.parse.header=lean}: index arithmetic, the UUID its only allocation. */
    @Bean
    @ConditionalOnProperty(name = "perflab.parse.header", havingValue = "lean")
    IdempotencyKeyParser leanIdempotencyKeyParser() {
        return new LeanIdempotencyKeyParser();
    }
}

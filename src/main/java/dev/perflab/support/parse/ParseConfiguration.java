package dev.perflab.support.parse;

import dev.perflab.support.parse.after.LeanBearerTokenResolver;
import dev.perflab.support.parse.after.LeanIdempotencyKeyParser;
import dev.perflab.support.parse.before.NaiveBearerTokenResolver;
import dev.perflab.support.parse.before.NaiveIdempotencyKeyParser;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.oauth2.server.resource.web.BearerTokenResolver;

/**
 * The one place {@code perflab.parse.header} ({@link ParseKnobs}) is wired: each value gives both per-request header
 * parsers, the {@code Authorization} header's (used by {@code SecurityConfiguration}) and the {@code Idempotency-Key}'s
 * (used by the wallet).
 */
@Configuration(proxyBeanMethods = false)
class ParseConfiguration {

    /** {@code perflab.parse.header=naive}: {@code trim}/{@code toLowerCase}/{@code split}, the seed 000 style. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "perflab.parse.header", havingValue = "naive", matchIfMissing = true)
    static class Naive {

        @Bean
        BearerTokenResolver naiveBearerTokenResolver() {
            return new NaiveBearerTokenResolver();
        }

        @Bean
        IdempotencyKeyParser naiveIdempotencyKeyParser() {
            return new NaiveIdempotencyKeyParser();
        }
    }

    /** {@code perflab.parse.header=lean}: index arithmetic in inlinable methods, the result its only allocation. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "perflab.parse.header", havingValue = "lean")
    static class Lean {

        @Bean
        BearerTokenResolver leanBearerTokenResolver() {
            return new LeanBearerTokenResolver();
        }

        @Bean
        IdempotencyKeyParser leanIdempotencyKeyParser() {
            return new LeanIdempotencyKeyParser();
        }
    }
}

package dev.perflab.sprout;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Seed 000's own server ("sprout"): a small hand-written HTTP/1.1 server inside the app, on a port of its own,
 * off unless {@code enabled}. Its three knobs are the write-up's axes; the rest bound what a client can hold.
 * features/sprout.yml lists them; docs/cold-start.md explains the experiment.
 *
 * @param enabled        whether the server starts with the app (off by default)
 * @param port           its port; unset: {@code server.port} + 1000 (8091 gives 9091), so that each A/B app has its own
 * @param host           the address it binds: the loopback only, unless set
 * @param io             {@code blocking}: a {@code ServerSocket} and a thread per connection (the write-up's "BIO"
 *                       or "hybrid"); {@code nonblocking}: one {@code Selector} thread hands each ready request to a
 *                       worker (its "NIO")
 * @param threads        {@code platform} or {@code virtual}: the threads that serve connections (blocking) or requests
 *                       (nonblocking)
 * @param reader         the request reader: {@code monolithic}, the write-up's first (one method too large to inline,
 *                       {@code split}/{@code toLowerCase}, a 50/50 branch) or {@code refactored}, its fix (small methods,
 *                       the frequent case first, {@code indexOf} + {@code regionMatches})
 * @param readTimeout    the longest wait for a whole request (slowloris: 408 and close) or an idle keep-alive
 * @param maxConnections open connections at once; one more is answered 503 and closed
 * @param backlog        the accept queue the kernel keeps
 * @param workers        platform threads of the nonblocking server's worker pool
 */
@ConfigurationProperties("perflab.sprout")
public record SproutKnobs(
        @DefaultValue("false") boolean enabled,
        Integer port,
        @DefaultValue("127.0.0.1") String host,
        @DefaultValue("blocking") Io io,
        @DefaultValue("platform") Threads threads,
        @DefaultValue("monolithic") Reader reader,
        @DefaultValue("5s") Duration readTimeout,
        @DefaultValue("256") int maxConnections,
        @DefaultValue("128") int backlog,
        @DefaultValue("8") int workers) {

    public SproutKnobs {
        if (maxConnections < 1 || backlog < 1 || workers < 1) {
            throw new IllegalArgumentException("perflab.sprout.max-connections, backlog and workers must be at least 1");
        }
        if (readTimeout.isNegative() || readTimeout.isZero()) {
            throw new IllegalArgumentException("perflab.sprout.read-timeout must be positive");
        }
    }

    public enum Io {
        BLOCKING, NONBLOCKING
    }

    public enum Threads {
        PLATFORM, VIRTUAL
    }

    public enum Reader {
        MONOLITHIC, REFACTORED
    }
}

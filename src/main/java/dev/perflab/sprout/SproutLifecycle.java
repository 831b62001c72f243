package dev.perflab.sprout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Locale;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;

/**
 * Starts the sprout server with the app when {@code perflab.sprout.enabled=true} (before readiness says
 * ACCEPTING_TRAFFIC, so a client that polls readiness finds it listening) and stops it with the context, every
 * connection closed and every thread ended. One log line when it starts; none per request.
 */
final class SproutLifecycle implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(SproutLifecycle.class);
    private static final Duration GRACE = Duration.ofSeconds(5);

    private final SproutKnobs knobs;
    private final SproutServer server;

    SproutLifecycle(SproutKnobs knobs, int port, SproutMeters meters) {
        this.knobs = knobs;
        this.server = new SproutServer(knobs, new InetSocketAddress(knobs.host(), port), meters);
    }

    /** {@code perflab.sprout.port}, else {@code server.port} + 1000 (a random app port gives a random one). */
    static int port(SproutKnobs knobs, int serverPort) {
        if (knobs.port() != null) {
            return knobs.port();
        }
        return serverPort == 0 ? 0 : serverPort + 1000;
    }

    @Override
    public boolean isAutoStartup() {
        return knobs.enabled();
    }

    @Override
    public void start() {
        if (!knobs.enabled()) {
            return;
        }
        try {
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException("sprout server: cannot listen on " + knobs.host() + " (perflab.sprout.port)", e);
        }
        log.info("sprout server on {}:{} (io={}, threads={}, reader={})", knobs.host(), server.port(),
                knobs.io().name().toLowerCase(Locale.ROOT), knobs.threads().name().toLowerCase(Locale.ROOT),
                knobs.reader().name().toLowerCase(Locale.ROOT));
    }

    @Override
    public void stop() {
        if (!server.stop(GRACE)) {
            log.warn("sprout server: some threads did not end within {}", GRACE);
        }
    }

    @Override
    public boolean isRunning() {
        return server.isRunning();
    }

    int port() {
        return server.port();
    }
}

package dev.perflab.login.after;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.perflab.login.AuthApi;
import dev.perflab.login.AuthApiProperties;
import dev.perflab.login.LoginKnobs;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Fast first login after an idle period, at a price: the call every 20 s that the case study proposed. Every
 * {@code perflab.login.auth-api.keep-alive.refresh-every} (15 s, inside the keep-alive client's 20 s) a ping to the
 * auth API reuses the connection the last call left open before it expires, so an idle app still holds one. The
 * price: a call to the external API every 15 s whether anyone logs in or not, and only one connection is kept
 * (HttpClient leases the most recently used first), so concurrent logins still open new ones. Shows as
 * {@code perflab_login_keepalive_refresh_total{outcome}} ticking and no new connection
 * ({@code perflab_login_http_connections_opened_total}) on the first login after an idle period
 * ({@code ./perflab ab login-keepalive}). Stops with the application context, before the client closes.
 */
@Component
@ConditionalOnProperty(name = "perflab.login.keep-alive-refresh", havingValue = "on")
public class KeepAliveRefresh implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(KeepAliveRefresh.class);

    private final AuthApi authApi;
    private final Duration every;
    private final Duration stopWithin;
    private final Counter refreshed;
    private final Counter failed;
    private ScheduledExecutorService scheduler;

    KeepAliveRefresh(AuthApi authApi, AuthApiProperties properties, LoginKnobs knobs, MeterRegistry registry) {
        AuthApiProperties.KeepAlive keepAlive = properties.keepAlive();
        this.every = keepAlive.refreshEvery();
        if (!every.isPositive()) {
            throw new IllegalStateException("perflab.login.auth-api.keep-alive.refresh-every must be positive, not " + every);
        }
        if (knobs.client() == LoginKnobs.Client.KEEP_ALIVE && every.compareTo(keepAlive.duration()) >= 0) {
            throw new IllegalStateException("perflab.login.auth-api.keep-alive.refresh-every (" + every
                    + ") must be below the keep-alive (" + keepAlive.duration() + "), or the connection expires first");
        }
        this.authApi = authApi;
        this.stopWithin = properties.responseTimeout().plusSeconds(1);
        this.refreshed = outcome(registry, "ok");
        this.failed = outcome(registry, "failed");
    }

    private static Counter outcome(MeterRegistry registry, String outcome) {
        return Counter.builder("perflab.login.keepalive.refresh").description("keep-alive refresh calls to the auth API")
                .tag("outcome", outcome).register(registry);
    }

    /** One refresh: a ping (no credentials), counted; a failure is logged and the schedule goes on. */
    void refresh() {
        try {
            authApi.ping();
            refreshed.increment();
        } catch (RuntimeException e) {
            failed.increment();
            log.warn("keep-alive refresh: the auth API did not answer ({}); trying again in {}", rootCause(e), every);
        }
    }

    /** The innermost cause's class and message: a ping carries no credentials, so nothing secret can be in it. */
    private static String rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    @Override
    public synchronized void start() {
        if (scheduler != null) {
            return;
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("auth-api-keep-alive-refresh").daemon().factory());
        scheduler.scheduleAtFixedRate(this::refresh, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
        log.info("keep-alive refresh: a ping to the auth API every {}", every);
    }

    /** Cancels the schedule and waits for a refresh in flight (at most the response timeout). */
    @Override
    public synchronized void stop() {
        if (scheduler == null) {
            return;
        }
        scheduler.shutdownNow();
        try {
            if (!scheduler.awaitTermination(stopWithin.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("keep-alive refresh: a ping still in flight after {}", stopWithin);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        scheduler = null;
    }

    @Override
    public synchronized boolean isRunning() {
        return scheduler != null;
    }
}

package dev.perflab.login.after;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.perflab.login.AuthApi;
import dev.perflab.login.AuthApiProperties;
import dev.perflab.support.warmup.SelfRequests;
import dev.perflab.support.warmup.WarmupRequest;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.stereotype.Component;

/**
 * Fast first request: before readiness turns ACCEPTING_TRAFFIC, opens the auth API connections with
 * concurrent pings (TCP + TLS paid now, not by a user) and sends real logins of the stub's warm-up
 * account through the app's own port, so Tomcat, security, Jackson, validation, the client, MyBatis and
 * the token code are loaded and JIT-compiled. Only the warm-up account's member row is written. Bounded
 * by {@code perflab.login.auth-api.warmup.timeout}. Shows as the first/second login ratio of
 * {@code ./perflab ab first-request} and {@code perflab_login_warmup_seconds}.
 */
@Component
@ConditionalOnProperty(name = "perflab.login.warmup", havingValue = "on")
public class LoginWarmup implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(LoginWarmup.class);

    private final AuthApi authApi;
    private final AuthApiProperties.Warmup settings;
    private final ApplicationContext context;
    private final Timer timer;
    private volatile Result result;

    LoginWarmup(AuthApi authApi, AuthApiProperties properties, ApplicationContext context, MeterRegistry registry) {
        this.authApi = authApi;
        this.settings = properties.warmup();
        this.context = context;
        this.timer = Timer.builder("perflab.login.warmup").description("how long the login warm-up took").register(registry);
    }

    /** What the last warm-up did; null until it has run. */
    public Result result() {
        return result;
    }

    public record Result(int pings, int logins, int failures, Duration took, Instant finishedAt, boolean timedOut) {
    }

    @Override
    public void run(ApplicationArguments args) throws InterruptedException {
        long started = System.nanoTime();
        AtomicInteger pings = new AtomicInteger();
        AtomicInteger logins = new AtomicInteger();
        AtomicInteger failures = new AtomicInteger();
        ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();
        boolean timedOut = false;
        try {
            Future<?> warmup = workers.submit(() -> {
                openConnections(workers, pings, failures);
                exerciseLogin(workers, logins, failures);
                return null;
            });
            warmup.get(settings.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            timedOut = true;
            log.warn("login warm-up gave up after {} (is the auth API up?); starting anyway", settings.timeout());
        } catch (java.util.concurrent.ExecutionException e) {
            log.warn("login warm-up failed: {}; starting anyway", e.getCause().toString());
        } finally {
            workers.shutdownNow();
        }
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        timer.record(took);
        result = new Result(pings.get(), logins.get(), failures.get(), took, Instant.now(), timedOut);
        log.info("login warm-up: {} pings, {} logins, {} failures in {} ms", pings, logins, failures, took.toMillis());
    }

    /** Concurrent pings, so that each holds its own connection and the pool grows to that many. */
    private void openConnections(ExecutorService workers, AtomicInteger pings, AtomicInteger failures) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> calls = new ArrayList<>();
        for (int i = 0; i < settings.connections(); i++) {
            calls.add(workers.submit(() -> {
                start.await();
                try {
                    authApi.ping();
                    pings.incrementAndGet();
                } catch (RuntimeException e) {
                    failures.incrementAndGet();
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> call : calls) {
            call.get();
        }
    }

    /** Real logins over HTTP on the app's own port, spread over as many workers as connections. */
    private void exerciseLogin(ExecutorService workers, AtomicInteger logins, AtomicInteger failures) throws Exception {
        String body = settings.loginBody();
        if (!(context instanceof WebServerApplicationContext web) || web.getWebServer() == null || body == null) {
            return;
        }
        WarmupRequest login = new WarmupRequest("POST", "/api/auth/login", Map.of("Content-Type", "application/json"), body);
        SelfRequests.Outcome outcome = SelfRequests.send(URI.create("http://127.0.0.1:" + web.getWebServer().getPort()),
                List.of(login), settings.logins(), settings.connections(), workers);
        logins.addAndGet(outcome.succeeded());
        failures.addAndGet(outcome.failed());
    }
}

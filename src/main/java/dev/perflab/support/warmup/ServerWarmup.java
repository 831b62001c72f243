package dev.perflab.support.warmup;

import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.stereotype.Component;

/**
 * Seed 000's fix, the rest of it: before readiness turns ACCEPTING_TRAFFIC, sends {@code perflab.warmup.requests}
 * (300) of every feature's hot requests through the app's own port, so the first users find the whole path
 * loaded, linked and compiled, and the pools open. Shows as the first-100 and first-1,000 windows of
 * {@code ./perflab ab cold-start} and as {@code perflab_server_warmup_seconds}.
 */
@Component
@ConditionalOnProperty(name = "perflab.server.warmup", havingValue = "on")
class ServerWarmup implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(ServerWarmup.class);

    private final ObjectProvider<WarmupRequests> features;
    private final WarmupMarker marker;
    private final WarmupProperties settings;
    private final ApplicationContext context;
    private final Timer timer;
    private volatile SelfRequests.Outcome outcome;
    private volatile Instant finishedAt;

    ServerWarmup(ObjectProvider<WarmupRequests> features, WarmupMarker marker, WarmupProperties settings,
            ApplicationContext context, MeterRegistry registry) {
        this.features = features;
        this.marker = marker;
        this.settings = settings;
        this.context = context;
        this.timer = Timer.builder("perflab.server.warmup").description("how long the server warm-up took").register(registry);
    }

    @Override
    public void run(ApplicationArguments args) throws Exception {
        if (!(context instanceof WebServerApplicationContext web) || web.getWebServer() == null) {
            return;
        }
        long started = System.nanoTime();
        List<WarmupRequest> requests = marked(features.orderedStream().flatMap(f -> f.warmupRequests().stream()).toList());
        URI base = URI.create("http://127.0.0.1:" + web.getWebServer().getPort());
        SelfRequests.Outcome outcome = new SelfRequests.Outcome(0, 0);
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        try {
            Future<SelfRequests.Outcome> sent = executor.submit(
                    () -> SelfRequests.send(base, requests, settings.requests(), settings.concurrency(), executor));
            outcome = sent.get(settings.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            log.warn("server warm-up gave up after {} (is a dependency down?); starting anyway", settings.timeout());
        } finally {
            executor.shutdownNow();
        }
        this.outcome = outcome;
        this.finishedAt = Instant.now();
        long took = System.nanoTime() - started;
        timer.record(took, TimeUnit.NANOSECONDS);
        log.info("server warm-up: {} requests of {} kinds, {} failed, in {} ms", outcome.succeeded() + outcome.failed(),
                requests.size(), outcome.failed(), TimeUnit.NANOSECONDS.toMillis(took));
    }

    /** What the warm-up sent, and when it finished; null before it has run. */
    SelfRequests.Outcome outcome() {
        return outcome;
    }

    Instant finishedAt() {
        return finishedAt;
    }

    private List<WarmupRequest> marked(List<WarmupRequest> requests) {
        List<WarmupRequest> marked = new ArrayList<>();
        for (WarmupRequest r : requests) {
            Map<String, String> headers = new HashMap<>(r.headers());
            headers.put(WarmupMarker.HEADER, marker.secret());
            marked.add(new WarmupRequest(r.method(), r.path(), headers, r.body()));
        }
        return marked;
    }
}

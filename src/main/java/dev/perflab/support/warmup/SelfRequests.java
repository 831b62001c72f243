package dev.perflab.support.warmup;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends requests to the app's own port, as a user would, from a few concurrent workers: {@code total} requests,
 * going round the given list. Used by the warm-ups before readiness.
 */
public final class SelfRequests {

    public record Outcome(int succeeded, int failed) {
    }

    private SelfRequests() {
    }

    /** Blocks until all are sent; a 2xx answer is a success, anything else (or an I/O error) a failure. */
    public static Outcome send(URI base, List<WarmupRequest> requests, int total, int workers, ExecutorService executor)
            throws Exception {
        if (requests.isEmpty() || total <= 0) {
            return new Outcome(0, 0);
        }
        AtomicInteger next = new AtomicInteger();
        AtomicInteger succeeded = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()) {
            List<Future<?>> loops = new ArrayList<>();
            for (int w = 0; w < Math.max(1, workers); w++) {
                loops.add(executor.submit(() -> {
                    for (int i = next.getAndIncrement(); i < total && !Thread.currentThread().isInterrupted();
                            i = next.getAndIncrement()) {
                        boolean ok = sendOne(client, base, requests.get(i % requests.size()));
                        (ok ? succeeded : failed).incrementAndGet();
                    }
                    return null;
                }));
            }
            for (Future<?> loop : loops) {
                loop.get();
            }
        }
        return new Outcome(succeeded.get(), failed.get());
    }

    private static boolean sendOne(HttpClient client, URI base, WarmupRequest request) throws InterruptedException {
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(request.path())).timeout(Duration.ofSeconds(5))
                .method(request.method(), request.body() == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(request.body()));
        request.headers().forEach(builder::header);
        try {
            int status = client.send(builder.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
            return status >= 200 && status < 300;
        } catch (java.io.IOException e) {
            return false;
        }
    }
}

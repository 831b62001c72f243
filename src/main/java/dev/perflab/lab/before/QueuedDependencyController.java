package dev.perflab.lab.before;

import java.util.concurrent.CompletableFuture;

import dev.perflab.lab.before.QueuedAsyncConfiguration.QueuedCalls;
import dev.perflab.lab.before.QueuedDependency.QueuedAnswer;
import dev.perflab.support.problem.ApiException;

import org.springframework.core.task.TaskRejectedException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Fails under a burst: the case study's {@code @Async} on a bounded executor ({@code GET /api/lab/dependency/queued},
 * pool 2, queue 10, 3 s tasks by default). The request thread goes back to Tomcat at once, but only pool + queue
 * calls fit: the rest are rejected within milliseconds (503 {@code lab-queue-full}), and the accepted ones wait
 * their turn behind 2 workers, the last one queue / pool + 1 tasks long (18 s). Shows as
 * {@code perflab_lab_queued_calls_total{outcome="rejected"}}, {@code executor_queued_tasks{name="labQueuedExecutor"}} at its
 * capacity and {@code http_server_requests} max in seconds while its p50 is a few milliseconds. Admin only, like
 * every {@code /api/lab/**} path.
 */
@RestController
class QueuedDependencyController {

    private final QueuedDependency dependency;
    private final QueuedCalls calls;
    private final long retryAfterSeconds;

    QueuedDependencyController(QueuedDependency dependency, QueuedCalls calls, QueuedAsyncProperties properties) {
        this.dependency = dependency;
        this.calls = calls;
        this.retryAfterSeconds = Math.max(1, (properties.taskTime().toMillis() + 999) / 1000); // a worker frees up
    }

    @GetMapping("/api/lab/dependency/queued")
    CompletableFuture<QueuedAnswer> queued() {
        try {
            CompletableFuture<QueuedAnswer> answer = dependency.call(System.nanoTime());
            calls.accepted().increment();
            return answer;
        } catch (TaskRejectedException e) {
            calls.rejected().increment();
            throw new QueueFullException(retryAfterSeconds);
        }
    }

    /** 503 with {@code Retry-After}: every worker is busy and the queue is full. */
    static final class QueueFullException extends ApiException {

        private final long retryAfterSeconds;

        QueueFullException(long retryAfterSeconds) {
            super(HttpStatus.SERVICE_UNAVAILABLE, "lab-queue-full",
                    "Every worker is busy and the queue is full; try again shortly.");
            this.retryAfterSeconds = retryAfterSeconds;
        }

        @Override
        public HttpHeaders headers() {
            HttpHeaders headers = new HttpHeaders();
            headers.set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
            return headers;
        }
    }
}

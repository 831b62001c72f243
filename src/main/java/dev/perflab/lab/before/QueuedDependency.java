package dev.perflab.lab.before;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.perflab.support.problem.ApiException;

import org.springframework.http.HttpStatus;
import org.springframework.scheduling.annotation.Async;
import org.springframework.stereotype.Service;

/** The case study's {@code AsyncService}: each task blocks one of the pool's workers for the task time. */
@Service
class QueuedDependency {

    private final Duration taskTime;

    QueuedDependency(QueuedAsyncProperties properties) {
        this.taskTime = properties.taskTime();
    }

    /** Runs on a {@code lab-queued-} worker; {@code submittedAt} (nanoTime) gives the time spent in the queue. */
    @Async(QueuedAsyncConfiguration.EXECUTOR)
    public CompletableFuture<QueuedAnswer> call(long submittedAt) {
        long started = System.nanoTime();
        try {
            Thread.sleep(taskTime); // the slow dependency, as in the case study
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "lab-task-cancelled",
                    "The task was cancelled before it finished (the app is stopping).");
        }
        long ended = System.nanoTime();
        return CompletableFuture.completedFuture(new QueuedAnswer(taskTime.toMillis(),
                Duration.ofNanos(started - submittedAt).toMillis(), Duration.ofNanos(ended - submittedAt).toMillis(),
                Thread.currentThread().getName()));
    }

    /** How long the task ran, waited in the queue, and took in all, and which worker ran it. */
    record QueuedAnswer(long taskMs, long queuedMs, long tookMs, String worker) {
    }
}

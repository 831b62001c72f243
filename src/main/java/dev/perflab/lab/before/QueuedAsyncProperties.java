package dev.perflab.lab.before;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The queued {@code @Async} endpoint's executor and task, with the case study's values as defaults.
 *
 * @param poolSize      worker threads (core and max alike)
 * @param queueCapacity tasks that wait for a worker; one more is rejected
 * @param taskTime      how long each task blocks its worker (the slow dependency)
 */
@ConfigurationProperties("perflab.lab.queued")
record QueuedAsyncProperties(
        @DefaultValue("2") int poolSize,
        @DefaultValue("10") int queueCapacity,
        @DefaultValue("3s") Duration taskTime) {
}

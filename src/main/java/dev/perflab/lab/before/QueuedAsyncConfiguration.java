package dev.perflab.lab.before;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

/**
 * The case study's {@code limitedExecutor}: a fixed pool with a bounded queue, behind {@code @Async}. Spring Boot
 * binds its gauges as {@code executor_queued_tasks{name="labQueuedExecutor"}}, {@code executor_active_threads} and
 * {@code executor_queue_remaining_tasks}; {@code perflab_lab_queued_calls_total{outcome}} counts the accepted and
 * the rejected calls (registered at 0).
 */
@Configuration(proxyBeanMethods = false)
@EnableAsync
class QueuedAsyncConfiguration {

    /** The bean name: the {@code @Async} qualifier and the {@code name} tag of Boot's executor metrics. */
    static final String EXECUTOR = "labQueuedExecutor";

    @Bean(EXECUTOR)
    ThreadPoolTaskExecutor labQueuedExecutor(QueuedAsyncProperties properties) {
        ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
        executor.setCorePoolSize(properties.poolSize());
        executor.setMaxPoolSize(properties.poolSize());
        executor.setQueueCapacity(properties.queueCapacity());
        executor.setThreadNamePrefix("lab-queued-");
        return executor;
    }

    @Bean
    QueuedCalls queuedCalls(MeterRegistry registry) {
        return new QueuedCalls(outcome(registry, "accepted"), outcome(registry, "rejected"));
    }

    private static Counter outcome(MeterRegistry registry, String outcome) {
        return Counter.builder("perflab.lab.queued.calls").description("queued @Async calls, accepted or rejected at once")
                .tag("outcome", outcome).register(registry);
    }

    /** The two counters of {@code perflab_lab_queued_calls_total}. */
    record QueuedCalls(Counter accepted, Counter rejected) {
    }
}

package dev.perflab.login.before;

import java.util.function.Supplier;

import dev.perflab.login.AuthApiGuard;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * Slow under a slow dependency: nothing limits the calls in flight, so each waits up to the response
 * timeout on its own request thread. With 10 platform threads and a 1 s dependency, throughput stops at
 * 10 req/s and the rest queue (seed 002). Shows as {@code tomcat_threads_busy_threads} at its max and
 * {@code http_server_requests} latency growing with the queue.
 */
@Component
@ConditionalOnProperty(name = "perflab.login.guard", havingValue = "none", matchIfMissing = true)
class UnguardedCalls implements AuthApiGuard.Factory {

    @Override
    public AuthApiGuard create(String dependency) {
        return new AuthApiGuard() {
            @Override
            public <T> T call(Supplier<T> call) {
                return call.get();
            }
        };
    }
}

package dev.perflab.lab;

import dev.perflab.login.AuthApi;
import dev.perflab.support.problem.ApiException;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Seed 002's slow dependency: {@code GET /api/lab/dependency?delayMs=1000} calls the stub's {@code /slow}
 * through login's auth API client and the chosen guard (a bulkhead and circuit breaker of the lab's own, never the
 * login's), so the thread model and the bulkhead decide what happens when 20 clients wait on a 1 s dependency
 * ({@code ./perflab ab slow-dependency}). Admin only, like every {@code /api/lab/**} path.
 */
@RestController
class DependencyLabController {

    private final AuthApi authApi;

    DependencyLabController(@Qualifier("labDependencyApi") AuthApi authApi) {
        this.authApi = authApi;
    }

    @GetMapping("/api/lab/dependency")
    Answer dependency(@RequestParam(defaultValue = "1000") int delayMs) {
        if (!AuthApi.SLOW_DELAYS_MS.contains(delayMs)) {
            throw new ApiException(HttpStatus.BAD_REQUEST, "invalid-parameter",
                    "delayMs must be one of " + AuthApi.SLOW_DELAYS_MS);
        }
        return new Answer(delayMs, authApi.slow(delayMs).toMillis(), Thread.currentThread().isVirtual());
    }

    record Answer(int delayMs, long tookMs, boolean virtualThread) {
    }
}

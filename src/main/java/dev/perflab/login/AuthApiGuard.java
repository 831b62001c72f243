package dev.perflab.login;

import java.util.function.Supplier;

/** What stands between a request thread and the external auth API ({@code perflab.login.guard}). */
public interface AuthApiGuard {

    /** Runs one call to the auth API, or throws {@link AuthApiUnavailableException} without making it. */
    <T> T call(Supplier<T> call);

    /**
     * The chosen guard ({@code perflab.login.guard}), one per dependency: the login's auth API and the dependency
     * lab each get their own bulkhead and circuit breaker, so that no lab traffic can open the login's breaker.
     */
    interface Factory {

        AuthApiGuard create(String dependency);
    }
}

package dev.perflab.login;

import java.util.function.Supplier;

/** What stands between a request thread and the external auth API ({@code perflab.login.guard}). */
public interface AuthApiGuard {

    /** Runs one call to the auth API, or throws {@link AuthApiUnavailableException} without making it. */
    <T> T call(Supplier<T> call);
}

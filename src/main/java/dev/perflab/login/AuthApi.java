package dev.perflab.login;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The external auth API (seed 003), called through the chosen client and guard. The lab (seed 002) reuses it.
 * Every method throws {@link AuthApiUnavailableException} when the API is down, too slow, or guarded off.
 */
public interface AuthApi {

    /** The delays the stub's {@code GET /slow?delayMs=} serves (wiremock/mappings/slow-*.json). */
    List<Integer> SLOW_DELAYS_MS = List.of(0, 50, 100, 200, 500, 1000, 2000, 3000, 5000);

    /** The student's profile, or empty when the API rejects the credentials. */
    Optional<ExternalProfile> authenticate(Credentials credentials);

    /** A cheap round trip ({@code GET /ping}), used to open connections ahead of traffic. */
    void ping();

    /** {@code GET /slow?delayMs=}: a dependency that takes {@code delay} to answer. Returns the time it took. */
    Duration slow(int delayMs);
}

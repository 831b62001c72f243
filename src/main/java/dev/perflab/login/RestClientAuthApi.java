package dev.perflab.login;

import java.time.Duration;
import java.util.Optional;

import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

import org.springframework.http.MediaType;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * The auth API over Spring's {@link RestClient} on Apache HttpClient 5. The HttpClient (per-request or
 * pooled) and the guard (none or bulkhead) are the variants; this class is the same for all of them.
 */
public class RestClientAuthApi implements AuthApi {

    private final RestClient http;
    private final AuthApiGuard guard;

    public RestClientAuthApi(CloseableHttpClient httpClient, AuthApiProperties properties, AuthApiGuard guard) {
        this.http = RestClient.builder()
                .baseUrl(properties.baseUrl())
                .requestFactory(new HttpComponentsClientHttpRequestFactory(httpClient))
                .build();
        this.guard = guard;
    }

    @Override
    public Optional<ExternalProfile> authenticate(Credentials credentials) {
        return guarded(() -> http.post().uri("/auth").contentType(MediaType.APPLICATION_JSON).body(credentials)
                .exchange((request, response) -> {
                    if (refusesCredentials(response.getStatusCode().value())) {
                        return Optional.<ExternalProfile>empty();
                    }
                    requireOk(response.getStatusCode().value());
                    return Optional.ofNullable(response.bodyTo(ExternalProfile.class));
                }));
    }

    @Override
    public void ping() {
        guarded(() -> getOk("/ping"));
    }

    @Override
    public Duration slow(int delayMs) {
        long started = System.nanoTime();
        guarded(() -> getOk("/slow?delayMs={delay}", delayMs));
        return Duration.ofNanos(System.nanoTime() - started);
    }

    private <T> T guarded(java.util.function.Supplier<T> call) {
        return guard.call(() -> {
            try {
                return call.get();
            } catch (RestClientException e) {
                throw AuthApiUnavailableException.down(e);
            }
        });
    }

    /** GET that only has to answer 200; the body is not read. */
    private Boolean getOk(String uri, Object... variables) {
        return http.get().uri(uri, variables).exchange((request, response) -> {
            requireOk(response.getStatusCode().value());
            return Boolean.TRUE;
        });
    }

    /**
     * The auth API's answer refuses these credentials: 401, and any other 4xx but 408 and 429 (400, 403, 404...),
     * which depends on what was sent, not on the API's health. Each is a wrong password to {@link LoginGuard}
     * (counted, 401), not an uncounted 503 that would answer guesses without limit.
     */
    static boolean refusesCredentials(int status) {
        return status >= 400 && status < 500 && status != 408 && status != 429;
    }

    private static void requireOk(int status) {
        if (status != 200) {
            throw AuthApiUnavailableException.down(new IllegalStateException("auth API answered " + status));
        }
    }
}

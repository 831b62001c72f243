package dev.perflab.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * Drives the stack's Toxiproxy over its HTTP API (port {@code PERFLAB_TOXIPROXY_PORT}, default 8474) to put
 * faults between the app and a dependency. {@link #restore(String)} puts a proxy back as the stack left it.
 */
public final class Toxiproxy {

    private static final String TEST_TOXIC = "test_fault";
    private final HttpClient client = HttpClient.newHttpClient();
    private final String api = "http://127.0.0.1:" + envOr("PERFLAB_TOXIPROXY_PORT", "8474");

    public void disable(String proxy) {
        send("POST", "/proxies/" + proxy, "{\"enabled\": false}");
    }

    /** Adds {@code ms} of latency to the responses on top of the stack's own toxics. */
    public void addLatency(String proxy, int ms) {
        send("POST", "/proxies/" + proxy + "/toxics", "{\"name\": \"" + TEST_TOXIC + "\", \"type\": \"latency\", "
                + "\"stream\": \"downstream\", \"attributes\": {\"latency\": " + ms + "}}");
    }

    public void restore(String proxy) {
        send("POST", "/proxies/" + proxy, "{\"enabled\": true}");
        HttpResponse<String> toxic = send("GET", "/proxies/" + proxy + "/toxics/" + TEST_TOXIC, null);
        if (toxic.statusCode() == 200) {
            send("DELETE", "/proxies/" + proxy + "/toxics/" + TEST_TOXIC, null);
        }
    }

    private HttpResponse<String> send(String method, String path, String json) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(api + path))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        try {
            HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() >= 400 && !method.equals("GET")) {
                throw new IllegalStateException("toxiproxy " + method + " " + path + ": " + response.statusCode() + " " + response.body());
            }
            return response;
        } catch (IOException e) {
            throw new IllegalStateException("Toxiproxy is not reachable at " + api + ": start it with ./perflab stack up", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String envOr(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}

package dev.perflab.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A plain HTTP client for tests against the running app: real requests over a socket. */
public final class Http {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    public Http(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    public Response get(String path, String... headers) {
        return send(request(path, headers).GET());
    }

    /**
     * {@code clients} GETs of {@code path}, released together, one client thread each: the answers
     * in the order they arrived.
     */
    public List<Response> getConcurrently(int clients, String path, String... headers) {
        return concurrently(clients, i -> get(path, headers));
    }

    /**
     * {@code clients} calls ({@code call} given 0..clients-1), released together, one client thread each: the answers
     * in the order they arrived.
     */
    public static List<Response> concurrently(int clients, java.util.function.IntFunction<Response> call) {
        CountDownLatch start = new CountDownLatch(1);
        ConcurrentLinkedQueue<Response> arrived = new ConcurrentLinkedQueue<>();
        List<Future<?>> calls = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(clients)) {
            for (int i = 0; i < clients; i++) {
                int index = i;
                calls.add(pool.submit(() -> {
                    start.await();
                    return arrived.add(call.apply(index));
                }));
            }
            start.countDown();
            for (Future<?> one : calls) {
                one.get();
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return List.copyOf(arrived);
    }

    public Response post(String path, String json, String... headers) {
        return send(request(path, headers).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    public Response put(String path, String json, String... headers) {
        return send(request(path, headers).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** Any method, with a body of the given content type (null: no body). */
    public Response send(String method, String path, String contentType, String body, String... headers) {
        HttpRequest.Builder builder = request(path, headers);
        if (contentType != null) {
            builder.header("Content-Type", contentType);
        }
        return send(builder.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body)));
    }

    private HttpRequest.Builder request(String path, String... headers) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
        if (headers.length > 0) {
            builder.headers(headers);
        }
        return builder;
    }

    private Response send(HttpRequest.Builder builder) {
        try {
            HttpResponse<String> response = client.send(builder.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                    response.headers(), response.body());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public record Response(int status, String contentType, java.net.http.HttpHeaders headers, String body) {

        public JsonNode json() {
            return JSON.readTree(body);
        }

        public String header(String name) {
            return headers.firstValue(name).orElse(null);
        }
    }
}

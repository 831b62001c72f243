package dev.perflab.route.after;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.OutputStream;
import java.util.List;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import dev.perflab.route.RouteLoader;
import dev.perflab.route.RouteBulkhead;
import dev.perflab.route.RouteRepository;
import dev.perflab.route.RouteSink;

/**
 * The ceiling harness: {@code GET /api/universities/{univId}/routes/cached-bytes} does what a cache hit does
 * (version query, manifest GET, one MGET) and sends the cached bytes as they are, with no decoding, no graph and
 * no JSON. No codec can serve routes faster than this, so each codec's TPS is reported as a share of it. Admin only,
 * and behind the same {@link RouteBulkhead} as the routes endpoint.
 */
@RestController
@ConditionalOnProperty(name = "perflab.route.cache", havingValue = "redis")
class RouteCeilingController {

    private final RouteRepository repository;
    private final RouteCacheStore store;
    private final RouteLoader loader;

    private final RouteBulkhead bulkhead;

    RouteCeilingController(RouteRepository repository, RouteCacheStore store, RouteLoader loader, RouteBulkhead bulkhead) {
        this.bulkhead = bulkhead;
        this.repository = repository;
        this.store = store;
        this.loader = loader;
    }

    @GetMapping("/api/universities/{univId}/routes/cached-bytes")
    void cachedBytes(@PathVariable long univId, HttpServletResponse response) {
        bulkhead.run(() -> {
            try {
                return send(univId, response);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private long send(long univId, HttpServletResponse response) throws IOException {
        long version = repository.version(univId).orElseThrow(() -> RouteRepository.unknownUniversity(univId));
        List<byte[]> values = store.readRaw(univId, version);
        if (values == null) { // fill the cache once, as the routes endpoint would
            version = loader.load(univId, RouteSink.ignoring());
            values = store.readRaw(univId, version);
        }
        response.setContentType(MediaType.APPLICATION_OCTET_STREAM_VALUE);
        response.setHeader("X-Route-Version", Long.toString(version));
        OutputStream out = response.getOutputStream();
        if (values != null) {
            for (byte[] value : values) {
                out.write(value);
            }
        }
        return version;
    }
}

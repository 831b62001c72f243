package dev.perflab.route.writer;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.perflab.route.RouteGraph;
import dev.perflab.route.RouteResponseWriter;

import com.alibaba.fastjson2.JSONWriter;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * {@code writer=fastjson2}, the default: fastjson2's UTF-8 writer formats a double straight into its byte buffer,
 * where Jackson makes a {@code String} of it and copies that (the response has about 100,000 coordinates). The
 * property names are encoded once, not escaped on every write. The buffer goes to the client every 64 KiB, so a 4 MB
 * answer is never held whole. The numbers are the same doubles:
 * fastjson2 now and then writes one digit more than the shortest form, which parses back to the same value
 * ({@code RouteResponseWriterTest}). Measured against Jackson by {@code ./perflab ab route-writer}
 * ({@code perflab_route_phase_seconds{phase="write"}}).
 */
@Component
@ConditionalOnProperty(name = "perflab.route.writer", havingValue = "fastjson2", matchIfMissing = true)
public class Fastjson2RouteResponseWriter implements RouteResponseWriter {

    private static final int FLUSH_BYTES = 64 * 1024;
    // each property name with its quotes and colon, encoded once: written as raw bytes, never escaped per request
    private static final byte[] UNIV_ID = name("univId");
    private static final byte[] VERSION = name("version");
    private static final byte[] ROUTE_COUNT = name("routeCount");
    private static final byte[] NODE_COUNT = name("nodeCount");
    private static final byte[] CORE_ROUTE_COUNT = name("coreRouteCount");
    private static final byte[] NODES = name("nodes");
    private static final byte[] ID = name("id");
    private static final byte[] LAT = name("lat");
    private static final byte[] LNG = name("lng");
    private static final byte[] CORE_ROUTES = name("coreRoutes");
    private static final byte[] NODE1 = name("node1");
    private static final byte[] NODE2 = name("node2");
    private static final byte[] DISTANCE = name("distance");
    private static final byte[] CAUTION_FACTORS = name("cautionFactors");
    private static final byte[] DANGER_FACTORS = name("dangerFactors");

    @Override
    public void write(OutputStream out, long univId, long version, RouteGraph graph, List<RouteGraph.CoreRoute> cores)
            throws IOException {
        try (JSONWriter w = JSONWriter.ofUTF8()) {
            w.startObject();
            number(w, UNIV_ID, univId);
            number(w, VERSION, version);
            number(w, ROUTE_COUNT, graph.routeCount());
            number(w, NODE_COUNT, graph.nodeCount());
            number(w, CORE_ROUTE_COUNT, cores.size());
            w.writeNameRaw(NODES);
            w.startArray();
            RouteGraph.NodeTable nodes = graph.nodes();
            for (int i = 0; i < nodes.size(); i++) {
                if (i > 0) {
                    w.writeComma();
                }
                w.startObject();
                number(w, ID, nodes.id(i));
                number(w, LAT, nodes.lat(i));
                number(w, LNG, nodes.lng(i));
                w.endObject();
                flushWhenFull(w, out);
            }
            w.endArray();
            w.writeNameRaw(CORE_ROUTES);
            w.startArray();
            for (int i = 0; i < cores.size(); i++) {
                if (i > 0) {
                    w.writeComma();
                }
                writeCore(w, cores.get(i));
                flushWhenFull(w, out);
            }
            w.endArray();
            w.endObject();
            w.flushTo(out);
        }
    }

    private static void writeCore(JSONWriter w, RouteGraph.CoreRoute core) {
        w.startObject();
        number(w, NODE1, core.node1());
        number(w, NODE2, core.node2());
        number(w, DISTANCE, core.distance());
        names(w, CAUTION_FACTORS, core.cautionFactors());
        names(w, DANGER_FACTORS, core.dangerFactors());
        w.writeNameRaw(NODES);
        w.writeInt64(core.nodeIds());
        w.endObject();
    }

    private static void names(JSONWriter w, byte[] name, List<? extends Enum<?>> values) {
        w.writeNameRaw(name);
        w.startArray();
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                w.writeComma();
            }
            w.writeString(values.get(i).name());
        }
        w.endArray();
    }

    private static void number(JSONWriter w, byte[] name, long value) {
        w.writeNameRaw(name);
        w.writeInt64(value);
    }

    private static void number(JSONWriter w, byte[] name, double value) {
        w.writeNameRaw(name);
        w.writeDouble(value);
    }

    private static byte[] name(String name) {
        return ('"' + name + "\":").getBytes(StandardCharsets.UTF_8);
    }

    private static void flushWhenFull(JSONWriter w, OutputStream out) throws IOException {
        if (w.size() >= FLUSH_BYTES) {
            w.flushTo(out);
        }
    }
}

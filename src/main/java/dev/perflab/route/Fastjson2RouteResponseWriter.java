package dev.perflab.route;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

import com.alibaba.fastjson2.JSONWriter;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * {@code writer=fastjson2}, the default: fastjson2's UTF-8 writer formats a double straight into its byte buffer,
 * where Jackson makes a {@code String} of it and copies that (the response has about 100,000 coordinates). The
 * buffer goes to the client every 64 KiB, so a 4 MB answer is never held whole. The numbers are the same doubles:
 * fastjson2 now and then writes one digit more than the shortest form, which parses back to the same value
 * ({@code Fastjson2RouteResponseWriterTest}). Measured against Jackson by {@code ./perflab ab route-writer}
 * ({@code perflab_route_phase_seconds{phase="write"}}).
 */
@Component
@ConditionalOnProperty(name = "perflab.route.writer", havingValue = "fastjson2", matchIfMissing = true)
class Fastjson2RouteResponseWriter implements RouteResponseWriter {

    private static final int FLUSH_BYTES = 64 * 1024;

    @Override
    public void write(OutputStream out, long univId, long version, RouteGraph graph, List<RouteGraph.CoreRoute> cores)
            throws IOException {
        try (JSONWriter w = JSONWriter.ofUTF8()) {
            w.startObject();
            number(w, "univId", univId);
            number(w, "version", version);
            number(w, "routeCount", graph.routeCount());
            number(w, "nodeCount", graph.nodeCount());
            number(w, "coreRouteCount", cores.size());
            name(w, "nodes");
            w.startArray();
            RouteGraph.NodeTable nodes = graph.nodes();
            for (int i = 0; i < nodes.size(); i++) {
                if (i > 0) {
                    w.writeComma();
                }
                w.startObject();
                number(w, "id", nodes.id(i));
                number(w, "lat", nodes.lat(i));
                number(w, "lng", nodes.lng(i));
                w.endObject();
                flushWhenFull(w, out);
            }
            w.endArray();
            name(w, "coreRoutes");
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
        number(w, "node1", core.node1());
        number(w, "node2", core.node2());
        number(w, "distance", core.distance());
        names(w, "cautionFactors", core.cautionFactors());
        names(w, "dangerFactors", core.dangerFactors());
        name(w, "nodes");
        w.writeInt64(core.nodeIds());
        w.endObject();
    }

    private static void names(JSONWriter w, String name, List<? extends Enum<?>> values) {
        name(w, name);
        w.startArray();
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                w.writeComma();
            }
            w.writeString(values.get(i).name());
        }
        w.endArray();
    }

    private static void number(JSONWriter w, String name, long value) {
        name(w, name);
        w.writeInt64(value);
    }

    private static void number(JSONWriter w, String name, double value) {
        name(w, name);
        w.writeDouble(value);
    }

    private static void name(JSONWriter w, String name) {
        w.writeName(name);
        w.writeColon();
    }

    private static void flushWhenFull(JSONWriter w, OutputStream out) throws IOException {
        if (w.size() >= FLUSH_BYTES) {
            w.flushTo(out);
        }
    }
}

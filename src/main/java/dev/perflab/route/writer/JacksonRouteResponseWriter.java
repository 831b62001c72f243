package dev.perflab.route.writer;

import java.io.OutputStream;
import java.util.List;

import dev.perflab.route.RouteGraph;
import dev.perflab.route.RouteResponseWriter;

import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * {@code writer=jackson}: Jackson's streaming generator, no intermediate tree and no reflection. Slow on this
 * response because of its numbers: Jackson formats every double to a {@code String} ({@code Double.toString}) and
 * then copies it into its buffer, and a university's answer has about 100,000 coordinates. In the JFR of
 * {@code route-binary} at 50 VUs this writer took half of the CPU samples ({@code ./perflab ab route-writer}).
 */
@Component
@ConditionalOnProperty(name = "perflab.route.writer", havingValue = "jackson")
public class JacksonRouteResponseWriter implements RouteResponseWriter {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    public void write(OutputStream out, long univId, long version, RouteGraph graph, List<RouteGraph.CoreRoute> cores) {
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberProperty("univId", univId);
            g.writeNumberProperty("version", version);
            g.writeNumberProperty("routeCount", graph.routeCount());
            g.writeNumberProperty("nodeCount", graph.nodeCount());
            g.writeNumberProperty("coreRouteCount", cores.size());
            g.writeArrayPropertyStart("nodes");
            RouteGraph.NodeTable nodes = graph.nodes();
            for (int i = 0; i < nodes.size(); i++) {
                g.writeStartObject();
                g.writeNumberProperty("id", nodes.id(i));
                g.writeNumberProperty("lat", nodes.lat(i));
                g.writeNumberProperty("lng", nodes.lng(i));
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayPropertyStart("coreRoutes");
            for (RouteGraph.CoreRoute core : cores) {
                writeCore(g, core);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
    }

    private static void writeCore(JsonGenerator g, RouteGraph.CoreRoute core) {
        g.writeStartObject();
        g.writeNumberProperty("node1", core.node1());
        g.writeNumberProperty("node2", core.node2());
        g.writeNumberProperty("distance", core.distance());
        writeNames(g, "cautionFactors", core.cautionFactors());
        writeNames(g, "dangerFactors", core.dangerFactors());
        g.writeName("nodes");
        g.writeArray(core.nodeIds(), 0, core.nodeIds().length);
        g.writeEndObject();
    }

    private static void writeNames(JsonGenerator g, String name, List<? extends Enum<?>> values) {
        g.writeArrayPropertyStart(name);
        for (Enum<?> value : values) {
            g.writeString(value.name());
        }
        g.writeEndArray();
    }
}

package dev.perflab.route;

/** A graph node as cached: its id and position. */
public record LightNode(long id, double lat, double lng) {
}

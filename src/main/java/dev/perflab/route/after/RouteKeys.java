package dev.perflab.route.after;

import dev.perflab.route.RouteKnobs;

/**
 * Redis key names: {@code route:<codec>:{<univId>}:batch:<n>} and {@code route:<codec>:{<univId>}:manifest}
 * (batched), or {@code route:<codec>:{<univId>}:all} and {@code route:<codec>:{<univId>}:all:manifest} (single). The braces are a Redis Cluster hash tag, so one
 * university's keys share a slot and one MGET reads them; the codec in the name keeps A/B runs of different
 * codecs on one Redis from reading each other's bytes.
 */
record RouteKeys(String codec, RouteKnobs.Layout layout) {

    /** One manifest per layout: a single-layout manifest must never send a batched reader to batch 0 alone. */
    String manifest(long univId) {
        return prefix(univId) + (layout == RouteKnobs.Layout.SINGLE ? "all:manifest" : "manifest");
    }

    String batch(long univId, int index) {
        return layout == RouteKnobs.Layout.SINGLE ? prefix(univId) + "all" : prefix(univId) + "batch:" + index;
    }

    private String prefix(long univId) {
        return "route:" + codec + ":{" + univId + "}:";
    }
}

package dev.perflab.route.after;

import dev.perflab.route.RouteKnobs;

/**
 * Redis key names: {@code route:<codec>:{<univId>}:batch:<n>} (batched) or {@code route:<codec>:{<univId>}:all}
 * (single), plus {@code route:<codec>:{<univId>}:manifest}. The braces are a Redis Cluster hash tag, so one
 * university's keys share a slot and one MGET reads them; the codec in the name keeps A/B runs of different
 * codecs on one Redis from reading each other's bytes.
 */
record RouteKeys(String codec, RouteKnobs.Layout layout) {

    String manifest(long univId) {
        return prefix(univId) + "manifest";
    }

    String batch(long univId, int index) {
        return layout == RouteKnobs.Layout.SINGLE ? prefix(univId) + "all" : prefix(univId) + "batch:" + index;
    }

    private String prefix(long univId) {
        return "route:" + codec + ":{" + univId + "}:";
    }
}

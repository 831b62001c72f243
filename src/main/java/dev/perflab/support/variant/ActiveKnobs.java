package dev.perflab.support.variant;

import java.util.List;

/** Every knob of the running app with its value, validated at startup. */
public record ActiveKnobs(List<Knobs.Knob> all) {

    public ActiveKnobs {
        all = List.copyOf(all);
    }

    public String valueOf(String property) {
        return all.stream().filter(k -> k.property().equals(property)).map(Knobs.Knob::value).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no knob " + property));
    }
}

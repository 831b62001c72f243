package dev.perflab.route;

import java.util.concurrent.atomic.AtomicInteger;

/** Records whether {@link Gadget} was ever loaded or built; tests read this class, never {@code Gadget} itself. */
public final class GadgetProbe {

    public static volatile boolean initialized;
    public static final AtomicInteger INSTANCES = new AtomicInteger();

    private GadgetProbe() {
    }
}

package dev.perflab.route;

/** Stands in for a deserialization gadget: loading or constructing it is what a safe codec must never do. */
public class Gadget {

    static {
        GadgetProbe.initialized = true;
    }

    private String command;

    public Gadget() {
        GadgetProbe.INSTANCES.incrementAndGet();
    }

    public String getCommand() {
        return command;
    }

    public void setCommand(String command) {
        this.command = command;
    }
}

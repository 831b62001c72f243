package dev.perflab.support.variant;

import java.util.List;

/** A knob was given a value that names no variant; startup stops rather than run the wrong one. */
public class InvalidKnobException extends RuntimeException {

    private final String property;
    private final String value;
    private final List<String> allowed;

    public InvalidKnobException(String property, String value, List<String> allowed) {
        super("Invalid value '" + value + "' for " + property + "; allowed values: " + String.join(", ", allowed));
        this.property = property;
        this.value = value;
        this.allowed = List.copyOf(allowed);
    }

    public String property() {
        return property;
    }

    public String value() {
        return value;
    }

    public List<String> allowed() {
        return allowed;
    }
}

package dev.perflab.sprout.request;

/**
 * A request the server refuses: the status it answers with before it closes the connection. No stack trace: it is
 * an answer, not a fault, and a client that sends garbage should cost no more than one that does not.
 */
public final class BadRequest extends Exception {

    private final int status;

    public BadRequest(int status, String reason) {
        super(reason, null, false, false);
        this.status = status;
    }

    public int status() {
        return status;
    }
}

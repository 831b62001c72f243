package dev.perflab.route;

/** A cached value that the configured codec cannot (or may not) decode: it is evicted and reloaded. */
public class RouteCodecException extends RuntimeException {

    public RouteCodecException(String codec, Throwable cause) {
        super(codec + " could not decode a route batch: " + cause.getClass().getSimpleName(), cause);
    }
}

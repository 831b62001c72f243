package dev.perflab.sprout.request;

/**
 * A request head as a {@link RequestReader} read it: what the server needs to answer it and to find the next one.
 *
 * @param method        the request line's method (a token)
 * @param target        its target (visible ASCII)
 * @param version       {@code HTTP/1.1} or {@code HTTP/1.0}
 * @param body          how the body is framed
 * @param contentLength the {@code Content-Length} with {@link Body#LENGTH}, else -1
 * @param keepAlive     whether the connection stays open after the answer (HTTP/1.1 unless {@code Connection: close};
 *                      HTTP/1.0 only with {@code Connection: keep-alive})
 * @param headers       the number of header lines
 */
public record SproutRequest(String method, String target, String version, Body body, long contentLength,
        boolean keepAlive, int headers) {

    /** How many header lines a request may have; one more is 431. */
    public static final int MAX_HEADERS = 100;

    /** The body's framing: none, {@code Content-Length} bytes, or {@code Transfer-Encoding: chunked}. */
    public enum Body {
        NONE, LENGTH, CHUNKED
    }
}

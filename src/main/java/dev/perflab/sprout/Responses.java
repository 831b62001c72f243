package dev.perflab.sprout;

import java.nio.charset.StandardCharsets;

/** The server's few answers, made once: HelloWorld, 404, 405, and the refusals, each with a small body. */
final class Responses {

    static final byte[] HELLO = response(200, "OK", "Hello, World!", false, true);
    static final byte[] HELLO_CLOSE = response(200, "OK", "Hello, World!", true, true);
    static final byte[] HELLO_HEAD = response(200, "OK", "Hello, World!", false, false);
    static final byte[] HELLO_HEAD_CLOSE = response(200, "OK", "Hello, World!", true, false);
    static final byte[] NOT_FOUND = response(404, "Not Found", "not found", false, true);
    static final byte[] NOT_FOUND_CLOSE = response(404, "Not Found", "not found", true, true);
    static final byte[] NOT_ALLOWED = response(405, "Method Not Allowed", "method not allowed", true, true);

    private Responses() {
    }

    /** The answer to a refused request; the connection closes after it. */
    static byte[] refusal(int status) {
        return switch (status) {
            case 408 -> REQUEST_TIMEOUT;
            case 411 -> LENGTH_REQUIRED;
            case 413 -> TOO_LARGE;
            case 431 -> HEADERS_TOO_LARGE;
            case 503 -> BUSY;
            default -> BAD_REQUEST;
        };
    }

    private static final byte[] BAD_REQUEST = response(400, "Bad Request", "bad request", true, true);
    private static final byte[] REQUEST_TIMEOUT = response(408, "Request Timeout", "request timeout", true, true);
    private static final byte[] LENGTH_REQUIRED = response(411, "Length Required", "length required", true, true);
    private static final byte[] TOO_LARGE = response(413, "Content Too Large", "content too large", true, true);
    private static final byte[] HEADERS_TOO_LARGE = response(431, "Request Header Fields Too Large",
            "request header fields too large", true, true);
    private static final byte[] BUSY = response(503, "Service Unavailable", "busy", true, true);

    static byte[] response(int status, String reason, String body, boolean close, boolean withBody) {
        String head = "HTTP/1.1 " + status + " " + reason + "\r\nContent-Type: text/plain\r\nContent-Length: "
                + body.length() + "\r\n" + (close ? "Connection: close\r\n" : "")
                + (status == 405 ? "Allow: GET, HEAD\r\n" : "") + "\r\n";
        return (withBody ? head + body : head).getBytes(StandardCharsets.ISO_8859_1);
    }
}

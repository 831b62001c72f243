package dev.perflab.sprout;

import dev.perflab.sprout.request.BadRequest;
import dev.perflab.sprout.request.RequestReader;
import dev.perflab.sprout.request.SproutRequest;

/**
 * One connection's bytes to answers, shared by both I/O models: where the head ends (at most {@link #MAX_HEAD}
 * bytes, else 431), the reader's parse, the body's framing (at most {@link #MAX_BODY} bytes, else 413; a POST, PUT
 * or PATCH without one, 411), and the HelloWorld handler. The transport calls {@link #next} after each read with
 * every byte it holds; a request whose body is still on its way is read again on the next call.
 */
final class Exchange {

    static final int MAX_HEAD = 8 * 1024;
    static final int MAX_BODY = 64 * 1024;
    /** The most a connection buffers: a whole head and a chunked body with its framing. */
    static final int CAPACITY = MAX_HEAD + 2 * MAX_BODY;

    /** An answer to write, how many bytes of the buffer its request used, and whether the connection then closes. */
    record Answer(byte[] bytes, int consumed, boolean close, boolean refused) {
    }

    private final RequestReader reader;
    private final SproutMeters meters;

    Exchange(RequestReader reader, SproutMeters meters) {
        this.reader = reader;
        this.meters = meters;
    }

    /** The answer to the first request in {@code buf[0, len)}, null while it is incomplete. */
    Answer next(byte[] buf, int len) {
        int end = headEnd(buf, Math.min(len, MAX_HEAD));
        if (end < 0) {
            return len >= MAX_HEAD ? refuse(431) : null;
        }
        SproutRequest request;
        try {
            request = reader.read(buf, end);
        } catch (BadRequest e) {
            return refuse(e.status());
        }
        int consumed = bodyEnd(request, buf, end + 4, len);
        if (consumed < 0) {
            return consumed == INCOMPLETE ? (len >= CAPACITY ? refuse(413) : null) : refuse(-consumed);
        }
        meters.served();
        return new Answer(handle(request), consumed, !request.keepAlive() || !isHelloMethod(request), false);
    }

    /** The answer to a refused request (and to a slow one, 408, or one over the connection limit, 503). */
    Answer refuse(int status) {
        meters.rejected();
        return new Answer(Responses.refusal(status), 0, true, true);
    }

    private static final int INCOMPLETE = -1;

    /** Where the request's body ends in buf, INCOMPLETE, or minus the status that refuses it. */
    private static int bodyEnd(SproutRequest request, byte[] buf, int start, int len) {
        return switch (request.body()) {
            case LENGTH -> request.contentLength() > MAX_BODY ? -413
                    : len - start >= request.contentLength() ? start + (int) request.contentLength() : INCOMPLETE;
            case CHUNKED -> Chunked.end(buf, start, len);
            case NONE -> needsBody(request.method()) ? -411 : start;
        };
    }

    private static boolean needsBody(String method) {
        return method.equals("POST") || method.equals("PUT") || method.equals("PATCH");
    }

    private static boolean isHelloMethod(SproutRequest request) {
        return !request.target().equals("/") || request.method().equals("GET") || request.method().equals("HEAD");
    }

    /** HelloWorld at {@code /} (GET and HEAD), 404 elsewhere; another method at {@code /} is 405 and closes. */
    private static byte[] handle(SproutRequest request) {
        if (!request.target().equals("/")) {
            return request.keepAlive() ? Responses.NOT_FOUND : Responses.NOT_FOUND_CLOSE;
        }
        if (request.method().equals("GET")) {
            return request.keepAlive() ? Responses.HELLO : Responses.HELLO_CLOSE;
        }
        if (request.method().equals("HEAD")) {
            return request.keepAlive() ? Responses.HELLO_HEAD : Responses.HELLO_HEAD_CLOSE;
        }
        return Responses.NOT_ALLOWED;
    }

    /** The index of the first CRLF CRLF in {@code buf[0, len)}, -1 when there is none. */
    static int headEnd(byte[] buf, int len) {
        for (int i = 3; i < len; i++) {
            if (buf[i] == '\n' && buf[i - 1] == '\r' && buf[i - 2] == '\n' && buf[i - 3] == '\r') {
                return i - 3;
            }
        }
        return -1;
    }

    /** A chunked body's end: {@code size[;ext] CRLF data CRLF} ... {@code 0 CRLF} (trailer lines) {@code CRLF}. */
    static final class Chunked {

        private Chunked() {
        }

        /** Where the chunked body starting at {@code pos} ends, INCOMPLETE, or -400/-413. */
        static int end(byte[] buf, int pos, int len) {
            long total = 0;
            while (true) {
                int line = lineEnd(buf, pos, len);
                if (line < 0) {
                    return len - pos > 32 ? -400 : INCOMPLETE;
                }
                long size = size(buf, pos, line);
                if (size < 0) {
                    return -400;
                }
                total += size;
                if (total > MAX_BODY) {
                    return -413;
                }
                pos = line + 2;
                if (size == 0) {
                    return trailers(buf, pos, len);
                }
                if (len - pos < size + 2) {
                    return INCOMPLETE;
                }
                if (buf[pos + (int) size] != '\r' || buf[pos + (int) size + 1] != '\n') {
                    return -400;
                }
                pos += (int) size + 2;
            }
        }

        /** The trailer lines after the last chunk, up to the empty line. */
        private static int trailers(byte[] buf, int pos, int len) {
            while (true) {
                int line = lineEnd(buf, pos, len);
                if (line < 0) {
                    return INCOMPLETE;
                }
                if (line == pos) {
                    return pos + 2;
                }
                pos = line + 2;
            }
        }

        /** The hex size before any {@code ;extension}, -1 when it is not hex or over 7 digits. */
        private static long size(byte[] buf, int from, int to) {
            long size = 0;
            int digits = 0;
            for (int i = from; i < to && buf[i] != ';'; i++) {
                int d = Character.digit(buf[i], 16);
                if (d < 0 || ++digits > 7) {
                    return -1;
                }
                size = size * 16 + d;
            }
            return digits == 0 ? -1 : size;
        }

        private static int lineEnd(byte[] buf, int from, int len) {
            for (int i = from + 1; i < len; i++) {
                if (buf[i] == '\n' && buf[i - 1] == '\r') {
                    return i - 1;
                }
            }
            return -1;
        }
    }
}

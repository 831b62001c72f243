package dev.perflab.sprout.request.after;

import java.nio.charset.StandardCharsets;

import dev.perflab.sprout.request.BadRequest;
import dev.perflab.sprout.request.RequestReader;
import dev.perflab.sprout.request.SproutRequest;

/**
 * Fast from the first requests, as seed 000's refactor was: small methods, each well under C2's 325-byte
 * {@code FreqInlineSize} (SproutReaderBytecodeTest), so C2 inlines them and compiles each quickly (the experiment's
 * {@code focus_compile_ms}); the frequent case first (a Content-Length, then none, chunked last) so the branches are
 * predictable; and {@code indexOf} + {@code regionMatches} over one string of the head instead of {@code split},
 * {@code toLowerCase} and {@code trim}: no string per header line, only the method, target and version it returns
 * (young GCs in JFR).
 */
public class RefactoredRequestReader implements RequestReader {

    private static final String CRLF = "\r\n";

    @Override
    public SproutRequest read(byte[] head, int end) throws BadRequest {
        String text = new String(head, 0, end, StandardCharsets.ISO_8859_1);
        int lineEnd = lineEnd(text, 0);
        int sp1 = indexOf(text, ' ', 0, lineEnd);
        int sp2 = sp1 < 0 ? -1 : indexOf(text, ' ', sp1 + 1, lineEnd);
        if (sp1 <= 0 || sp2 < 0 || sp2 == sp1 + 1 || sp2 + 1 == lineEnd || indexOf(text, ' ', sp2 + 1, lineEnd) >= 0) {
            throw new BadRequest(400, "malformed request line");
        }
        requireTokens(text, 0, sp1, "malformed method");
        requireVisible(text, sp1 + 1, sp2);
        boolean http11 = isVersion(text, sp2 + 1, lineEnd, "HTTP/1.1");
        if (!http11 && !isVersion(text, sp2 + 1, lineEnd, "HTTP/1.0")) {
            throw new BadRequest(400, "unsupported version");
        }
        int requestLineEnd = lineEnd;
        Headers headers = new Headers();
        int lines = 0;
        while (lineEnd < text.length()) {
            int from = lineEnd + 2;
            lineEnd = lineEnd(text, from);
            if (++lines > SproutRequest.MAX_HEADERS) {
                throw new BadRequest(431, "too many header lines");
            }
            headers.line(text, from, lineEnd);
        }
        return headers.request(text.substring(0, sp1), text.substring(sp1 + 1, sp2),
                text.substring(sp2 + 1, requestLineEnd), http11, lines);
    }

    /** The index of {@code c} in {@code text[from, to)}, -1 when it is not there. */
    private static int indexOf(String text, char c, int from, int to) {
        int i = text.indexOf(c, from);
        return i < to ? i : -1;
    }

    private static int lineEnd(String text, int from) {
        int end = text.indexOf(CRLF, from);
        return end < 0 ? text.length() : end;
    }

    private static boolean isVersion(String text, int from, int to, String version) {
        return to - from == version.length() && text.startsWith(version, from);
    }

    private static void requireTokens(String text, int from, int to, String reason) throws BadRequest {
        for (int i = from; i < to; i++) {
            if (!RequestReader.isTchar(text.charAt(i))) {
                throw new BadRequest(400, reason);
            }
        }
    }

    private static void requireVisible(String text, int from, int to) throws BadRequest {
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c <= ' ' || c >= 0x7f) {
                throw new BadRequest(400, "malformed target");
            }
        }
    }

    /** What the header lines said, read one line at a time without copying any of it. */
    private static final class Headers {

        private long contentLength = -1;
        private boolean chunked;
        private boolean close;
        private boolean keepAliveAsked;
        private int hosts;

        void line(String text, int from, int to) throws BadRequest {
            requireNoControl(text, from, to);
            int colon = text.indexOf(':', from);
            if (colon < 0 || colon >= to || colon == from) {
                throw new BadRequest(400, "malformed header line");
            }
            requireTokens(text, from, colon, "malformed header name");
            int valueEnd = trimEnd(text, colon + 1, to);
            int value = trimStart(text, colon + 1, valueEnd);
            if (isName(text, from, colon, "content-length")) {
                contentLength(text, value, valueEnd);
            } else if (isName(text, from, colon, "host")) {
                host();
            } else if (isName(text, from, colon, "connection")) {
                close |= equalsIgnoreCase(text, value, valueEnd, "close");
                keepAliveAsked |= equalsIgnoreCase(text, value, valueEnd, "keep-alive");
            } else if (isName(text, from, colon, "transfer-encoding")) {
                transferEncoding(text, value, valueEnd);
            }
        }

        private void contentLength(String text, int from, int to) throws BadRequest {
            if (contentLength >= 0) {
                throw new BadRequest(400, "Content-Length twice");
            }
            if (from == to) {
                throw new BadRequest(400, "malformed Content-Length");
            }
            long n = 0;
            for (int i = from; i < to; i++) {
                char c = text.charAt(i);
                if (c < '0' || c > '9') {
                    throw new BadRequest(400, "malformed Content-Length");
                }
                n = to - from > 18 ? 0 : n * 10 + (c - '0');
            }
            if (to - from > 18) {
                throw new BadRequest(413, "Content-Length too large");
            }
            contentLength = n;
        }

        private void host() throws BadRequest {
            if (++hosts > 1) {
                throw new BadRequest(400, "Host twice");
            }
        }

        private void transferEncoding(String text, int from, int to) throws BadRequest {
            if (chunked) {
                throw new BadRequest(400, "Transfer-Encoding twice");
            }
            if (!equalsIgnoreCase(text, from, to, "chunked")) {
                throw new BadRequest(400, "unsupported Transfer-Encoding");
            }
            chunked = true;
        }

        /** The frequent case first: a Content-Length (a body) or none, chunked last. */
        SproutRequest request(String method, String target, String version, boolean http11, int lines)
                throws BadRequest {
            if (chunked && contentLength >= 0) {
                throw new BadRequest(400, "both Content-Length and Transfer-Encoding");
            }
            if (http11 && hosts == 0) {
                throw new BadRequest(400, "no Host");
            }
            boolean keepAlive = !close && (http11 || keepAliveAsked);
            if (contentLength > 0) {
                return new SproutRequest(method, target, version, SproutRequest.Body.LENGTH, contentLength, keepAlive, lines);
            }
            if (contentLength == 0) {
                return new SproutRequest(method, target, version, SproutRequest.Body.LENGTH, 0, keepAlive, lines);
            }
            if (chunked) {
                return new SproutRequest(method, target, version, SproutRequest.Body.CHUNKED, -1, keepAlive, lines);
            }
            return new SproutRequest(method, target, version, SproutRequest.Body.NONE, -1, keepAlive, lines);
        }
    }

    private static void requireNoControl(String text, int from, int to) throws BadRequest {
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if ((c < ' ' && c != '\t') || c == 0x7f) {
                throw new BadRequest(400, "control character in a header line");
            }
        }
    }

    private static boolean isName(String text, int from, int to, String name) {
        return to - from == name.length() && text.regionMatches(true, from, name, 0, name.length());
    }

    private static boolean equalsIgnoreCase(String text, int from, int to, String word) {
        return to - from == word.length() && text.regionMatches(true, from, word, 0, word.length());
    }

    /** {@link String#trim()}'s rule by index: the end without the chars up to U+0020 before it. */
    private static int trimEnd(String text, int from, int to) {
        int end = to;
        while (end > from && text.charAt(end - 1) <= ' ') {
            end--;
        }
        return end;
    }

    private static int trimStart(String text, int from, int to) {
        int start = from;
        while (start < to && text.charAt(start) <= ' ') {
            start++;
        }
        return start;
    }
}

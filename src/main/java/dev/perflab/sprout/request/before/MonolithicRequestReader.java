package dev.perflab.sprout.request.before;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import dev.perflab.sprout.request.BadRequest;
import dev.perflab.sprout.request.RequestReader;
import dev.perflab.sprout.request.SproutRequest;

/**
 * Slow on a cold JIT, as seed 000's {@code HttpUtils.readRawRequest} was: the whole head is read in one method of
 * well over 325 bytecode bytes ({@code javap -c}; SproutReaderBytecodeTest), above C2's {@code FreqInlineSize}, so
 * C2 does not inline it into the server's loop, and it compiles as one large unit (its compile time is the
 * experiment's {@code focus_compile_ms}). Every header line costs a {@code split} array and its strings, a
 * lower-case copy of the name and a trimmed value, and a map entry: tens of short-lived objects per request, the
 * write-up's ~43 (young GCs in JFR). The body's framing is decided as the write-up had it: chunked first, then
 * Content-Length, a branch its JITWatch saw taken 50/50.
 */
public class MonolithicRequestReader implements RequestReader {

    @Override
    public SproutRequest read(byte[] head, int end) throws BadRequest {
        String text = new String(head, 0, end, StandardCharsets.ISO_8859_1);
        String[] lines = text.split("\r\n", -1);
        String[] words = lines[0].split(" ", -1);
        if (words.length != 3 || words[0].isEmpty() || words[1].isEmpty() || words[2].isEmpty()) {
            throw new BadRequest(400, "malformed request line");
        }
        String method = words[0];
        for (int i = 0; i < method.length(); i++) {
            if (!RequestReader.isTchar(method.charAt(i))) {
                throw new BadRequest(400, "malformed method");
            }
        }
        String target = words[1];
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c <= ' ' || c >= 0x7f) {
                throw new BadRequest(400, "malformed target");
            }
        }
        String version = words[2];
        if (!version.equals("HTTP/1.1") && !version.equals("HTTP/1.0")) {
            throw new BadRequest(400, "unsupported version");
        }
        Map<String, String> headers = new HashMap<>();
        long contentLength = -1;
        boolean chunked = false;
        boolean close = false;
        boolean keepAliveAsked = false;
        int hosts = 0;
        for (int n = 1; n < lines.length; n++) {
            if (n > SproutRequest.MAX_HEADERS) {
                throw new BadRequest(431, "too many header lines");
            }
            String line = lines[n];
            for (int i = 0; i < line.length(); i++) {
                char c = line.charAt(i);
                if ((c < ' ' && c != '\t') || c == 0x7f) {
                    throw new BadRequest(400, "control character in a header line");
                }
            }
            String[] pair = line.split(":", 2);
            if (pair.length < 2 || pair[0].isEmpty()) {
                throw new BadRequest(400, "malformed header line");
            }
            for (int i = 0; i < pair[0].length(); i++) {
                if (!RequestReader.isTchar(pair[0].charAt(i))) {
                    throw new BadRequest(400, "malformed header name");
                }
            }
            String name = pair[0].toLowerCase(Locale.ROOT);
            String value = pair[1].trim();
            if (name.equals("content-length")) {
                if (contentLength >= 0) {
                    throw new BadRequest(400, "Content-Length twice");
                }
                if (value.isEmpty()) {
                    throw new BadRequest(400, "malformed Content-Length");
                }
                for (int i = 0; i < value.length(); i++) {
                    if (value.charAt(i) < '0' || value.charAt(i) > '9') {
                        throw new BadRequest(400, "malformed Content-Length");
                    }
                }
                if (value.length() > 18) {
                    throw new BadRequest(413, "Content-Length too large");
                }
                contentLength = Long.parseLong(value);
            } else if (name.equals("transfer-encoding")) {
                if (chunked) {
                    throw new BadRequest(400, "Transfer-Encoding twice");
                }
                if (!value.toLowerCase(Locale.ROOT).equals("chunked")) {
                    throw new BadRequest(400, "unsupported Transfer-Encoding");
                }
                chunked = true;
            } else if (name.equals("connection")) {
                String token = value.toLowerCase(Locale.ROOT);
                close |= token.equals("close");
                keepAliveAsked |= token.equals("keep-alive");
            } else if (name.equals("host")) {
                hosts++;
                if (hosts > 1) {
                    throw new BadRequest(400, "Host twice");
                }
            }
            headers.put(name, value);
        }
        if (chunked && contentLength >= 0) {
            throw new BadRequest(400, "both Content-Length and Transfer-Encoding");
        }
        if (version.equals("HTTP/1.1") && hosts == 0) {
            throw new BadRequest(400, "no Host");
        }
        boolean keepAlive = !close && (version.equals("HTTP/1.1") || keepAliveAsked);
        if (chunked) {
            return new SproutRequest(method, target, version, SproutRequest.Body.CHUNKED, -1, keepAlive,
                    lines.length - 1);
        } else if (contentLength > -1) {
            return new SproutRequest(method, target, version, SproutRequest.Body.LENGTH, contentLength, keepAlive,
                    lines.length - 1);
        }
        return new SproutRequest(method, target, version, SproutRequest.Body.NONE, -1, keepAlive, lines.length - 1);
    }
}

package dev.perflab.hostile;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * HTTP/1.1 over a plain socket, for requests a well-behaved client refuses to send: bytes that are not UTF-8,
 * a raw NUL or {@code ..} in the path, malformed URLs, oversized headers. One request per connection.
 */
final class RawHttp {

    private final int port;

    RawHttp(int port) {
        this.port = port;
    }

    record Answer(int status, String contentType, String body) {
    }

    Answer send(String method, String target, String headers, byte[] body) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            String head = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + headers
                    + (body == null ? "" : "Content-Length: " + body.length + "\r\n") + "\r\n";
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            if (body != null) {
                out.write(body);
            }
            out.flush();
            return parse(socket.getInputStream().readAllBytes());
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + target + ": " + e, e);
        }
    }

    /** A GET without the Host header that HTTP/1.1 requires. */
    Answer sendWithoutHost(String target) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(("GET " + target + " HTTP/1.1\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            return parse(socket.getInputStream().readAllBytes());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Answer parse(byte[] raw) {
        String text = new String(raw, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        String head = end < 0 ? text : text.substring(0, end);
        String rest = end < 0 ? "" : text.substring(end + 4);
        String[] lines = head.split("\r\n");
        int status = lines[0].startsWith("HTTP/1.1 ") ? Integer.parseInt(lines[0].substring(9, 12)) : -1;
        String contentType = "";
        boolean chunked = false;
        for (String line : lines) {
            String lower = line.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-type:")) {
                contentType = line.substring(13).trim();
            }
            if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            }
        }
        return new Answer(status, contentType, chunked ? dechunk(rest) : new String(rest.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8));
    }

    private static String dechunk(String body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = 0;
        while (at < body.length()) {
            int eol = body.indexOf("\r\n", at);
            if (eol < 0) {
                break;
            }
            int size = Integer.parseInt(body.substring(at, eol).split(";")[0].trim(), 16);
            if (size == 0) {
                break;
            }
            out.writeBytes(body.substring(eol + 2, eol + 2 + size).getBytes(StandardCharsets.ISO_8859_1));
            at = eol + 2 + size + 2;
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

}

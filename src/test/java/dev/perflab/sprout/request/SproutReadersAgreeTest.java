package dev.perflab.sprout.request;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import dev.perflab.sprout.request.after.RefactoredRequestReader;
import dev.perflab.sprout.request.before.MonolithicRequestReader;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The write-up's two request readers give the same parsed request, or refuse with the same status, for the same
 * bytes: a list of well-formed and malformed heads (the edge cases), then many random mutations of them.
 */
class SproutReadersAgreeTest {

    private static final RequestReader MONOLITHIC = new MonolithicRequestReader();
    private static final RequestReader REFACTORED = new RefactoredRequestReader();

    static List<String> heads() {
        return List.of(
                "GET / HTTP/1.1\r\nHost: localhost:9091",
                "GET / HTTP/1.1\r\nHost: localhost:9091\r\nUser-Agent: k6\r\nAccept: */*\r\nAccept-Encoding: gzip",
                "GET /hello?x=1 HTTP/1.0",
                "GET / HTTP/1.0\r\nConnection: Keep-Alive",
                "GET / HTTP/1.1\r\nHost: a\r\nConnection: close",
                "GET / HTTP/1.1\r\nHost: a\r\nConnection:  CLOSE \t",
                "GET / HTTP/1.1\r\nhost: a\r\nConnection: keep-alive, Upgrade",
                "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5",
                "POST / HTTP/1.1\r\nHost: a\r\ncontent-length:0",
                "POST / HTTP/1.1\r\nHost: a\r\nCONTENT-LENGTH: 0005",
                "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1234567890123456789",
                "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 12a",
                "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: ",
                "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1",
                "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 5",
                "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked",
                "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\nContent-Length: 3",
                "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip",
                "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked",
                "GET / HTTP/1.1",
                "GET / HTTP/1.1\r\nHost: a\r\nHost: b",
                "GET / HTTP/1.1\r\nHost a",
                "GET / HTTP/1.1\r\n: a",
                "GET / HTTP/1.1\r\nHost : a",
                "GET / HTTP/1.1\r\n Host: a",
                "GET / HTTP/1.1\r\nHo\tst: a",
                "GET / HTTP/1.1\r\nHost: a\nb",
                "GET / HTTP/1.1\r\nHost: a\rb",
                "GET / HTTP/1.1\r\nHost: a\r\nX: \u0001",
                "GET / HTTP/1.1\r\nHost: a\r\nX: caf\u00e9",
                "GET / HTTP/1.1\r\nHost: a\r\nX: a:b:c",
                "GET / HTTP/1.1\r\nHost: a\r\n",
                "GET / HTTP/1.1\r\nHost: a\r\n\r",
                "GET  / HTTP/1.1\r\nHost: a",
                "GET / HTTP/1.1 \r\nHost: a",
                " GET / HTTP/1.1\r\nHost: a",
                "GET /\u00e9 HTTP/1.1\r\nHost: a",
                "G(T / HTTP/1.1\r\nHost: a",
                "GET / HTTP/2.0\r\nHost: a",
                "GET / http/1.1\r\nHost: a",
                "GET /",
                "GET",
                "",
                "\r\nGET / HTTP/1.1\r\nHost: a",
                "GET / HTTP/1.1\r\nHost: a\r\n" + "X: y\r\n".repeat(99) + "Z: z",
                "GET / HTTP/1.1\r\nHost: a\r\n" + "X: y\r\n".repeat(100) + "Z: z",
                "GET / HTTP/1.1\r\nHost: a\r\n" + "X: y\r\n".repeat(100) + "Bad line");
    }

    @ParameterizedTest
    @MethodSource("heads")
    void bothReadersAnswerTheSameForEachEdgeCase(String head) {
        assertThat(outcome(REFACTORED, head)).isEqualTo(outcome(MONOLITHIC, head));
    }

    @Test
    void theEdgeCasesCoverEveryAnswer() {
        List<String> outcomes = heads().stream().map(h -> outcome(MONOLITHIC, h)).toList();
        assertThat(outcomes).contains("refused 400", "refused 413", "refused 431")
                .anyMatch(o -> o.contains("body=CHUNKED")).anyMatch(o -> o.contains("body=LENGTH"))
                .anyMatch(o -> o.contains("keepAlive=false")).anyMatch(o -> o.contains("keepAlive=true"));
    }

    @Test
    void bothReadersAnswerTheSameForRandomMutationsOfThem() {
        Random random = new Random(45);
        String alphabet = " :\r\n\t\u0000\u007f\u00e9aZ0-9;,/";
        List<String> seeds = heads();
        int refused = 0;
        for (int i = 0; i < 50_000; i++) {
            StringBuilder head = new StringBuilder(seeds.get(random.nextInt(seeds.size())));
            for (int edits = 1 + random.nextInt(3); edits > 0; edits--) {
                int at = head.isEmpty() ? 0 : random.nextInt(head.length() + 1);
                char c = alphabet.charAt(random.nextInt(alphabet.length()));
                switch (random.nextInt(3)) {
                    case 0 -> head.insert(at, c);
                    case 1 -> head.replace(at, Math.min(head.length(), at + 1), String.valueOf(c));
                    default -> head.delete(at, Math.min(head.length(), at + 1));
                }
            }
            String text = head.toString();
            int framed = text.indexOf("\r\n\r\n");
            String h = framed < 0 ? text : text.substring(0, framed); // as the server frames it
            String expected = outcome(MONOLITHIC, h);
            assertThat(outcome(REFACTORED, h)).as("head %s", h.replace("\r", "\\r").replace("\n", "\\n"))
                    .isEqualTo(expected);
            refused += expected.startsWith("refused") ? 1 : 0;
        }
        assertThat(refused).as("mutations refused (the rest parsed)").isBetween(1_000, 49_000);
    }

    private static String outcome(RequestReader reader, String head) {
        byte[] bytes = head.getBytes(StandardCharsets.ISO_8859_1);
        byte[] padded = Arrays.copyOf(bytes, bytes.length + 4); // the reader reads [0, end) only
        padded[bytes.length] = '\r';
        try {
            return reader.read(padded, bytes.length).toString();
        } catch (BadRequest e) {
            return "refused " + e.status();
        }
    }
}

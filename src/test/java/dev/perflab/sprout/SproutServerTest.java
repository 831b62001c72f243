package dev.perflab.sprout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The sprout server over real sockets on an ephemeral port, in each I/O model x thread kind, with each reader where it
 * matters: HelloWorld with keep-alive and pipelining, bad input refused with its status and the connection closed
 * while the server goes on serving, a slow request timed out, the connection limit, and a clean stop. No sleeps:
 * every wait is a read with a socket timeout, or a poll with a bound.
 */
class SproutServerTest {

    private static final int SOCKET_TIMEOUT_MS = 10_000;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private SproutServer server;

    static Stream<Arguments> modes() {
        List<Arguments> modes = new ArrayList<>();
        for (SproutKnobs.Io io : SproutKnobs.Io.values()) {
            for (SproutKnobs.Threads threads : SproutKnobs.Threads.values()) {
                modes.add(Arguments.of(io, threads, SproutKnobs.Reader.values()[modes.size() % 2]));
            }
        }
        return modes.stream();
    }

    private int start(SproutKnobs.Io io, SproutKnobs.Threads threads, SproutKnobs.Reader reader, Duration timeout,
            int maxConnections) throws IOException {
        SproutKnobs knobs = new SproutKnobs(true, 0, "127.0.0.1", io, threads, reader, timeout, maxConnections, 16, 4);
        server = new SproutServer(knobs, new InetSocketAddress("127.0.0.1", 0), new SproutMeters(registry, reader));
        server.start();
        return server.port();
    }

    private int start(SproutKnobs.Io io, SproutKnobs.Threads threads, SproutKnobs.Reader reader) throws IOException {
        return start(io, threads, reader, Duration.ofSeconds(5), 64);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            assertThat(server.stop(Duration.ofSeconds(5))).as("every thread ended").isTrue();
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("modes")
    void answersHelloWorldOnAKeptAliveConnectionAndPipelinedRequests(SproutKnobs.Io io, SproutKnobs.Threads threads,
            SproutKnobs.Reader reader) throws IOException {
        int port = start(io, threads, reader);
        try (Socket socket = connect(port)) {
            InputStream in = socket.getInputStream();
            for (int i = 0; i < 3; i++) {
                send(socket, "GET / HTTP/1.1\r\nHost: localhost\r\nUser-Agent: test\r\n\r\n");
                assertThat(read(in)).isEqualTo(new Response(200, "Hello, World!", false));
            }
            send(socket, "GET / HTTP/1.1\r\nHost: a\r\n\r\nHEAD / HTTP/1.1\r\nHost: a\r\n\r\nGET /x HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(read(in).status()).isEqualTo(200);
            assertThat(readHead(in)).contains("Content-Length: 13").doesNotContain("Connection: close");
            assertThat(read(in)).isEqualTo(new Response(404, "not found", false));
            send(socket, "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
                    + "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc");
            assertThat(read(in).status()).isEqualTo(404);
            assertThat(read(in).status()).isEqualTo(404);
            send(socket, "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
            assertThat(read(in)).isEqualTo(new Response(200, "Hello, World!", true));
            assertThat(in.read()).as("closed after Connection: close").isEqualTo(-1);
        }
        try (Socket socket = connect(port)) {
            send(socket, "GET / HTTP/1.0\r\n\r\n");
            assertThat(read(socket.getInputStream())).isEqualTo(new Response(200, "Hello, World!", true));
            assertThat(socket.getInputStream().read()).as("HTTP/1.0 closes").isEqualTo(-1);
        }
        assertThat(registry.get("perflab.sprout.requests").tag("outcome", "served").counter().count()).isEqualTo(10);
    }

    static Stream<Arguments> badInputs() {
        List<Arguments> cases = new ArrayList<>();
        String tooManyBytes = "GET / HTTP/1.1\r\nHost: a\r\nX-Big: " + "x".repeat(9 * 1024) + "\r\n\r\n";
        String[][] inputs = {
                {"GET/HTTP/1.1\r\n\r\n", "400"},
                {"GET / HTTP/1.1\r\n\r\n", "400"}, // no Host
                {"GET / HTTP/1.1\r\nHost: a\r\nBad header\r\n\r\n", "400"},
                {"\u0000\u0001\u0002garbage\r\n\r\n", "400"},
                {tooManyBytes, "431"},
                {"GET / HTTP/1.1\r\nHost: a\r\n" + "X: y\r\n".repeat(101) + "\r\n", "431"},
                {"POST / HTTP/1.1\r\nHost: a\r\n\r\nhello", "411"},
                {"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\n", "413"},
                {"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "400"},
                {"DELETE / HTTP/1.1\r\nHost: a\r\n\r\n", "405"},
        };
        for (Arguments mode : modes().toList()) {
            for (String[] input : inputs) {
                cases.add(Arguments.of(mode.get()[0], mode.get()[1], mode.get()[2], input[0], Integer.parseInt(input[1])));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1} {2}: {4}")
    @MethodSource("badInputs")
    void refusesBadInputClosesAndGoesOnServing(SproutKnobs.Io io, SproutKnobs.Threads threads, SproutKnobs.Reader reader,
            String input, int status) throws IOException {
        int port = start(io, threads, reader);
        try (Socket socket = connect(port)) {
            send(socket, input);
            Response response = read(socket.getInputStream());
            assertThat(response.status()).isEqualTo(status);
            assertThat(response.close()).isTrue();
            assertThat(socket.getInputStream().read()).as("closed after a refusal").isEqualTo(-1);
        }
        assertHello(port);
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("modes")
    void aBodyWithoutContentLengthIsTheNextRequestAndRefused(SproutKnobs.Io io, SproutKnobs.Threads threads,
            SproutKnobs.Reader reader) throws IOException {
        int port = start(io, threads, reader);
        try (Socket socket = connect(port)) {
            send(socket, "GET / HTTP/1.1\r\nHost: a\r\n\r\nhello there\r\n\r\n");
            assertThat(read(socket.getInputStream()).status()).isEqualTo(200);
            assertThat(read(socket.getInputStream()).status()).isEqualTo(400);
        }
        assertThat(registry.get("perflab.sprout.requests").tag("outcome", "rejected").counter().count()).isEqualTo(1);
        assertHello(port);
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("modes")
    void aSlowRequestIsTimedOutAndAnIdleConnectionClosed(SproutKnobs.Io io, SproutKnobs.Threads threads,
            SproutKnobs.Reader reader) throws IOException {
        int port = start(io, threads, reader, Duration.ofMillis(300), 64);
        try (Socket slow = connect(port); Socket idle = connect(port)) {
            send(slow, "GET / HTTP/1.1\r\nHo");
            assertThat(read(slow.getInputStream()).status()).isEqualTo(408);
            assertThat(idle.getInputStream().read()).as("an idle connection closes silently").isEqualTo(-1);
        }
        assertHello(port);
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("modes")
    void aConnectionOverTheLimitIsRefusedWith503(SproutKnobs.Io io, SproutKnobs.Threads threads,
            SproutKnobs.Reader reader) throws IOException {
        int port = start(io, threads, reader, Duration.ofSeconds(5), 2);
        try (Socket first = connect(port); Socket second = connect(port)) {
            send(first, "GET / HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(read(first.getInputStream()).status()).isEqualTo(200);
            send(second, "GET / HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(read(second.getInputStream()).status()).isEqualTo(200);
            try (Socket third = connect(port)) {
                assertThat(read(third.getInputStream())).isEqualTo(new Response(503, "busy", true));
            }
        }
        poll(() -> {
            try (Socket socket = connect(port)) {
                send(socket, "GET / HTTP/1.1\r\nHost: a\r\n\r\n");
                return read(socket.getInputStream()).status() == 200;
            } catch (IOException e) {
                return false;
            }
        }, "a permit comes back when a connection closes");
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("modes")
    void stopsCleanlyWithOpenConnections(SproutKnobs.Io io, SproutKnobs.Threads threads, SproutKnobs.Reader reader)
            throws IOException {
        int port = start(io, threads, reader);
        try (Socket open = connect(port)) {
            send(open, "GET / HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(read(open.getInputStream()).status()).isEqualTo(200);
            assertThat(server.stop(Duration.ofSeconds(5))).as("every thread ended").isTrue();
            server = null;
            assertThat(open.getInputStream().read()).as("its connections closed").isEqualTo(-1);
        }
        assertThatThrownBy(() -> connect(port).close()).isInstanceOf(ConnectException.class);
        poll(() -> Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().startsWith("sprout-")),
                "no sprout thread left");
    }

    // --- a small HTTP client over a raw socket ---

    record Response(int status, String body, boolean close) {
    }

    private static Socket connect(int port) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(SOCKET_TIMEOUT_MS);
        return socket;
    }

    private static void send(Socket socket, String request) throws IOException {
        socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
    }

    private static void assertHello(int port) throws IOException {
        try (Socket socket = connect(port)) {
            send(socket, "GET / HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(read(socket.getInputStream())).isEqualTo(new Response(200, "Hello, World!", false));
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed in the middle of a response head: " + head);
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    private static Response read(InputStream in) throws IOException {
        String head = readHead(in);
        int status = Integer.parseInt(head.substring(9, 12));
        int at = head.indexOf("Content-Length: ") + "Content-Length: ".length();
        int length = Integer.parseInt(head.substring(at, head.indexOf("\r\n", at)));
        String body = new String(in.readNBytes(length), StandardCharsets.ISO_8859_1);
        return new Response(status, body, head.contains("Connection: close\r\n"));
    }

    private static void poll(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() < deadline).as(what + " within 10 s").isTrue();
            Thread.onSpinWait();
        }
    }
}

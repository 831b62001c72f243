package dev.perflab.support.security;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import perflabtest.probe.RemoteAddressProbe;

import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

import dev.perflab.testing.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The client address the guards count: X-Forwarded-For is read only from the proxy the app trusts (perflab's HAProxy
 * connects from 127.0.0.2, {@code server.tomcat.remoteip.internal-proxies}); any other client that sends the header
 * is counted under its own address, so it cannot spread its guesses over addresses it names.
 */
@IntegrationTest
@Import(RemoteAddressProbe.class)
class ForwardedForIT {

    @LocalServerPort
    int port;

    /** The address the app sees for a request from {@code from} that carries {@code forwardedFor}. */
    private String seenAddress(String from, String forwardedFor) throws IOException {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(from, 0));
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + RemoteAddressProbe.PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                    + "X-Forwarded-For: " + forwardedFor + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            assertThat(answer).startsWith("HTTP/1.1 200");
            String body = answer.substring(answer.indexOf("\r\n\r\n") + 4).trim();
            return body.contains("\r\n") ? body.split("\r\n")[1] : body; // chunked: size line, then the address
        }
    }

    @Test
    void aClientThatIsNoTrustedProxyIsCountedUnderItsOwnAddress() throws IOException {
        assertThat(seenAddress("127.0.0.1", "203.0.113.9")).isEqualTo("127.0.0.1");
        assertThat(seenAddress("127.0.0.3", "203.0.113.9, 198.51.100.7")).isEqualTo("127.0.0.3");
    }

    @Test
    void theTrustedProxyNamesTheClientItSaw() throws IOException {
        assertThat(seenAddress("127.0.0.2", "203.0.113.9")).isEqualTo("203.0.113.9");
    }

    @Test
    void onlyTheAddressTheTrustedProxyAddedCountsNotWhatTheClientPutBeforeIt() throws IOException {
        // HAProxy drops a client's header (tooling/perflab/lab/lb.py); were one to append instead, the rightmost entry is its own
        assertThat(seenAddress("127.0.0.2", "198.51.100.1, 203.0.113.9")).isEqualTo("203.0.113.9");
    }
}

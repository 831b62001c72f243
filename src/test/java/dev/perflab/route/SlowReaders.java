package dev.perflab.route;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * Raw sockets that each ask for a route and then read it at a trickle: a tiny receive buffer (the kernel's minimum,
 * so the server's window closes after a few KB), the status line read, then nothing. The server's write blocks
 * until the socket is closed. Each socket has its own thread only while it connects and reads the status line.
 */
final class SlowReaders implements AutoCloseable {

    private static final int RECEIVE_BUFFER = 1024;
    private static final int STATUS_LINE = "HTTP/1.1 200".length();

    private final List<Socket> sockets = new ArrayList<>();
    private final List<Thread> openers = new ArrayList<>();
    private final List<String> statusLines = java.util.Collections.synchronizedList(new ArrayList<>());

    /** {@code count} readers of {@code path}, reader {@code i} with the Authorization header {@code auth.apply(i)}. */
    static SlowReaders open(int port, String path, int count, LongFunction<String> auth) {
        SlowReaders readers = new SlowReaders();
        for (int i = 0; i < count; i++) {
            String request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nAuthorization: "
                    + auth.apply(i) + "\r\n\r\n";
            Socket socket = new Socket();
            readers.sockets.add(socket);
            readers.openers.add(Thread.ofVirtual().start(() -> readers.ask(socket, port, request)));
        }
        return readers;
    }

    private void ask(Socket socket, int port, String request) {
        try {
            socket.setReceiveBufferSize(RECEIVE_BUFFER);
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            statusLines.add(readStatusLine(socket.getInputStream()));
        } catch (IOException e) {
            if (!socket.isClosed()) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static String readStatusLine(InputStream in) throws IOException {
        byte[] head = in.readNBytes(STATUS_LINE);
        return new String(head, StandardCharsets.US_ASCII);
    }

    /** The status lines read so far: one per reader whose answer has begun (the server is writing it). */
    List<String> statusLines() {
        synchronized (statusLines) {
            return List.copyOf(statusLines);
        }
    }

    @Override
    public void close() throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
        for (Thread opener : openers) {
            try {
                opener.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}

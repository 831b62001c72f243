package dev.perflab.route;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP forwarder for fault tests, in plain Java so that it works with the local stack and with Testcontainers:
 * {@link #cut()} closes every connection and refuses new ones (the dependency is down), {@link #restore()}
 * accepts again on the same port.
 */
final class TcpProxy implements AutoCloseable {

    private final String upstreamHost;
    private final int upstreamPort;
    private final int port;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile ServerSocket server;

    TcpProxy(String upstreamHost, int upstreamPort) throws IOException {
        this.upstreamHost = upstreamHost;
        this.upstreamPort = upstreamPort;
        ServerSocket first = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.port = first.getLocalPort();
        start(first);
    }

    int port() {
        return port;
    }

    synchronized void cut() throws IOException {
        server.close();
        for (Socket socket : sockets) {
            socket.close();
        }
        sockets.clear();
    }

    synchronized void restore() throws IOException {
        ServerSocket again = new ServerSocket();
        again.setReuseAddress(true);
        again.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        start(again);
    }

    @Override
    public void close() throws IOException {
        cut();
    }

    private void start(ServerSocket socket) {
        server = socket;
        Thread.ofVirtual().start(() -> {
            while (!socket.isClosed()) {
                try {
                    Socket client = socket.accept();
                    Socket upstream = new Socket(upstreamHost, upstreamPort);
                    sockets.add(client);
                    sockets.add(upstream);
                    pump(client, upstream);
                    pump(upstream, client);
                } catch (IOException e) {
                    return; // closed by cut()
                }
            }
        });
    }

    private void pump(Socket from, Socket to) {
        Thread.ofVirtual().start(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException e) {
                // a cut connection ends its pump
            } finally {
                try {
                    from.close();
                    to.close();
                } catch (IOException ignored) {
                    // already closed
                }
            }
        });
    }
}

package dev.perflab.sprout;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * {@code perflab.sprout.io=blocking}, the write-up's "BIO" ("hybrid"): an accept thread and a thread per
 * connection that blocks in {@code read}. Simple, and each connection holds a thread for its lifetime: with
 * platform threads a stack each (the thread count in JFR), with virtual threads a parked continuation. Cold, every
 * connection's first request runs the reader in the interpreter at once, so the reader's compile time is what the
 * first requests wait for ({@code focus_compile_ms}, success among the first 8,000).
 */
final class BlockingTransport implements SproutServer.Transport {

    /** How long a refused connection is drained before it closes, so that the client reads the answer. */
    private static final int DRAIN_MS = 1000;

    private final SproutKnobs knobs;
    private final InetSocketAddress address;
    private final Exchange exchange;
    private final ExecutorService threads;
    private final Semaphore open;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private volatile boolean running;
    private ServerSocket listener;
    private Thread acceptor;

    BlockingTransport(SproutKnobs knobs, InetSocketAddress address, Exchange exchange, ExecutorService threads) {
        this.knobs = knobs;
        this.address = address;
        this.exchange = exchange;
        this.threads = threads;
        this.open = new Semaphore(knobs.maxConnections());
    }

    @Override
    public void start() throws IOException {
        listener = new ServerSocket();
        listener.setReuseAddress(true);
        listener.bind(address, knobs.backlog());
        running = true;
        acceptor = Thread.ofPlatform().name("sprout-accept").daemon(true).start(this::accept);
    }

    @Override
    public int port() {
        return listener.getLocalPort();
    }

    private void accept() {
        while (running) {
            Socket socket;
            try {
                socket = listener.accept();
            } catch (IOException e) {
                continue; // closed by stop(), or a connection reset before it was accepted
            }
            if (!open.tryAcquire()) {
                refuse(socket, 503);
                continue;
            }
            sockets.add(socket);
            try {
                threads.execute(() -> serve(socket));
            } catch (RejectedExecutionException e) {
                SproutServer.closeQuietly(socket);
            }
        }
    }

    /** One connection: read, answer each whole request, until it closes, times out or is refused. */
    private void serve(Socket socket) {
        try (socket) {
            socket.setTcpNoDelay(true);
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            byte[] buf = new byte[2048];
            int len = 0;
            long deadline = 0;
            while (running) {
                Exchange.Answer answer = len > 0 ? exchange.next(buf, len) : null;
                if (answer == null) {
                    if (len == buf.length) {
                        buf = Arrays.copyOf(buf, Math.min(Exchange.CAPACITY, buf.length * 2));
                    }
                    long wait = len == 0 ? knobs.readTimeout().toMillis()
                            : TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                    int n;
                    try {
                        socket.setSoTimeout((int) Math.max(1, wait));
                        n = wait <= 0 ? 0 : in.read(buf, len, buf.length - len);
                    } catch (SocketTimeoutException e) {
                        n = 0;
                    }
                    if (n < 0) {
                        return;
                    }
                    if (n == 0) { // a partial request past its deadline (slowloris) is 408; an idle keep-alive just closes
                        if (len > 0) {
                            answer(socket, out, exchange.refuse(408));
                        }
                        return;
                    }
                    if (len == 0) {
                        deadline = System.nanoTime() + knobs.readTimeout().toNanos();
                    }
                    len += n;
                    continue;
                }
                answer(socket, out, answer);
                if (answer.close()) {
                    return;
                }
                len -= answer.consumed();
                System.arraycopy(buf, answer.consumed(), buf, 0, len);
                deadline = System.nanoTime() + knobs.readTimeout().toNanos();
            }
        } catch (IOException e) {
            // the client went away or reset: nothing to answer, nothing to log per connection
        } finally {
            sockets.remove(socket);
            open.release();
        }
    }

    private static void answer(Socket socket, OutputStream out, Exchange.Answer answer) throws IOException {
        out.write(answer.bytes());
        out.flush();
        if (answer.refused()) {
            drain(socket);
        }
    }

    /** After a refusal: no more output, and what the client still sends is read and dropped for a moment. */
    private static void drain(Socket socket) throws IOException {
        socket.shutdownOutput();
        socket.setSoTimeout(DRAIN_MS);
        byte[] sink = new byte[4096];
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MS);
        try {
            while (System.nanoTime() < deadline && socket.getInputStream().read(sink) >= 0) {
                // dropped
            }
        } catch (SocketTimeoutException e) {
            // the client sent nothing more
        }
    }

    private void refuse(Socket socket, int status) {
        try (socket) {
            socket.getOutputStream().write(exchange.refuse(status).bytes());
        } catch (IOException e) {
            // gone already
        }
    }

    @Override
    public boolean stop(Duration grace) {
        long deadline = System.nanoTime() + grace.toNanos();
        running = false;
        SproutServer.closeQuietly(listener);
        sockets.forEach(SproutServer::closeQuietly);
        return SproutServer.shutDown(threads, acceptor, deadline);
    }
}

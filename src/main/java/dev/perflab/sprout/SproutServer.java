package dev.perflab.sprout;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.perflab.sprout.request.RequestReaders;

/**
 * The sprout server, without Spring: {@link #start} binds and serves with the knobs' I/O model, threads and reader;
 * {@link #stop} closes every connection and ends every thread it started. {@link SproutLifecycle} ties it to the app.
 */
public final class SproutServer {

    /** How the server accepts and reads: a thread per connection, or a selector loop. */
    interface Transport {

        void start() throws IOException;

        int port();

        /** Closes the listening socket and every connection; true when every thread it started has ended. */
        boolean stop(Duration grace);
    }

    private final SproutKnobs knobs;
    private final InetSocketAddress address;
    private final SproutMeters meters;
    private Transport transport;

    public SproutServer(SproutKnobs knobs, InetSocketAddress address, SproutMeters meters) {
        this.knobs = knobs;
        this.address = address;
        this.meters = meters;
    }

    public synchronized void start() throws IOException {
        if (transport != null) {
            return;
        }
        Exchange exchange = new Exchange(RequestReaders.of(knobs.reader()), meters);
        Transport t = switch (knobs.io()) {
            case BLOCKING -> new BlockingTransport(knobs, address, exchange, connectionThreads());
            case NONBLOCKING -> new SelectorTransport(knobs, address, exchange, requestThreads());
        };
        t.start();
        transport = t;
    }

    /** The port it listens on (the real one when it was given 0). */
    public synchronized int port() {
        if (transport == null) {
            throw new IllegalStateException("the sprout server is not running");
        }
        return transport.port();
    }

    public synchronized boolean isRunning() {
        return transport != null;
    }

    /** Stops it; true when every thread it started has ended within {@code grace}. */
    public synchronized boolean stop(Duration grace) {
        if (transport == null) {
            return true;
        }
        boolean ended = transport.stop(grace);
        transport = null;
        return ended;
    }

    /** Blocking: a thread per connection, as many as connections may be open (the limit holds them). */
    private ExecutorService connectionThreads() {
        if (knobs.threads() == SproutKnobs.Threads.VIRTUAL) {
            return Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("sprout-connection-v", 0).factory());
        }
        AtomicInteger n = new AtomicInteger();
        return new ThreadPoolExecutor(0, knobs.maxConnections(), 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
                r -> Thread.ofPlatform().name("sprout-connection-" + n.incrementAndGet()).daemon(true).unstarted(r));
    }

    /** Nonblocking: a thread per ready request (virtual), or a fixed pool of {@code workers} platform threads. */
    private ExecutorService requestThreads() {
        if (knobs.threads() == SproutKnobs.Threads.VIRTUAL) {
            return Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("sprout-worker-v", 0).factory());
        }
        AtomicInteger n = new AtomicInteger();
        return Executors.newFixedThreadPool(knobs.workers(),
                r -> Thread.ofPlatform().name("sprout-worker-" + n.incrementAndGet()).daemon(true).unstarted(r));
    }

    static void closeQuietly(Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException e) {
            // closing: nothing more to do with it
        }
    }

    static boolean shutDown(ExecutorService threads, Thread loop, long deadline) {
        threads.shutdownNow();
        try {
            loop.join(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            return threads.awaitTermination(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)
                    && !loop.isAlive();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}

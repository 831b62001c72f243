import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A tiny program whose profile is known in advance, recorded by the tests of tooling/perflab/measure/jfr.py and tooling/perflab/measure/flame.py.
 *
 * <p>Usage: {@code java Workload.java a|b|s ROUNDS}. Variant a spends seven eighths of its CPU in
 * {@link #crunchA}, allocating {@link ParcelA}, and an eighth in {@link #crunchB}, allocating {@link ParcelB};
 * variant b the other way round. (At 3:1, JFR's throttled allocation samples once put the minor class on top in
 * CI: eight recordings gave it 3 % to 74 % of the major class's bytes; at 7:1 and 10,000 rounds it happened once
 * more, so the tests record 20,000 rounds: twice the samples. A wider split would thin crunchA's frames in b's
 * flame graph below what the diff-colour test can see.) Parcels are kept in a ring, so escape analysis cannot remove them. Both
 * variants contend on a {@code synchronized} {@link Ledger} and on a {@link ReentrantLock} (each held about
 * 15 ms at a time, above JFR's 10 ms locking threshold) and make enough garbage for young collections.
 *
 * Variant s spends seven eighths of its rounds in {@link #writeNull}, one-byte writes to /dev/null: system calls,
 * which JFR's CPU-time sampler counts and its execution sampler does not see.
 *
 * <p>Handshake on stdin/stdout so a test can record exactly the measured window with jcmd: prints
 * {@code ready <pid>} after a warm-up of ROUNDS/10, waits for a {@code go} line, does ROUNDS rounds (a fixed
 * amount of work, like the runner's fixed load: the "requests" served), prints {@code done ROUNDS}, then exits
 * on the next line.
 */
public class Workload {
    static final class Ledger { long entries; }
    record ParcelA(long id, long x, long y, long z, long w) { }
    record ParcelB(long id, String label, int x, int y, int z, int w, int v, int u) { }

    static final Ledger LEDGER = new Ledger();
    static final ReentrantLock GATE = new ReentrantLock();
    static final Object[] RECENT = new Object[4096];
    static volatile long sink;
    static volatile boolean running = true;

    public static void main(String[] args) throws Exception {
        char variant = args.length > 0 ? args[0].charAt(0) : 'a';
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));

        work(variant, rounds / 10);
        System.out.println("ready " + ProcessHandle.current().pid());
        System.out.flush();
        in.readLine();
        work(variant, rounds);
        System.out.println("done " + rounds);
        System.out.flush();
        in.readLine();
    }

    /** ROUNDS calls of crunchA or crunchB (7:1 or 1:7) while the other threads contend on the locks. */
    static void work(char variant, int rounds) throws InterruptedException {
        running = true;
        Thread cruncher = Thread.ofPlatform().name("cruncher").start(() -> {
            for (int round = 0; round < rounds; round++) {
                boolean major = round % 8 != 0;
                sink += variant == 's' ? (major ? writeNull() : crunchA())
                        : (variant == 'a') == major ? crunchA() : crunchB();
            }
        });
        List<Thread> contenders = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            contenders.add(Thread.ofPlatform().name("ledger-" + i).start(Workload::holdLedger));
            contenders.add(Thread.ofPlatform().name("gate-" + i).start(Workload::holdGate));
        }
        cruncher.join();
        running = false;
        for (Thread thread : contenders) thread.join();
    }

    /** Variant a's hot method: arithmetic plus ParcelA garbage. */
    static long crunchA() {
        long sum = 0;
        for (int i = 0; i < 20_000; i++) {
            ParcelA parcel = new ParcelA(i, sum, i * 3L, i ^ sum, sum >>> 2);
            RECENT[i & (RECENT.length - 1)] = parcel;
            sum += parcel.id() * 31 + parcel.z();
            sum ^= (sum << 7) | (sum >>> 3);
        }
        return sum;
    }

    /** Variant b's hot method: different arithmetic plus ParcelB garbage. */
    static long crunchB() {
        long sum = 0;
        for (int i = 0; i < 20_000; i++) {
            ParcelB parcel = new ParcelB(i, "b", i, (int) sum, i * 7, i >>> 1, 3, (int) (sum >>> 9));
            RECENT[i & (RECENT.length - 1)] = parcel;
            sum += parcel.id() * 17 + parcel.y() + parcel.label().length();
            sum = Long.rotateLeft(sum, 5) + i;
        }
        return sum;
    }

    /** Variant s's hot method: 200 one-byte writes to /dev/null, each a system call. */
    static long writeNull() {
        ByteBuffer one = ByteBuffer.allocateDirect(1);
        try (FileChannel devNull = FileChannel.open(Path.of("/dev/null"), StandardOpenOption.WRITE)) {
            long written = 0;
            for (int i = 0; i < 200; i++) {
                one.clear();
                written += devNull.write(one);
            }
            return written;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void holdLedger() {
        while (running) {
            synchronized (LEDGER) {
                LEDGER.entries++;
                pause();
            }
        }
    }

    static void holdGate() {
        while (running) {
            GATE.lock();
            try {
                pause();
            } finally {
                GATE.unlock();
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(15);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package dev.perflab.support.parse;

/**
 * The Java side of scripts/alloc-count/alloccount.c, a JVMTI agent that counts every object the calling thread
 * allocates between {@link #start()} and {@link #stop()} (load it with {@code -agentpath}).
 */
final class AllocationCounter {

    private AllocationCounter() {
    }

    /** Starts counting the allocations of the calling thread. */
    static native void start();

    /** Stops counting: {objects, bytes, then per class (see {@link #className}): objects, bytes}. */
    static native long[] stop();

    /** The JVM signature of the i-th class counted since the last {@link #start()}, e.g. {@code [B}. */
    static native String className(int i);
}

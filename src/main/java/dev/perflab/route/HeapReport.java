package dev.perflab.route;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * Logs the collector the JVM chose and the heap it starts with (seed 001: on 1-2 CPUs and under 1792 MB the JVM
 * picks SerialGC, and {@code -Xmx} without {@code -Xms} starts with a small heap and a tiny young generation).
 * The GC metrics to compare the heap presets: {@code jvm_gc_pause_seconds}, {@code jvm_gc_memory_allocated_bytes_total},
 * {@code jvm_gc_memory_promoted_bytes_total}.
 */
@Component
class HeapReport implements ApplicationListener<ApplicationStartedEvent> {

    private static final Logger log = LoggerFactory.getLogger(HeapReport.class);

    @Override
    public void onApplicationEvent(ApplicationStartedEvent event) {
        log.info(describe());
    }

    static String describe() {
        String collectors = ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(GarbageCollectorMXBean::getName).collect(Collectors.joining(", "));
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return "JVM: collectors [" + collectors + "], heap initial " + mb(heap.getInit()) + " MB, max " + mb(heap.getMax())
                + " MB, " + Runtime.getRuntime().availableProcessors() + " CPUs, flags "
                + ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                        .filter(a -> a.startsWith("-Xm") || a.startsWith("-XX:+Use")).toList();
    }

    private static long mb(long bytes) {
        return bytes < 0 ? -1 : bytes / (1024 * 1024);
    }
}

package dev.perflab.support.interleave;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The power check's planted slowdown: every request of the planted arm burns {@code perflab.lab.interleave.planted-cpu}
 * of its thread's CPU. Registered after Spring Security's filter chain, so only a request that the security filter
 * lets through pays it (the login, which is open, and authenticated calls): an anonymous caller cannot make the app
 * burn CPU by naming the planted arm. {@link ArmFilter}, ahead of security, still counts that CPU in the arm's
 * {@code perflab_lab_arm_cpu_seconds_total}; {@code perflab_lab_arm_planted_seconds_total{arm}} is the part planted.
 */
class PlantedCpuFilter extends OncePerRequestFilter {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final InterleaveProperties properties;
    private final Map<String, Counter> planted;

    PlantedCpuFilter(InterleaveProperties properties, MeterRegistry registry) {
        this.properties = properties;
        this.planted = properties.arms().stream().collect(Collectors.toUnmodifiableMap(arm -> arm, arm ->
                Counter.builder("perflab.lab.arm.planted").baseUnit("seconds").tag("arm", arm)
                        .description("CPU time burnt on purpose for the power check, per arm").register(registry)));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Optional<String> arm = Arm.current();
        long nanos = arm.map(properties::plantedNanos).orElse(0L);
        if (nanos > 0) {
            burn(nanos);
            planted.get(arm.get()).increment(nanos / 1e9);
        }
        chain.doFilter(request, response);
    }

    /** Spends {@code nanos} of this thread's CPU time (the power check's planted slowdown). */
    static void burn(long nanos) {
        if (nanos <= 0) {
            return;
        }
        long until = THREADS.getCurrentThreadCpuTime() + nanos;
        long x = 1;
        while (THREADS.getCurrentThreadCpuTime() < until) {
            for (int i = 0; i < 200; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        }
        if (x == 42) { // keeps the JIT from removing the loop's work
            Thread.onSpinWait();
        }
    }
}

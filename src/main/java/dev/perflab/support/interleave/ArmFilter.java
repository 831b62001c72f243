package dev.perflab.support.interleave;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.stream.Collectors;

import dev.perflab.support.problem.ProblemResponses;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The interleaved mode's per-request variant: reads {@link #HEADER}, refuses an arm the app was not started with
 * (400 {@code unknown-arm}), makes the arm {@link Arm#current()} for the request and counts the request thread's CPU
 * per arm (the planted arm's extra CPU is burnt by {@link PlantedCpuFilter}, after Spring Security, so a request
 * the security filter refuses never pays it): {@code perflab_lab_arm_cpu_seconds_total{arm}} over
 * {@code perflab_lab_arm_requests_total{arm}} is CPU time per request, the runner's co-primary metric beside latency.
 * It covers the request thread only (Spring Security, the controller, JDBC calls), not Lettuce's or GC threads.
 */
class ArmFilter extends OncePerRequestFilter {

    static final String HEADER = "X-Perflab-Arm";

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Map<String, ArmMeters> meters;
    private final ProblemResponses problems;

    ArmFilter(InterleaveProperties properties, MeterRegistry registry, ProblemResponses problems) {
        this.meters = properties.arms().stream().collect(Collectors.toUnmodifiableMap(arm -> arm, arm -> new ArmMeters(
                Counter.builder("perflab.lab.arm.cpu").baseUnit("seconds").tag("arm", arm)
                        .description("request-thread CPU time of the interleaved mode's requests, per arm").register(registry),
                Counter.builder("perflab.lab.arm.requests").tag("arm", arm)
                        .description("requests of the interleaved mode, per arm").register(registry))));
        this.problems = problems;
    }

    /** One arm's counters, registered once at startup (0 from the start), not looked up per request. */
    private record ArmMeters(Counter cpu, Counter requests) {
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String arm = request.getHeader(HEADER);
        if (arm == null) {
            chain.doFilter(request, response);
            return;
        }
        ArmMeters armMeters = meters.get(arm);
        if (armMeters == null) {
            problems.write(response, HttpStatus.BAD_REQUEST, "unknown-arm",
                    "The " + HEADER + " header names no arm of this interleaved run.");
            return;
        }
        long started = THREADS.getCurrentThreadCpuTime();
        Arm.set(arm);
        try {
            chain.doFilter(request, response);
        } finally {
            Arm.clear();
            armMeters.cpu().increment((THREADS.getCurrentThreadCpuTime() - started) / 1e9);
            armMeters.requests().increment();
        }
    }
}

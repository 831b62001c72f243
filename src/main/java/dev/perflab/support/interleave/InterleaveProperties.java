package dev.perflab.support.interleave;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The runner's interleaved mode ({@code ./perflab ab <experiment>} with {@code interleave = true}): one app serves
 * every variant, and each request names its variant (its "arm") in {@link ArmFilter#HEADER}. Off by default; only
 * the runner turns it on, with the profile {@code lab-interleave}. No compose or Kubernetes preset does.
 *
 * @param enabled     whether the app honours the arm header at all (without it the header is ignored)
 * @param arms        the arm names a request may send (the experiment's variant labels, made header-safe)
 * @param plantedArm  the arm that pays {@code plantedCpu} of extra CPU per request: the power check's known slowdown
 * @param plantedCpu  CPU time burnt on the request thread for every request of {@code plantedArm} (at most 50 ms)
 * @param sides       per arm, which side of each feature's per-request code paths it takes ({@link Side}); an arm
 *                    without one takes the app's own knobs
 */
@ConfigurationProperties("perflab.lab.interleave")
public record InterleaveProperties(
        @DefaultValue("false") boolean enabled,
        @DefaultValue("") List<String> arms,
        @DefaultValue("") String plantedArm,
        @DefaultValue("0") Duration plantedCpu,
        Map<String, Side> sides) {

    static final Pattern ARM = Pattern.compile("[a-z0-9][a-z0-9-]{0,39}");
    static final Duration MAX_PLANTED_CPU = Duration.ofMillis(50);

    public InterleaveProperties {
        arms = arms == null ? List.of() : arms.stream().filter(a -> !a.isBlank()).toList();
        for (String arm : arms) {
            if (!ARM.matcher(arm).matches()) {
                throw new IllegalArgumentException("perflab.lab.interleave.arms: \"" + arm
                        + "\" is not an arm name (lower-case letters, digits and '-', at most 40)");
            }
        }
        if (enabled && arms.size() < 2) {
            throw new IllegalArgumentException("perflab.lab.interleave.arms: interleaving needs at least two arms, got " + arms);
        }
        if (!plantedArm.isEmpty() && !arms.contains(plantedArm)) {
            throw new IllegalArgumentException("perflab.lab.interleave.planted-arm: \"" + plantedArm + "\" is not one of " + arms);
        }
        sides = sides == null ? Map.of() : Map.copyOf(sides);
        for (String arm : sides.keySet()) {
            if (!arms.contains(arm)) {
                throw new IllegalArgumentException("perflab.lab.interleave.sides: \"" + arm + "\" is not one of " + arms);
            }
        }
        if (plantedCpu.isNegative() || plantedCpu.compareTo(MAX_PLANTED_CPU) > 0) {
            throw new IllegalArgumentException("perflab.lab.interleave.planted-cpu: " + plantedCpu + " is outside 0..50ms");
        }
    }

    /** The side the arm takes, if the run gave it one. */
    public Optional<Side> side(String arm) {
        return Optional.ofNullable(sides.get(arm));
    }

    /** The extra CPU, in nanoseconds, a request of {@code arm} pays (0 for every arm but the planted one). */
    long plantedNanos(String arm) {
        return arm.equals(plantedArm) ? plantedCpu.toNanos() : 0L;
    }
}

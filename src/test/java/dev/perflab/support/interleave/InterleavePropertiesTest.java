package dev.perflab.support.interleave;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The interleaved mode's settings refuse what a run could not mean, with the setting named. */
class InterleavePropertiesTest {

    private static InterleaveProperties of(boolean enabled, List<String> arms, String planted, Duration cpu, Map<String, Side> sides) {
        return new InterleaveProperties(enabled, arms, planted, cpu, sides);
    }

    @Test
    void interleavingNeedsTwoArms() {
        assertThatThrownBy(() -> of(true, List.of("a"), "", Duration.ZERO, Map.of()))
                .hasMessageContaining("perflab.lab.interleave.arms");
        assertThat(of(false, List.of(), "", Duration.ZERO, null).arms()).isEmpty();
    }

    @Test
    void anArmNameIsHeaderSafe() {
        assertThatThrownBy(() -> of(true, List.of("a", "B c"), "", Duration.ZERO, Map.of()))
                .hasMessageContaining("\"B c\" is not an arm name");
    }

    @Test
    void thePlantedArmAndEachSideBelongToAnArm() {
        assertThatThrownBy(() -> of(true, List.of("a", "b"), "c", Duration.ofNanos(1000), Map.of()))
                .hasMessageContaining("planted-arm");
        assertThatThrownBy(() -> of(true, List.of("a", "b"), "", Duration.ZERO, Map.of("c", Side.AFTER)))
                .hasMessageContaining("sides");
    }

    @Test
    void thePlantedCpuIsBounded() {
        assertThatThrownBy(() -> of(true, List.of("a", "b"), "b", Duration.ofSeconds(1), Map.of()))
                .hasMessageContaining("0..50ms");
    }

    @Test
    void onlyThePlantedArmPaysThePlantedCpu() {
        InterleaveProperties properties = of(true, List.of("a", "b"), "b", Duration.ofMillis(2), Map.of("a", Side.BEFORE));
        assertThat(properties.plantedNanos("b")).isEqualTo(2_000_000L);
        assertThat(properties.plantedNanos("a")).isZero();
        assertThat(properties.side("a")).contains(Side.BEFORE);
        assertThat(properties.side("b")).isEmpty();
    }

    @Test
    void burningSpendsAtLeastTheAskedCpuOfTheThread() {
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadCpuTime();
        PlantedCpuFilter.burn(3_000_000L);
        assertThat(threads.getCurrentThreadCpuTime() - before).isGreaterThanOrEqualTo(3_000_000L);
    }
}

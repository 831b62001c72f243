package dev.perflab.sprout;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The sprout server's port and its life with the app's context: off by default, on when enabled, stopped with it. */
class SproutLifecycleTest {

    private static SproutKnobs knobs(boolean enabled, Integer port) {
        return new SproutKnobs(enabled, port, "127.0.0.1", SproutKnobs.Io.NONBLOCKING, SproutKnobs.Threads.VIRTUAL,
                SproutKnobs.Reader.REFACTORED, Duration.ofSeconds(5), 8, 8, 2);
    }

    @Test
    void itsPortIsTheAppsPlus1000UnlessGiven() {
        assertThat(SproutLifecycle.port(knobs(true, null), 8091)).isEqualTo(9091);
        assertThat(SproutLifecycle.port(knobs(true, null), 0)).isZero();
        assertThat(SproutLifecycle.port(knobs(true, 7000), 8091)).isEqualTo(7000);
    }

    @Test
    void itStartsOnlyWhenEnabledAndStopsWithTheContext() throws IOException {
        SproutMeters meters = new SproutMeters(new SimpleMeterRegistry(), SproutKnobs.Reader.REFACTORED);
        SproutLifecycle off = new SproutLifecycle(knobs(false, 0), 0, meters);
        assertThat(off.isAutoStartup()).isFalse();
        off.start();
        assertThat(off.isRunning()).isFalse();

        SproutLifecycle on = new SproutLifecycle(knobs(true, 0), 0, meters);
        assertThat(on.isAutoStartup()).isTrue();
        on.start();
        assertThat(on.isRunning()).isTrue();
        try (Socket socket = new Socket("127.0.0.1", on.port())) {
            assertThat(socket.isConnected()).isTrue();
        }
        on.stop();
        assertThat(on.isRunning()).isFalse();
    }
}

package dev.perflab.support;

import org.junit.jupiter.api.Test;

import dev.perflab.testing.Http;
import dev.perflab.testing.IntegrationTest;

import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code after} preset switches knobs, and the metrics name the preset as their variant. */
@IntegrationTest
@ActiveProfiles("after")
class PresetIT {

    @LocalServerPort
    int port;

    @Test
    void afterPresetRunsVirtualThreadsAndTagsMetricsWithAfter() {
        String metrics = new Http(port).get("/actuator/prometheus").body();
        assertThat(metrics).contains(
                "perflab_variant_info{feature=\"server\",knob=\"threads\",value=\"virtual\",variant=\"after\"} 1");
        assertThat(metrics).contains(
                "perflab_variant_info{feature=\"parse\",knob=\"header\",value=\"lean\",variant=\"after\"} 1");
        assertThat(metrics).as("the keep-alive refresh calls the auth API all the time: only ever chosen, never preset").contains(
                "perflab_variant_info{feature=\"login\",knob=\"keep-alive-refresh\",value=\"off\",variant=\"after\"} 1");
        assertThat(metrics).doesNotContain("value=\"platform\"").doesNotContain("value=\"naive\"");
    }
}

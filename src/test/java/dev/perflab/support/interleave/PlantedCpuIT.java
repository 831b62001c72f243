package dev.perflab.support.interleave;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

import dev.perflab.support.security.TokenService;
import dev.perflab.testing.Http;
import dev.perflab.testing.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The power check's planted CPU is paid only by requests Spring Security lets through: an anonymous caller that names
 * the planted arm on a path that needs a token is refused (401) before any CPU is burnt for it.
 */
@IntegrationTest
@TestPropertySource(properties = {"perflab.lab.interleave.enabled=true", "perflab.lab.interleave.arms=base,planted",
        "perflab.lab.interleave.planted-arm=planted", "perflab.lab.interleave.planted-cpu=20ms"})
class PlantedCpuIT {

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry registry;

    @Autowired
    TokenService tokens;

    private double planted() {
        return registry.get("perflab.lab.arm.planted").tag("arm", "planted").counter().count();
    }

    @Test
    void anAnonymousRequestNamingThePlantedArmIsRefusedWithoutBurningCpu() {
        double before = planted();
        Http.Response answer = new Http(port).get("/api/auth/me", ArmFilter.HEADER, "planted");
        assertThat(answer.status()).isEqualTo(401);
        assertThat(planted()).isEqualTo(before);
    }

    @Test
    void anAuthenticatedRequestOfThePlantedArmPaysItsCpu() {
        double before = planted();
        Http.Response answer = new Http(port).get("/api/auth/me", ArmFilter.HEADER, "planted",
                "Authorization", "Bearer " + tokens.issue(7, "planted-member").accessToken());
        assertThat(answer.status()).isEqualTo(200);
        assertThat(planted() - before).isEqualTo(0.020, org.assertj.core.data.Offset.offset(1e-9));
    }
}

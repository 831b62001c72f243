package dev.perflab.login;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The delays the lab accepts are exactly the ones the WireMock stub serves. */
class SlowStubMappingsTest {

    @Test
    void everyAllowedDelayHasAStubMappingAndNoOther() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("wiremock/mappings"))) {
            List<Integer> served = files.map(p -> p.getFileName().toString())
                    .filter(name -> name.matches("slow-\\d+\\.json"))
                    .map(name -> Integer.parseInt(name.replaceAll("\\D", "")))
                    .sorted().toList();
            assertThat(served).isEqualTo(AuthApi.SLOW_DELAYS_MS);
        }
    }
}

package dev.perflab.support.parse;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/** What each preset sets for the header parsers (features/parse.yml) and the server, read from the app's own files. */
class ParsePresetsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({"default, naive, platform, off", "before, naive, platform, off", "after, lean, virtual, on",
            "wallet-after, naive, platform, off"})
    void eachPresetSetsTheHeaderParsersAndTheServer(String profile, String header, String threads, String warmup) {
        SpringApplicationBuilder app = new SpringApplicationBuilder(NoBeans.class).web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF).logStartupInfo(false);
        try (ConfigurableApplicationContext context = (profile.equals("default") ? app : app.profiles(profile)).run()) {
            var environment = context.getEnvironment();
            assertThat(environment.getProperty("perflab.parse.header")).isEqualTo(header);
            assertThat(environment.getProperty("perflab.server.threads")).isEqualTo(threads);
            assertThat(environment.getProperty("perflab.server.warmup", "off")).isEqualTo(warmup);
        }
    }

    /** The application's only source: no component scan, no auto-configuration, only its configuration files. */
    static final class NoBeans {
    }
}

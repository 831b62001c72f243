package dev.perflab.support.security;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DevelopmentSecretsTest {

    private static final String GENERATED = "k3Jx9qL0vT2mN8pR4sW6yZ1aB5cD7eF9gH0iJ2kL4mN6";

    private static DevelopmentSecrets secrets(String jwt, String hash, boolean allowed) {
        return new DevelopmentSecrets(new JwtProperties(jwt, Duration.ofHours(1), "perflab", 0),
                new KeyedHash.Properties(hash), allowed);
    }

    @Test
    void theCommittedSecretsAreRefusedAtStartupAndTheMessageNamesThePropertyNotTheValue() {
        assertThatThrownBy(() -> secrets(JwtProperties.DEV_SECRET, GENERATED, false).afterPropertiesSet())
                .hasMessageContaining("perflab.security.jwt.secret").hasMessageNotContaining(JwtProperties.DEV_SECRET);
        assertThatThrownBy(() -> secrets(GENERATED, KeyedHash.Properties.DEV_SECRET, false).afterPropertiesSet())
                .hasMessageContaining("perflab.security.hash.secret");
    }

    @Test
    void generatedSecretsStartAndTheFlagAllowsTheCommittedOnesForTests() {
        assertThatCode(() -> secrets(GENERATED, GENERATED + "x", false).afterPropertiesSet()).doesNotThrowAnyException();
        assertThatCode(() -> secrets(JwtProperties.DEV_SECRET, KeyedHash.Properties.DEV_SECRET, true).afterPropertiesSet())
                .doesNotThrowAnyException();
        assertThat(DevelopmentSecrets.committedIn(GENERATED, GENERATED)).isEmpty();
    }
}

package dev.perflab.support.variant;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KnobsTest {

    @ConfigurationProperties("perflab.demo")
    record DemoKnobs(@DefaultValue("per-request") Client httpClient, @DefaultValue("jackson") Codec codec, int notAKnob) {
    }

    enum Client { PER_REQUEST, POOLED }

    enum Codec { JACKSON, FASTJSON2_JSONB }

    @Test
    void namesAreKebabCase() {
        assertThat(Knobs.kebab("httpClient")).isEqualTo("http-client");
        assertThat(Knobs.kebab("PER_REQUEST")).isEqualTo("per-request");
        assertThat(Knobs.allowedValues(Codec.class)).containsExactly("jackson", "fastjson2-jsonb");
    }

    @Test
    void missingKnobsReadTheirBaselineDefault() {
        var knobs = Knobs.read(DemoKnobs.class, new MockEnvironment());
        assertThat(knobs).extracting(Knobs.Knob::property, Knobs.Knob::value).containsExactly(
                org.assertj.core.groups.Tuple.tuple("perflab.demo.http-client", "per-request"),
                org.assertj.core.groups.Tuple.tuple("perflab.demo.codec", "jackson"));
        assertThat(knobs.getFirst().feature()).isEqualTo("demo");
        assertThat(knobs.getFirst().allowed()).isEqualTo(List.of("per-request", "pooled"));
    }

    @Test
    void aValueIsReadInAnyCase() {
        var environment = new MockEnvironment().withProperty("perflab.demo.codec", "FASTJSON2-JSONB");
        assertThat(Knobs.read(DemoKnobs.class, environment)).extracting(Knobs.Knob::value).contains("fastjson2-jsonb");
    }

    @Test
    void aValueSpelledOtherwiseIsRejectedSoThatConditionsAndBindingAgree() {
        var environment = new MockEnvironment().withProperty("perflab.demo.http-client", "per_request");
        assertThatThrownBy(() -> Knobs.read(DemoKnobs.class, environment))
                .isInstanceOf(InvalidKnobException.class)
                .hasMessage("Invalid value 'per_request' for perflab.demo.http-client; allowed values: per-request, pooled");
    }

    @Test
    void onlyPerflabRecordsAreKnobRecords() {
        assertThat(Knobs.isKnobRecord(DemoKnobs.class)).isTrue();
        assertThat(Knobs.isKnobRecord(String.class)).isFalse();
    }
}

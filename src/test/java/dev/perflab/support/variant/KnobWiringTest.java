package dev.perflab.support.variant;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.perflab.PerflabApplication;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.context.annotation.ScannedGenericBeanDefinition;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.core.type.classreading.MetadataReader;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.stereotype.Component;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A knob's values are declared once, in its enum: every {@code havingValue} in the app names one of them, and
 * every value selects exactly one bean of each type the knob switches ({@link KnobWiring} has the rules). The
 * second half feeds the same check deliberately miswired classes, to show what it catches.
 */
class KnobWiringTest {

    private static final KnobWiring APP = appWiring();

    /** The app's own classes (not the tests'), found by the scanner that Spring's component scan uses. */
    private static KnobWiring appWiring() {
        String appClasses = PerflabApplication.class.getProtectionDomain().getCodeSource().getLocation().toString();
        List<Class<?>> classes = new EveryComponentScanner().findCandidateComponents("dev.perflab").stream()
                .filter(definition -> location(definition).startsWith(appClasses))
                .<Class<?>>map(definition -> ClassUtils.resolveClassName(definition.getBeanClassName(), null))
                .toList();
        return KnobWiring.of(classes.stream().filter(Knobs::isKnobRecord).toList(),
                classes.stream().filter(c -> AnnotatedElementUtils.hasAnnotation(c, Component.class)).toList());
    }

    /** Spring's component scanner without its condition check: it must see the beans of every value. */
    private static final class EveryComponentScanner extends ClassPathScanningCandidateComponentProvider {

        EveryComponentScanner() {
            super(false);
        }

        @Override
        protected boolean isCandidateComponent(MetadataReader reader) {
            AnnotationMetadata metadata = reader.getAnnotationMetadata();
            return metadata.hasAnnotation(ConfigurationProperties.class.getName())
                    || metadata.hasAnnotation(Component.class.getName())
                    || metadata.hasMetaAnnotation(Component.class.getName());
        }
    }

    private static String location(BeanDefinition definition) {
        try {
            return ((ScannedGenericBeanDefinition) definition).getResource().getURL().toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void everyConditionOnAKnobNamesOneOfItsValuesAndEveryValueSelectsExactlyOneBean() {
        assertThat(APP.problems()).as("knob wiring").isEmpty();
    }

    @Test
    void theCheckSeesTheAppsKnobsAndTheBeansTheySelect() {
        assertThat(APP.knobs().get("perflab.login.client").allowed()).containsExactly("per-request", "keep-alive", "pooled");
        assertThat(APP.beansOf("perflab.login.client")).extracting(KnobWiring.Candidate::name).contains(
                "login.client.PerRequestClientConfiguration.authApiHttpClient()",
                "login.client.KeepAliveClientConfiguration.authApiHttpClient()",
                "login.client.PooledClientConfiguration.authApiHttpClient()");
        assertThat(APP.beansOf("perflab.parse.header")).extracting(KnobWiring.Candidate::name).contains(
                "support.parse.ParseConfiguration.Lean.leanIdempotencyKeyParser()",
                "support.parse.ParseConfiguration.Naive.naiveBearerTokenResolver()");
        assertThat(APP.switchedTypes("perflab.parse.header")).containsExactlyInAnyOrder(
                "support.parse.IdempotencyKeyParser", "org.springframework.security.oauth2.server.resource.web.BearerTokenResolver");
        assertThat(APP.switchedTypes("perflab.wallet.cache")).containsExactlyInAnyOrder("wallet.LedgerCodes", "wallet.MemberDirectory");
        assertThat(APP.switchedTypes("perflab.route.codec")).containsExactly("route.RouteCodec");
        assertThat(APP.switchedTypes("perflab.server.warmup")).as("the warm-up's beans are add-ons of 'on'").isEmpty();
        assertThat(APP.beansOf("perflab.server.warmup")).hasSizeGreaterThan(1);
    }

    // --- the check itself, on miswired examples of the knob perflab.demo.http-client (per-request | pooled) ---

    @Test
    void aWellWiredKnobHasNoProblemEvenWithAnAddOnAndAValueInUpperCase() {
        assertThat(problems(PerRequestHttp.class, PooledHttp.class, PoolMetrics.class, UpperCaseCodecConfiguration.class,
                LoginUsingHttp.class)).isEmpty();
    }

    @Test
    void aMisspeltHavingValueIsNamedWithItsClassPropertyAndValue() {
        assertThat(problems(PerRequestHttp.class, MisspeltPooledHttp.class, LoginUsingHttp.class)).containsExactly(
                "support.variant.KnobWiringTest.MisspeltPooledHttp: @ConditionalOnProperty(name = \"perflab.demo.http-client\","
                        + " havingValue = \"poooled\") names no value of support.variant.KnobsTest.Client (allowed: per-request, pooled)",
                "perflab.demo.http-client=pooled selects 0 beans of support.variant.KnobWiringTest.DemoHttp [],"
                        + " needs exactly one (injected alone by support.variant.KnobWiringTest.LoginUsingHttp)");
    }

    @Test
    void aValueWithTwoBeansAndAValueWithNoneAreNamed() {
        assertThat(problems(PerRequestHttp.class, CopiedPerRequestHttp.class, LoginUsingHttp.class)).containsExactly(
                "perflab.demo.http-client unset selects [support.variant.KnobWiringTest.PerRequestHttp] but"
                        + " perflab.demo.http-client=per-request (the baseline) selects"
                        + " [support.variant.KnobWiringTest.PerRequestHttp, support.variant.KnobWiringTest.CopiedPerRequestHttp]",
                "perflab.demo.http-client=per-request selects 2 beans of support.variant.KnobWiringTest.DemoHttp"
                        + " [support.variant.KnobWiringTest.PerRequestHttp, support.variant.KnobWiringTest.CopiedPerRequestHttp],"
                        + " needs exactly one (injected alone by support.variant.KnobWiringTest.LoginUsingHttp)",
                "perflab.demo.http-client=pooled selects 0 beans of support.variant.KnobWiringTest.DemoHttp [],"
                        + " needs exactly one (injected alone by support.variant.KnobWiringTest.LoginUsingHttp)");
    }

    @Test
    void twoBeansForOneValueOfATypeTheKnobSwitchesAreNamedEvenWhenNothingInjectsIt() {
        assertThat(problems(JacksonCodec.class, JsonbCodec.class, SecondJacksonCodec.class)).containsExactly(
                "perflab.demo.codec=jackson selects 2 beans of support.variant.KnobWiringTest.DemoCodec"
                        + " [support.variant.KnobWiringTest.JacksonCodec, support.variant.KnobWiringTest.SecondJacksonCodec],"
                        + " needs exactly one (switched by perflab.demo.codec)");
    }

    @Test
    void matchIfMissingBelongsOnlyOnTheBaseline() {
        assertThat(problems(PerRequestHttpNotByDefault.class, PooledHttpByDefault.class)).containsExactly(
                "support.variant.KnobWiringTest.PooledHttpByDefault: matchIfMissing = true on perflab.demo.http-client=pooled,"
                        + " but the baseline is per-request: only the baseline's beans may match a missing knob",
                "perflab.demo.http-client unset selects [support.variant.KnobWiringTest.PooledHttpByDefault] but"
                        + " perflab.demo.http-client=per-request (the baseline) selects [support.variant.KnobWiringTest.PerRequestHttpNotByDefault]");
    }

    @Test
    void aConditionOnAPerflabPropertyThatIsNoKnobIsNamed() {
        assertThat(problems(MisspeltPropertyHttp.class)).singleElement().asString()
                .startsWith("support.variant.KnobWiringTest.MisspeltPropertyHttp: @ConditionalOnProperty names"
                        + " perflab.demo.http-clinet, which is no knob");
    }

    @Test
    void aValueWithSpacesAroundStopsStartupBecauseNoConditionWouldMatchIt() {
        var spaced = Map.of("perflab.demo.http-client", " pooled ");
        assertThat(KnobWiring.of(List.of(KnobsTest.DemoKnobs.class), List.of(PooledHttp.class)).selectedWith(spaced))
                .as("@ConditionalOnProperty compares the raw value, spaces included").isEmpty();
        var environment = new MockEnvironment();
        spaced.forEach(environment::setProperty);
        assertThatThrownBy(() -> Knobs.read(KnobsTest.DemoKnobs.class, environment))
                .isInstanceOf(InvalidKnobException.class)
                .hasMessage("Invalid value ' pooled ' for perflab.demo.http-client; allowed values: per-request, pooled");
    }

    private static List<String> problems(Class<?>... beanClasses) {
        return KnobWiring.of(List.of(KnobsTest.DemoKnobs.class), List.of(beanClasses)).problems();
    }

    // No @Component on these: they are fed to the check by hand and never reach the app's component scan.

    interface DemoHttp {
    }

    @ConditionalOnProperty(name = "perflab.demo.http-client", havingValue = "per-request", matchIfMissing = true)
    static class PerRequestHttp implements DemoHttp {
    }

    @ConditionalOnProperty(name = "perflab.demo.http-client", havingValue = "pooled")
    static class PooledHttp implements DemoHttp {
    }

    /** An add-on: only the pooled variant has it, and nothing needs it alone. */
    @ConditionalOnProperty(name = "perflab.demo.http-client", havingValue = "pooled")
    static class PoolMetrics {
    }

    static class UpperCaseCodecConfiguration {

        @Bean
        @ConditionalOnProperty(name = "perflab.demo.codec", havingValue = "JACKSON", matchIfMissing = true)
        DemoCodec jackson() {
            return new JacksonCodec();
        }

        @Bean
        @ConditionalOnProperty(name = "perflab.demo.codec", havingValue = "Fastjson2-Jsonb")
        DemoCodec jsonb() {
            return new JsonbCodec();
        }
    }

    static class LoginUsingHttp {

        LoginUsingHttp(DemoHttp http) {
        }
    }

    @ConditionalOnProperty(name = "perflab.demo.http-client", havingValue = "poooled")
    static class MisspeltPooledHttp implements DemoHttp {
    }

    /** Copied from PerRequestHttp as the start of the pooled variant, its havingValue left unchanged. */
    @ConditionalOnProperty(name = "perflab.demo.http-client", havingValue = "per-request")
    static class CopiedPerRequestHttp implements DemoHttp {
    }

    interface DemoCodec {
    }

    @ConditionalOnProperty(name = "perflab.demo.codec", havingValue = "jackson", matchIfMissing = true)
    static class JacksonCodec implements DemoCodec {
    }

    @ConditionalOnProperty(name = "perflab.demo.codec", havingValue = "fastjson2-jsonb")
    static class JsonbCodec implements DemoCodec {
    }

    @ConditionalOnProperty(name = "perflab.demo.codec", havingValue = "jackson", matchIfMissing = true)
    static class SecondJacksonCodec implements DemoCodec {
    }

    @ConditionalOnProperty(name = "perflab.demo.http-client", havingValue = "per-request")
    static class PerRequestHttpNotByDefault implements DemoHttp {
    }

    @ConditionalOnProperty(name = "perflab.demo.http-client", havingValue = "pooled", matchIfMissing = true)
    static class PooledHttpByDefault implements DemoHttp {
    }

    @ConditionalOnProperty(name = "perflab.demo.http-clinet", havingValue = "pooled")
    static class MisspeltPropertyHttp {
    }
}

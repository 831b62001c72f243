package dev.perflab.route;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;
import java.util.RandomAccess;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.apache.fory.Fory;
import org.apache.fory.config.Language;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.perflab.route.codec.Fastjson2JsonbRouteCodec;
import dev.perflab.route.codec.Fastjson2RouteCodec;
import dev.perflab.route.codec.ForyRouteCodec;
import dev.perflab.route.codec.JacksonRouteCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every codec round-trips a batch exactly, and rejects bytes that are not a route batch of its own format. */
class RouteCodecTest {

    static Stream<RouteCodec> codecs() {
        return Stream.of(new JacksonRouteCodec(), new Fastjson2RouteCodec(), new Fastjson2JsonbRouteCodec(), new ForyRouteCodec());
    }

    static RouteBatch sample(int routes) {
        List<LightRoute> list = new ArrayList<>();
        for (int i = 0; i < routes; i++) {
            list.add(new LightRoute(10_000_000L + i, 2.5 + i / 7.0,
                    new LightNode(20_000_000L + i, 37.500031978185554 + i * 1e-6, 126.99994002808575 + i * 1e-6),
                    new LightNode(20_000_001L + i, 37.50003485013653 + i * 1e-6, 126.99997056161216 + i * 1e-6),
                    i % 10 == 0 ? List.of(CautionFactor.CRACK, CautionFactor.SLOPE) : List.of(),
                    i % 33 == 0 ? List.of(DangerFactor.STAIRS) : List.of()));
        }
        return new RouteBatch(7, 42, 3, list);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("codecs")
    void roundTripsABatchExactly(RouteCodec codec) {
        RouteBatch batch = sample(2500);
        assertThat(codec.decode(codec.encode(batch))).isEqualTo(batch);
        // Jackson and fastjson2 JSON must agree on the bytes' meaning: the seed swapped one for the other
        assertThat(new JacksonRouteCodec().decode(new Fastjson2RouteCodec().encode(batch))).isEqualTo(batch);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("codecs")
    void rejectsABatchOfAnotherUniversityOrIndex(RouteCodec codec) {
        byte[] bytes = codec.encode(sample(3));
        assertThat(codec.decode(bytes, 7, 3).routes()).hasSize(3);
        assertThatThrownBy(() -> codec.decode(bytes, 8, 3)).isInstanceOf(RouteCodecException.class);
        assertThatThrownBy(() -> codec.decode(bytes, 7, 0)).isInstanceOf(RouteCodecException.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("codecs")
    void rejectsBytesThatAreNotARouteBatch(RouteCodec codec) {
        for (byte[] junk : List.of("not a batch".getBytes(StandardCharsets.UTF_8), new byte[] {0, 1, 2, 3, 4, 5},
                "[1,2,3]".getBytes(StandardCharsets.UTF_8), new byte[0])) {
            assertThatThrownBy(() -> codec.decode(junk, 7, 3)).as(codec.name()).isInstanceOf(RouteCodecException.class);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("codecs")
    void acceptsOnlyArrayBackedListsWhichTheGraphWalksByIndex(RouteCodec codec) {
        RouteBatch linked = new RouteBatch(7, 42, 3, new LinkedList<>(sample(3).routes()));
        assertThat(RouteBatch.wellFormed(linked)).isFalse();
        assertThat(RouteBatch.wellFormed(sample(3))).isTrue();
        byte[] bytes = codec.encode(linked);
        try { // JSON decodes an array to an ArrayList, so the value is fine; a binary codec may keep the linked list
            RouteBatch decoded = codec.decode(bytes, 7, 3);
            assertThat(decoded.routes()).isInstanceOf(RandomAccess.class).hasSize(3);
        } catch (RouteCodecException rejected) {
            assertThat(codec.name()).isEqualTo("fory");
        }
    }

    @Test
    void fastjson2RejectsAutoTypeWithoutLoadingTheClass() {
        String[] payloads = {
                "{\"@type\":\"dev.perflab.route.Gadget\",\"command\":\"calc\"}",
                "{\"univId\":1,\"version\":1,\"index\":0,\"routes\":[{\"@type\":\"dev.perflab.route.Gadget\",\"command\":\"calc\"}]}",
                "{\"@type\":\"com.sun.rowset.JdbcRowSetImpl\",\"dataSourceName\":\"ldap://127.0.0.1:1389/x\",\"autoCommit\":true}"};
        for (String payload : payloads) {
            byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);
            assertThatThrownBy(() -> new Fastjson2RouteCodec().decode(bytes, 1, 0)).isInstanceOf(RouteCodecException.class);
            assertThatThrownBy(() -> new JacksonRouteCodec().decode(bytes, 1, 0)).isInstanceOf(RouteCodecException.class);
        }
        assertThat(GadgetProbe.initialized).isFalse();
        assertThat(GadgetProbe.INSTANCES).hasValue(0);
    }

    @Test
    void foryRejectsAnUnregisteredClassWithoutBuildingIt() {
        Fory permissive = Fory.builder().withLanguage(Language.JAVA).requireClassRegistration(false).build();
        byte[] foreign = permissive.serialize(new Unregistered("calc"));
        int built = Unregistered.BUILT.get();

        assertThatThrownBy(() -> new ForyRouteCodec().decode(foreign)).isInstanceOf(RouteCodecException.class);
        assertThatThrownBy(() -> new ForyRouteCodec().decode(foreign, 7, 3)).isInstanceOf(RouteCodecException.class);
        assertThat(Unregistered.BUILT).hasValue(built);
    }

    public record Unregistered(String command) {
        static final AtomicInteger BUILT = new AtomicInteger();

        public Unregistered {
            BUILT.incrementAndGet();
        }
    }
}

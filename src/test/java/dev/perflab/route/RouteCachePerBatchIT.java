package dev.perflab.route;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RouteCacheIT}'s cases again with {@code cache-read=per-batch}, where a hit feeds each batch to the graph as
 * it is decoded: a corrupt batch part-way (batch 1 there) must discard the batches already fed, or the answer counts
 * them twice. Here: the last batch corrupt, the answer identical to the clean one.
 */
@TestPropertySource(properties = "perflab.route.cache-read=per-batch")
class RouteCachePerBatchIT extends RouteCacheIT {

    @Test
    void aCorruptLastBatchGivesTheSameAnswerAsTheCleanCache() {
        JsonNode clean = routes(UNIV).json();
        rawRedis().opsForValue().set(PREFIX + "batch:2", "[1,2".getBytes(StandardCharsets.UTF_8));
        double corrupt = count("perflab.route.cache.corrupt");

        JsonNode answer = routes(UNIV).json();

        assertThat(answer).isEqualTo(clean);
        assertThat(count("perflab.route.cache.corrupt")).isEqualTo(corrupt + 1);
        assertThat(routes(UNIV).json()).as("the reloaded cache").isEqualTo(clean);
    }
}

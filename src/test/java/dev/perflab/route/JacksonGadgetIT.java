package dev.perflab.route;

import org.springframework.test.context.TestPropertySource;

import dev.perflab.testing.IntegrationTest;

/** Jackson polymorphic-typing gadgets ({@code @class}, wrapper arrays) in Redis: rejected, nothing built, served from the database. */
@IntegrationTest
@TestPropertySource(properties = {"perflab.route.cache=redis", "perflab.route.layout=batched",
        "perflab.route.codec=jackson", "perflab.route.batch-size=4"})
class JacksonGadgetIT extends GadgetPayloadContract {

    @Override
    long univId() {
        return 9302;
    }

    @Override
    String[] gadgets() {
        return new String[] {
                "{\"@class\":\"dev.perflab.route.Gadget\",\"command\":\"touch /tmp/pwned\"}",
                "[\"dev.perflab.route.Gadget\",{\"command\":\"x\"}]",
                "{\"univId\":9302,\"version\":1,\"index\":2,\"routes\":[[\"dev.perflab.route.Gadget\",{\"command\":\"x\"}]]}"};
    }
}

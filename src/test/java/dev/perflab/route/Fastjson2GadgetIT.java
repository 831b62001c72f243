package dev.perflab.route;

import org.springframework.test.context.TestPropertySource;

import dev.perflab.testing.IntegrationTest;

/** fastjson2 AutoType gadgets ({@code @type}) in Redis: rejected, nothing built, served from the database. */
@IntegrationTest
@TestPropertySource(properties = {"perflab.route.cache=redis", "perflab.route.layout=batched",
        "perflab.route.codec=fastjson2", "perflab.route.batch-size=4"})
class Fastjson2GadgetIT extends GadgetPayloadContract {

    @Override
    long univId() {
        return 9301;
    }

    @Override
    String[] gadgets() {
        return new String[] {
                "{\"@type\":\"dev.perflab.route.Gadget\",\"command\":\"touch /tmp/pwned\"}",
                "{\"univId\":9301,\"version\":1,\"index\":1,\"routes\":[{\"@type\":\"dev.perflab.route.Gadget\",\"command\":\"x\"}]}",
                "{\"@type\":\"com.sun.rowset.JdbcRowSetImpl\",\"dataSourceName\":\"ldap://127.0.0.1:1389/x\",\"autoCommit\":true}"};
    }
}

package dev.perflab.route;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONReader;
import com.alibaba.fastjson2.reader.ObjectReaderProvider;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** fastjson2's safe mode is on (src/main/resources/fastjson2.properties): no AutoType, whatever a reader asks for. */
class Fastjson2SafeModeTest {

    @Test
    void safeModeIsOnSoEvenAReaderThatAsksForAutoTypeGetsNoClassFromTheInput() {
        assertThat(ObjectReaderProvider.SAFE_MODE).isTrue();
        Object parsed = JSON.parseObject("{\"@type\":\"java.net.InetAddress\",\"val\":\"127.0.0.1\"}",
                Object.class, JSONReader.Feature.SupportAutoType);
        assertThat(parsed).isNotInstanceOf(java.net.InetAddress.class).isInstanceOf(java.util.Map.class);
    }
}

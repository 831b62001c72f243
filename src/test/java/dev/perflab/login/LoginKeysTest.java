package dev.perflab.login;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LoginKeysTest {

    @Test
    void defaultIgnorableCodePointsDoNotMakeAnotherLoginId() {
        for (String spelling : new String[] {"user1\u200B", "us\u00ADer1", "\uFEFFuser1", "user\u200D1", "user\u200C1",
                "u\u2060ser1", "user1\uFE0F", "user1\uDB40\uDC01", " USER1 ", "\uFF55ser1"}) {
            assertThat(LoginKeys.loginId(spelling)).as(spelling.codePoints().mapToObj(Integer::toHexString).toList()
                    .toString()).isEqualTo("user1");
        }
        assertThat(LoginKeys.loginId("user2")).isEqualTo("user2");
    }

    @Test
    void anIpv6ClientCountsPerSlash64AndAnIpv4ClientPerAddress() {
        assertThat(LoginKeys.address("2001:db8:1:2:aaaa::1")).isEqualTo(LoginKeys.address("2001:db8:1:2:ffff:1:2:3"))
                .isEqualTo(LoginKeys.address("[2001:db8:1:2::9]")).isEqualTo("20010db800010002::/64");
        assertThat(LoginKeys.address("2001:db8:1:3::1")).isNotEqualTo(LoginKeys.address("2001:db8:1:2::1"));
        assertThat(LoginKeys.address("0:0:0:0:0:0:0:1")).isEqualTo(LoginKeys.address("::1"));
        assertThat(LoginKeys.address("192.0.2.7")).isEqualTo("192.0.2.7");
        assertThat(LoginKeys.address("192.0.2.8")).isNotEqualTo(LoginKeys.address("192.0.2.7"));
        assertThat(LoginKeys.address("::ffff:192.0.2.7")).isEqualTo("192.0.2.7");
        assertThat(LoginKeys.address("not-an-address")).isEqualTo("not-an-address");
    }
}

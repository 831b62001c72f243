package dev.perflab.support.security;

import dev.perflab.testing.IntegrationTest;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MariaDB has no HMAC: the PIN migration and the seeder compute it with SHA2() and the key's pads. Here the SQL form
 * must give exactly what the app computes, for the secret in use and for one longer than a block (hashed first).
 */
@IntegrationTest
class KeyedHashSqlIT {

    private static final String SQL = "SELECT SHA2(CONCAT(UNHEX(?), UNHEX(SHA2(CONCAT(UNHEX(?), ?), 256))), 256)";

    @Autowired
    KeyedHash keyed;
    @Autowired
    JdbcTemplate jdbc;

    private String inSql(KeyedHash hash, String message) {
        KeyedHash.Pads pads = hash.pads();
        return jdbc.queryForObject(SQL, String.class, pads.outer(), pads.inner(), message);
    }

    @Test
    void theSqlFormOfTheHmacEqualsTheAppsForAShortAndALongKey() {
        String message = "5994471abb01112afcc18159f6cc74b4f511b99806da59b3caf5a9c173cacfc5";
        KeyedHash longKey = new KeyedHash(new KeyedHash.Properties("x".repeat(100)));

        assertThat(inSql(keyed, message)).isEqualTo(keyed.hex(message));
        assertThat(inSql(longKey, message)).isEqualTo(longKey.hex(message)).isNotEqualTo(keyed.hex(message));
    }
}

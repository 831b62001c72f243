package db.migrations;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import dev.perflab.support.security.KeyedHash;

import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;
import org.springframework.stereotype.Component;

/**
 * Keys the stored PIN hashes: each {@code wallet.pin_hash} (an unkeyed SHA-256 until now) becomes the HMAC of itself
 * under the hash secret, the form {@code dev.perflab.wallet.Pins} computes. MariaDB has no HMAC function, so the key's pads come from
 * {@link KeyedHash#pads()} and SQL does the two SHA-256 rounds, in slices of 100,000 rows (a 3-million-row data set
 * takes seconds, not one huge transaction). A Java migration, found by Flyway as a Spring bean (the app's and
 * {@code MigrateOnly}'s component scans include this package): it needs the secret, so Flyway cannot build it itself.
 * Its package mirrors {@code db/migrations}, where the SQL migrations are; Flyway validates a Java migration by
 * version, description and type (it keeps no checksum), so the move from {@code dev.perflab.wallet} left databases
 * migrated before it valid (their history's {@code script} still names the old class).
 */
@Component
public class V6__Key_pin_hashes extends BaseJavaMigration {

    private static final int SLICE = 100_000;
    private static final String WRAP = "UPDATE wallet SET pin_hash = SHA2(CONCAT(UNHEX(?), UNHEX(SHA2(CONCAT(UNHEX(?), "
            + "pin_hash), 256))), 256) WHERE id BETWEEN ? AND ?";

    private final KeyedHash keyed;

    V6__Key_pin_hashes(KeyedHash keyed) {
        this.keyed = keyed;
    }

    @Override
    public void migrate(Context context) throws SQLException {
        Connection connection = context.getConnection();
        long first;
        long last;
        try (Statement bounds = connection.createStatement();
                ResultSet range = bounds.executeQuery("SELECT COALESCE(MIN(id), 1), COALESCE(MAX(id), 0) FROM wallet")) {
            range.next();
            first = range.getLong(1);
            last = range.getLong(2);
        }
        KeyedHash.Pads pads = keyed.pads();
        try (PreparedStatement wrap = connection.prepareStatement(WRAP)) {
            for (long from = first; from <= last; from += SLICE) {
                wrap.setString(1, pads.outer());
                wrap.setString(2, pads.inner());
                wrap.setLong(3, from);
                wrap.setLong(4, Math.min(last, from + SLICE - 1));
                wrap.executeUpdate();
            }
        }
    }
}

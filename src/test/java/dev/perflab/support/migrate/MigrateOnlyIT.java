package dev.perflab.support.migrate;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.perflab.testing.TestServices;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The migrate-only mode that {@code ./perflab migrate} and the seed commands run: a new database gets every
 * migration, with the wallet index it asks for, and the JVM's main returns (no web server keeps it alive).
 */
class MigrateOnlyIT {

    private final String url = (String) TestServices.properties().get("spring.datasource.url");
    private final String server = url.substring(0, url.lastIndexOf('/') + 1);
    private final String database = url.substring(url.lastIndexOf('/') + 1).replaceAll("\\?.*", "") + "_migrate";

    @Test
    void migratesANewDatabaseWithTheRequestedWalletIndexAndReturns() throws SQLException {
        execute(server, "DROP DATABASE IF EXISTS `" + database + "`", "CREATE DATABASE `" + database + "`");

        MigrateOnly.main(new String[] {"--spring.datasource.url=" + server + database, "--perflab.wallet.index=unique",
                "--spring.main.banner-mode=off", "--logging.level.root=WARN"});

        assertThat(strings("SELECT version FROM flyway_schema_history WHERE success = 1 ORDER BY installed_rank"))
                .containsExactlyElementsOf(migrationVersions());
        assertThat(strings("SELECT non_unique FROM information_schema.statistics WHERE table_schema = DATABASE()"
                + " AND table_name = 'wallet' AND column_name = 'member_id'")).containsOnly("0");
    }

    @Test
    void migratingAgainChangesNothing() throws SQLException {
        execute(server, "DROP DATABASE IF EXISTS `" + database + "`", "CREATE DATABASE `" + database + "`");
        String[] args = {"--spring.datasource.url=" + server + database, "--logging.level.root=WARN"};
        MigrateOnly.main(args);
        List<String> first = strings("SELECT CONCAT(version, ':', checksum) FROM flyway_schema_history ORDER BY installed_rank");

        MigrateOnly.main(args);

        assertThat(strings("SELECT CONCAT(version, ':', checksum) FROM flyway_schema_history ORDER BY installed_rank"))
                .isEqualTo(first);
        assertThat(strings("SELECT non_unique FROM information_schema.statistics WHERE table_schema = DATABASE()"
                + " AND table_name = 'wallet' AND column_name = 'member_id'")).containsOnly("1");
    }

    private List<String> strings(String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection connection = connect(server + database); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                values.add(rows.getString(1));
            }
        }
        return values;
    }

    private static void execute(String jdbcUrl, String... statements) throws SQLException {
        try (Connection connection = connect(jdbcUrl); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    private static Connection connect(String jdbcUrl) throws SQLException {
        return DriverManager.getConnection(jdbcUrl, env("PERFLAB_DB_USER", "perflab"), env("PERFLAB_DB_PASSWORD", "perflab"));
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    /**
     * Every migration, in version order: the SQL ones in db/migrations (V3_1__x.sql is "3.1") and the Java ones, classes
     * named V&lt;n&gt;__x under src/main/java (Flyway finds them as Spring beans).
     */
    private static java.util.List<String> migrationVersions() {
        try (var sql = java.nio.file.Files.list(java.nio.file.Path.of("db", "migrations"));
                var classes = java.nio.file.Files.walk(java.nio.file.Path.of("src", "main", "java"))) {
            return java.util.stream.Stream.concat(sql, classes).map(path -> path.getFileName().toString())
                    .filter(name -> name.matches("V[0-9_]+__.*\\.(sql|java)"))
                    .map(name -> name.substring(1, name.indexOf("__")).replace('_', '.'))
                    .sorted(java.util.Comparator.comparing(java.lang.module.ModuleDescriptor.Version::parse))
                    .toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}

package dev.perflab.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.mariadb.MariaDBContainer;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.MapPropertySource;

/**
 * Where the integration tests find MariaDB and Redis. The one place that decides: Testcontainers when a
 * Docker engine answers, else the local stack ({@code ./perflab stack up}) on the standard ports, which
 * {@code PERFLAB_DB_HOST/PORT} and {@code PERFLAB_REDIS_HOST/PORT} override. {@code PERFLAB_TEST_SERVICES=local}
 * skips the Docker probe; {@code PERFLAB_TEST_DB} and {@code PERFLAB_TEST_REDIS_DB} pick the database and the
 * Redis logical database, so that two checkouts can run their tests at once.
 */
@Order(0)
public final class TestServices implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    /** The database the integration tests migrate and use; {@code PERFLAB_TEST_DB} overrides it. */
    private static final String TEST_DATABASE = env("PERFLAB_TEST_DB", "perflab_test");
    private static Map<String, Object> properties;

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("perflabTestServices", properties()));
        // the tests' wallets have the test-only PIN 1234 (WalletFixtures), not the install's: the warm-up's dry-run
        // transfers use theirs
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("perflabTestPin",
                Map.of("perflab.wallet.warmup-pin", "1234")));
        // the guards' counts (in Redis) outlive a test: a few deliberate wrong passwords and PINs per test must not add
        // up to a lockout of shared accounts (user1, perflab-admin) or of a hostile test's member. Lowest precedence,
        // so a test's own properties (TransferContract, LoginGuardIT) set the real limits. The stub's admin is an admin
        // (the app lists none unless configured).
        context.getEnvironment().getPropertySources().addLast(new MapPropertySource("perflabTestDefaults", Map.of(
                "perflab.wallet.pin-guard.max-failures", 1_000_000,
                "perflab.wallet.pin-guard.free-failures", 999_999,
                "perflab.security.login-guard.max-failures-per-login", 1_000_000,
                "perflab.security.login-guard.free-failures-per-login", 999_999,
                "perflab.security.login-guard.max-failures-per-address", 1_000_000,
                "perflab.security.login-guard.free-failures-per-address", 999_999,
                "perflab.security.admin.ids", TestCredentials.ADMIN_ID)));
    }

    public static synchronized Map<String, Object> properties() {
        if (properties == null) {
            properties = useDocker() ? containers() : local();
        }
        return properties;
    }

    private static boolean useDocker() {
        String mode = env("PERFLAB_TEST_SERVICES", "auto");
        return switch (mode) {
            case "local" -> false;
            case "docker" -> true;
            default -> DockerClientFactory.instance().isDockerAvailable();
        };
    }

    @SuppressWarnings("resource") // the containers live as long as the test JVM; Ryuk removes them
    private static Map<String, Object> containers() {
        MariaDBContainer mariadb = new MariaDBContainer(DockerImageName.parse("mariadb:11.4"))
                .withDatabaseName(TEST_DATABASE).withUsername("perflab").withPassword("perflab")
                // the grants compose's MariaDB gets (perflab% databases: the tests' own, such as perflab_test_after)
                .withCopyFileToContainer(MountableFile.forHostPath("stack/mariadb-init/01-perflab.sql"),
                        "/docker-entrypoint-initdb.d/01-perflab.sql")
                // as the native stack and compose: the tests' contexts hold more than MariaDB's default 151 connections
                .withCommand("--innodb-buffer-pool-size=512M", "--local-infile=1", "--max-connections=500");
        GenericContainer<?> redis = new GenericContainer<>(DockerImageName.parse("redis:7-alpine")).withExposedPorts(6379);
        mariadb.start();
        redis.start();
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("spring.datasource.url", mariadb.getJdbcUrl());
        map.put("spring.datasource.username", "perflab");
        map.put("spring.datasource.password", "perflab");
        map.put("spring.data.redis.host", redis.getHost());
        map.put("spring.data.redis.port", redis.getMappedPort(6379));
        map.put("spring.data.redis.password", ""); // the container's Redis has none; the native stack's (config tree) is not its
        return map;
    }

    private static Map<String, Object> local() {
        String dbHost = env("PERFLAB_DB_HOST", "127.0.0.1");
        int dbPort = Integer.parseInt(env("PERFLAB_DB_PORT", "3306"));
        String redisHost = env("PERFLAB_REDIS_HOST", "127.0.0.1");
        int redisPort = Integer.parseInt(env("PERFLAB_REDIS_PORT", "6379"));
        requireReachable("MariaDB", dbHost, dbPort);
        requireReachable("Redis", redisHost, redisPort);
        createDatabaseIfMissing(dbHost, dbPort);
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("spring.datasource.url", "jdbc:mariadb://" + dbHost + ":" + dbPort + "/" + TEST_DATABASE);
        map.put("spring.data.redis.host", redisHost);
        map.put("spring.data.redis.port", redisPort);
        map.put("spring.data.redis.database", Integer.parseInt(env("PERFLAB_TEST_REDIS_DB", "0")));
        return map;
    }

    private static void createDatabaseIfMissing(String host, int port) {
        String user = env("PERFLAB_DB_USER", "perflab");
        try (Connection connection = DriverManager.getConnection("jdbc:mariadb://" + host + ":" + port + "/", user,
                env("PERFLAB_DB_PASSWORD", "perflab")); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE IF NOT EXISTS `" + TEST_DATABASE + "`");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the test database " + TEST_DATABASE + " as " + user
                    + " (./perflab stack up grants perflab% to it): " + e.getMessage(), e);
        }
    }

    private static void requireReachable(String name, String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 1000);
        } catch (IOException e) {
            throw new IllegalStateException(name + " is not reachable at " + host + ":" + port
                    + " and no Docker engine answers: start the local stack with `./perflab stack up`"
                    + " (or point PERFLAB_" + (name.equals("Redis") ? "REDIS" : "DB") + "_HOST/_PORT at one)");
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}

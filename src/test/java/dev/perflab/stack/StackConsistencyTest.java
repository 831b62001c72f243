package dev.perflab.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No Docker engine runs where perflab is developed, so nothing would notice docker-compose.yml drifting
 * away from .env, application.yml and the native stack. This test does.
 */
class StackConsistencyTest {

    private static final Pattern PORT_MAPPING = Pattern.compile("127\\.0\\.0\\.1:\\$\\{(PERFLAB_[A-Z_]+):-(\\d+)}:(\\d+)");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{(PERFLAB_[A-Z_]+):([^}]*)}");

    private final Map<String, String> env = dotEnv();
    private final Map<String, Object> compose = yaml("docker-compose.yml");

    /** service → the .env variable of its host port, and the port the service listens on inside its container. */
    private static final Map<String, List<String>> SERVICE_PORTS = Map.of(
            "app", List.of("PERFLAB_APP_PORT", "8080"),
            "mariadb", List.of("PERFLAB_DB_PORT", "3306"),
            "redis", List.of("PERFLAB_REDIS_PORT", "6379"),
            "prometheus", List.of("PERFLAB_PROMETHEUS_PORT", "9090"),
            "grafana", List.of("PERFLAB_GRAFANA_PORT", "3000"));

    @Test
    void composeHasTheWholeStackWithK6UnderTheLoadProfile() {
        assertThat(services().keySet()).containsExactlyInAnyOrder(
                "app", "mariadb", "redis", "wiremock", "toxiproxy", "toxiproxy-config", "prometheus", "grafana", "k6",
                "secrets", "stub-secrets", "seed", "runner");
        assertThat(service("k6").get("profiles")).isEqualTo(List.of("load"));
        // the A/B runner starts only when asked (docker compose run --rm runner ...): it mounts the engine's socket
        assertThat(service("runner").get("profiles")).isEqualTo(List.of("runner"));
        for (String name : List.of("app", "mariadb", "redis", "wiremock", "prometheus")) {
            assertThat(service(name)).as(name + " has a healthcheck").containsKey("healthcheck");
        }
        @SuppressWarnings("unchecked")
        Map<String, Map<String, String>> dependsOn = (Map<String, Map<String, String>>) service("app").get("depends_on");
        assertThat(dependsOn.get("mariadb")).containsEntry("condition", "service_healthy");
        assertThat(dependsOn.get("redis")).containsEntry("condition", "service_healthy");
        // the data sets are loaded by compose itself before the app starts, from the Dockerfile's seed target
        assertThat(dependsOn.get("seed")).containsEntry("condition", "service_completed_successfully");
        assertThat(service("seed").get("build")).isEqualTo(Map.of("context", ".", "target", "seed"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void bothStacksServeTheStubMappingsRenderedWithTheInstallsCredentials() throws IOException {
        // the committed mappings hold no credential: compose and the native stack render the same templates
        assertThat(read("stack/native.sh")).contains("stack/stub-mappings.sh").contains("--root-dir \"$stubroot\"");
        assertThat(String.join(" ", (List<String>) service("stub-secrets").get("command"))).contains("/stack/stub-mappings.sh");
        assertThat(String.join(" ", (List<String>) service("wiremock").get("command")))
                .contains("--root-dir /run/secrets/perflab/stub").doesNotContain("--keystore-password perflab");
        Map<String, Map<String, String>> dependsOn = (Map<String, Map<String, String>>) service("wiremock").get("depends_on");
        assertThat(dependsOn.get("stub-secrets")).containsEntry("condition", "service_completed_successfully");
    }

    @Test
    void composePortsAreTheDotEnvPortsAndTheDesignPorts() {
        SERVICE_PORTS.forEach((name, expected) -> {
            List<String> mappings = ports(name);
            assertThat(mappings).as(name).isNotEmpty();
            Matcher m = PORT_MAPPING.matcher(mappings.getFirst());
            assertThat(m.matches()).as(name + " port mapping " + mappings.getFirst()).isTrue();
            assertThat(m.group(1)).isEqualTo(expected.get(0));
            assertThat(m.group(2)).as(name + " default host port").isEqualTo(env.get(expected.get(0)));
            assertThat(m.group(3)).as(name + " container port").isEqualTo(expected.get(1));
        });
        // WireMock's /__admin shares its port, and Toxiproxy's API rewires every proxy: neither is published
        assertThat(service("wiremock")).doesNotContainKey("ports");
        assertThat(service("toxiproxy")).doesNotContainKey("ports");
        assertThat(env).containsEntry("PERFLAB_APP_PORT", "8080").containsEntry("PERFLAB_DB_PORT", "3306")
                .containsEntry("PERFLAB_REDIS_PORT", "6379").containsEntry("PERFLAB_WIREMOCK_PORT", "8089")
                .containsEntry("PERFLAB_WIREMOCK_HTTPS_PORT", "8443").containsEntry("PERFLAB_TOXIPROXY_PORT", "8474")
                .containsEntry("PERFLAB_PROMETHEUS_PORT", "9090").containsEntry("PERFLAB_GRAFANA_PORT", "3000");
    }

    @Test
    void applicationYmlDefaultsAreTheDotEnvValuesAndComposeSetsOnlyWhatItReads() throws IOException {
        String applicationYml = read("src/main/resources/application.yml") + read("src/main/resources/features/login.yml");
        Map<String, String> defaults = new LinkedHashMap<>();
        Matcher m = PLACEHOLDER.matcher(applicationYml);
        while (m.find()) {
            defaults.put(m.group(1), m.group(2));
        }
        for (String key : List.of("PERFLAB_APP_PORT", "PERFLAB_DB_PORT", "PERFLAB_DB_NAME", "PERFLAB_DB_USER",
                "PERFLAB_DB_PASSWORD", "PERFLAB_REDIS_PORT")) {
            assertThat(defaults.get(key)).as(key + " default in application.yml").isEqualTo(env.get(key));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> appEnv = (Map<String, Object>) service("app").get("environment");
        Set<String> unread = new TreeSet<>(appEnv.keySet());
        unread.removeAll(defaults.keySet());
        // read by Spring itself, and by the Dockerfile's entrypoint (the JVM's flags)
        unread.remove("SPRING_PROFILES_ACTIVE");
        String entrypoint = read("Dockerfile").lines().filter(line -> line.startsWith("ENTRYPOINT")).findFirst().orElseThrow();
        unread.removeIf(entrypoint::contains);
        assertThat(unread).as("app environment that neither application.yml nor the Dockerfile's entrypoint reads").isEmpty();
    }

    @Test
    @SuppressWarnings("unchecked")
    void theNativeStackStartsEveryServiceOnItsDotEnvPort() throws IOException {
        String script = read("stack/native.sh");
        assertThat(script).contains("done < \"$ROOT/.env\"");
        for (String var : List.of("PERFLAB_DB_PORT", "PERFLAB_REDIS_PORT", "PERFLAB_WIREMOCK_PORT",
                "PERFLAB_WIREMOCK_HTTPS_PORT", "PERFLAB_TOXIPROXY_PORT", "PERFLAB_PROMETHEUS_PORT")) {
            assertThat(script).as("stack/native.sh uses " + var).contains("\"$" + var + "\"");
        }
        assertThat(script).contains("--web.enable-remote-write-receiver").contains("--innodb-buffer-pool-size")
                .contains("stack/toxics.sh");
        assertThat(String.join(" ", (List<String>) service("toxiproxy-config").get("entrypoint"))).contains("/stack/toxics.sh");
        assertThat(String.join(" ", command("prometheus"))).contains("--web.enable-remote-write-receiver");
        assertThat(String.join(" ", command("mariadb"))).contains("--innodb-buffer-pool-size=1G");
    }

    @Test
    void imageVersionsAreThePinnedNativeVersions() {
        assertThat(service("wiremock").get("image")).isEqualTo("wiremock/wiremock:" + env.get("PERFLAB_WIREMOCK_VERSION"));
        assertThat(service("toxiproxy").get("image"))
                .isEqualTo("ghcr.io/shopify/toxiproxy:" + env.get("PERFLAB_TOXIPROXY_VERSION").substring(1));
        assertThat(service("k6").get("image")).isEqualTo("grafana/k6:" + env.get("PERFLAB_K6_VERSION").substring(1));
    }

    @Test
    void toxiproxyHasTheSameProxiesInBothStacks() throws IOException {
        var mapper = tools.jackson.databind.json.JsonMapper.builder().build();
        var nativeProxies = mapper.readTree(read("stack/toxiproxy.json"));
        var composeProxies = mapper.readTree(read("stack/toxiproxy-compose.json"));
        assertThat(composeProxies.size()).isEqualTo(nativeProxies.size());
        for (int i = 0; i < nativeProxies.size(); i++) {
            var n = nativeProxies.get(i);
            var c = composeProxies.get(i);
            assertThat(c.get("name").asString()).isEqualTo(n.get("name").asString());
            assertThat(port(c.get("listen").asString())).isEqualTo(port(n.get("listen").asString()));
            assertThat(port(c.get("upstream").asString())).isEqualTo(port(n.get("upstream").asString()));
            assertThat(env.values()).as("upstream port of " + n.get("name")).contains(port(n.get("upstream").asString()));
            assertThat(env.values()).as("listen port of " + n.get("name") + " in .env (PERFLAB_TOXI_*)")
                    .contains(port(n.get("listen").asString()));
        }
    }

    @Test
    void prometheusScrapesTheAppInBothStacks() throws IOException {
        assertThat(read("prometheus/prometheus.yml")).contains("app:8080").contains("/actuator/prometheus");
        assertThat(read("prometheus/prometheus-native.yml")).contains("file_sd_configs").contains("__APP_TARGETS__")
                .contains("/actuator/prometheus");
        assertThat(read("stack/native.sh")).contains("set -- \"app=$PERFLAB_APP_PORT\"");
    }

    @Test
    @SuppressWarnings("unchecked")
    void composesPrometheusReadsTheTargetsTheRunnerWritesForItsVariants() throws IOException {
        // the runner writes one file_sd file per running variant into the volume (lab/scrape.py); prometheus reads it
        assertThat((List<String>) service("prometheus").get("volumes"))
                .contains("perflab-ab-targets:/etc/prometheus/ab-targets:ro");
        assertThat((List<String>) service("runner").get("volumes")).contains("perflab-ab-targets:/perflab-ab-targets");
        assertThat(((Map<String, Object>) service("runner").get("environment")).get("PERFLAB_SCRAPE_TARGETS"))
                .isEqualTo("/perflab-ab-targets");
        assertThat(read("prometheus/prometheus.yml")).contains("/etc/prometheus/ab-targets/*.json");
    }

    private static String port(String address) {
        return address.substring(address.lastIndexOf(':') + 1);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> services() {
        return (Map<String, Object>) compose.get("services");
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> service(String name) {
        return (Map<String, Object>) services().get(name);
    }

    @SuppressWarnings("unchecked")
    private List<String> ports(String name) {
        return (List<String>) service(name).get("ports");
    }

    @SuppressWarnings("unchecked")
    private List<String> command(String name) {
        return (List<String>) service(name).get("command");
    }

    private static Map<String, Object> yaml(String file) {
        try {
            return new Yaml().load(read(file));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, String> dotEnv() {
        try (var reader = Files.newBufferedReader(Path.of(".env"))) {
            Properties properties = new Properties();
            properties.load(reader);
            Map<String, String> map = new LinkedHashMap<>();
            properties.forEach((k, v) -> map.put(k.toString(), v.toString()));
            return map;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String read(String file) throws IOException {
        return Files.readString(Path.of(file));
    }
}

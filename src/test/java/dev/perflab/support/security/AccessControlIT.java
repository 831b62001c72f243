package dev.perflab.support.security;

import java.util.Base64;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.perflab.testing.Http;
import dev.perflab.testing.IntegrationTest;
import dev.perflab.testing.TestCredentials;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 14, finding 4: who may call what. The admin role comes from the {@code roles} claim, which login writes
 * only for {@code perflab.security.admin.ids} (the stub's admin, id {@code A-perflab-admin}, which the tests list); a member
 * gets 403 problem+json.
 */
@IntegrationTest
class AccessControlIT {

    @LocalServerPort
    int port;
    @Autowired
    TokenService tokens;

    @Test
    void theActuatorsInternalsAreForAdminsWhileHealthAndPrometheusStayOpen() {
        Http http = new Http(port);
        String member = "Bearer " + tokens.issue(1, "user1").accessToken();
        String admin = "Bearer " + tokens.issue(1, "perflab-admin", List.of(TokenService.ADMIN)).accessToken();

        for (String path : List.of("/actuator/configprops", "/actuator/metrics", "/actuator/metrics/jvm.memory.used")) {
            assertThat(http.get(path).status()).as(path + " without a token").isEqualTo(401);
            Http.Response forbidden = http.get(path, "Authorization", member);
            assertThat(forbidden.status()).as(path + " as a member").isEqualTo(403);
            assertThat(forbidden.contentType()).startsWith("application/problem+json");
            assertThat(forbidden.json().at("/code").asString()).isEqualTo("forbidden");
            assertThat(http.get(path, "Authorization", admin).status()).as(path + " as an admin").isEqualTo(200);
        }
        assertThat(http.get("/actuator/health").status()).isEqualTo(200);
        assertThat(http.get("/actuator/prometheus").status()).isEqualTo(200);
    }

    @Test
    void healthSaysUpToAnyoneButShowsItsComponentsOnlyToAnAdmin() {
        Http http = new Http(port);
        String admin = "Bearer " + tokens.issue(1, "perflab-admin", List.of(TokenService.ADMIN)).accessToken();

        JsonNode anonymous = http.get("/actuator/health").json();
        JsonNode detailed = http.get("/actuator/health", "Authorization", admin).json();

        assertThat(anonymous.at("/status").asString()).isEqualTo("UP");
        assertThat(anonymous.has("components")).isFalse();
        assertThat(detailed.at("/components/db/status").asString()).isEqualTo("UP");
    }

    @Test
    void theLabAndTheRouteCeilingHarnessAreForAdminsNotMembers() {
        Http http = new Http(port);
        String member = "Bearer " + tokens.issue(1, "user1").accessToken();
        String admin = "Bearer " + tokens.issue(1, "perflab-admin", List.of(TokenService.ADMIN)).accessToken();

        Http.Response asMember = http.get("/api/lab/dependency?delayMs=0", "Authorization", member);

        assertThat(asMember.status()).isEqualTo(403);
        assertThat(asMember.json().at("/code").asString()).isEqualTo("forbidden");
        assertThat(http.get("/api/universities/1/routes/cached-bytes", "Authorization", member).status()).isEqualTo(403);
        assertThat(http.get("/api/lab/dependency?delayMs=0", "Authorization", admin).status()).isEqualTo(200);
    }

    @Test
    void loginGivesTheAdminRoleToTheStubsAdminAccountAndToNoMember() {
        Http http = new Http(port);

        JsonNode admin = claims(http.post("/api/auth/login", login(TestCredentials.ADMIN_LOGIN, TestCredentials.ADMIN_PASSWORD)));
        JsonNode member = claims(http.post("/api/auth/login", login("user1", TestCredentials.MEMBER_PASSWORD)));

        assertThat(admin.at("/roles/0").asString()).isEqualTo(TokenService.ADMIN);
        assertThat(member.has("roles")).isFalse();
        assertThat(http.post("/api/auth/login", login(TestCredentials.ADMIN_LOGIN, TestCredentials.MEMBER_PASSWORD)).status())
                .isEqualTo(401);
        // the repository's old admin and member passwords open nothing
        assertThat(http.post("/api/auth/login", login("perflab-admin", "perflab-admin-pass")).status()).isEqualTo(401);
        assertThat(http.post("/api/auth/login", login("user1", "perflab-pass")).status()).isEqualTo(401);
    }

    private static String login(String loginId, String password) {
        return "{\"loginId\":\"" + loginId + "\",\"password\":\"" + password + "\"}";
    }

    private static JsonNode claims(Http.Response login) {
        assertThat(login.status()).as(login.body()).isEqualTo(200);
        String token = login.json().at("/accessToken").asString();
        return JsonMapper.builder().build().readTree(Base64.getUrlDecoder().decode(token.split("\\.")[1]));
    }
}

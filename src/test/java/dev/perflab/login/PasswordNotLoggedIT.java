package dev.perflab.login;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.perflab.testing.Http;
import dev.perflab.testing.IntegrationTest;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

import static dev.perflab.testing.TestCredentials.MEMBER_PASSWORD;

/** Passwords appear in no log line, even with every logger on the login path at TRACE. */
@IntegrationTest
@ExtendWith(OutputCaptureExtension.class)
@TestPropertySource(properties = {
        "logging.level.dev.perflab=TRACE",
        "logging.level.org.springframework.web=TRACE",
        "logging.level.org.springframework.security=TRACE",
        "logging.level.org.apache.hc=TRACE",
        "logging.level.org.mybatis=TRACE",
        "logging.level.dev.perflab.login.MemberMapper=TRACE"})
class PasswordNotLoggedIT {

    @LocalServerPort
    int port;

    @Test
    void neitherARightNorAWrongPasswordIsLogged(CapturedOutput output) {
        Http http = new Http(port);
        var ok = http.post("/api/auth/login", LoginContract.credentials(LoginContract.freshLoginId(), MEMBER_PASSWORD));
        var wrong = http.post("/api/auth/login", LoginContract.credentials(LoginContract.freshLoginId(), "Wr0ng-S3cret-Pw"));

        assertThat(ok.status()).isEqualTo(200);
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(output.getAll()).as("the loggers ran").contains("/api/auth/login");
        assertThat(output.getAll()).doesNotContain(MEMBER_PASSWORD).doesNotContain("Wr0ng-S3cret-Pw");
    }
}

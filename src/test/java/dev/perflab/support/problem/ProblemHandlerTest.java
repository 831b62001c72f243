package dev.perflab.support.problem;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;

import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

class ProblemHandlerTest {

    private final ProblemHandler handler = new ProblemHandler();

    @Test
    void aClientThatWentAwayGetsNoAnswerAndIsNotAServerError() {
        Exception brokenPipe = new IllegalStateException("write failed", new IOException("Broken pipe"));

        assertThat(handler.unexpected(brokenPipe)).isNull();
    }

    @Test
    void anyOtherExceptionIsA500ProblemWithoutItsMessage() {
        ResponseEntity<Object> answer = handler.unexpected(new IllegalStateException("secret detail"));

        assertThat(answer).isNotNull();
        assertThat(answer.getStatusCode()).isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
        ProblemDetail problem = (ProblemDetail) answer.getBody();
        assertThat(problem.getProperties()).containsEntry("code", "internal");
        assertThat(problem.getDetail()).doesNotContain("secret");
    }
}

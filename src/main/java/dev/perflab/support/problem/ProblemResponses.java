package dev.perflab.support.problem;

import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;

/** Builds RFC 9457 problem details with a stable {@code code} and a {@code type} derived from it. */
@Component
public class ProblemResponses {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    public static ProblemDetail problem(HttpStatusCode status, String code, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(typeOf(code));
        problem.setProperty("code", code);
        return problem;
    }

    public static URI typeOf(String code) {
        return URI.create("urn:perflab:problem:" + code);
    }

    /** Writes a problem outside Spring MVC (security filters), where no message converter runs. */
    public void write(HttpServletResponse response, HttpStatusCode status, String code, String detail) throws IOException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", typeOf(code).toString());
        body.put("title", org.springframework.http.HttpStatus.valueOf(status.value()).getReasonPhrase());
        body.put("status", status.value());
        body.put("detail", detail);
        body.put("code", code);
        response.setStatus(status.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        JSON.writeValue(response.getOutputStream(), body);
    }
}

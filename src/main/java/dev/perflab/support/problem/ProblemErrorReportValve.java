package dev.perflab.support.problem;

import java.io.IOException;
import java.io.Writer;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

/**
 * Tomcat's error page for what it rejects before Spring sees the request (a header over
 * {@code max-http-request-header-size}, an encoded NUL or {@code ..} in the path, bad URL syntax): problem+json
 * with {@code code} {@code http-<status>} ({@code internal} for a 5xx) instead of Tomcat's HTML page, and no
 * server version, stack trace or class name.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    public ProblemErrorReportValve() {
        setShowReport(false);
        setShowServerInfo(false);
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0) {
            return;
        }
        AtomicBoolean ioAllowed = new AtomicBoolean(false);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return;
        }
        HttpStatus known = HttpStatus.resolve(status);
        String title = known == null ? "Error" : known.getReasonPhrase();
        String code = status >= 500 ? "internal" : "http-" + status;
        String detail = status >= 500 ? "An unexpected error occurred." : "The request was rejected: " + title + ".";
        String body = "{\"type\":\"" + ProblemResponses.typeOf(code) + "\",\"title\":\"" + title + "\",\"status\":" + status
                + ",\"detail\":\"" + detail + "\",\"code\":\"" + code + "\"}";
        try {
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            response.setCharacterEncoding("UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write(body);
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the client is gone or the response is closed: nothing more to send
        }
    }
}

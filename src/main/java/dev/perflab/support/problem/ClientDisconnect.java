package dev.perflab.support.problem;

import org.apache.catalina.connector.ClientAbortException;

import org.springframework.web.context.request.async.AsyncRequestNotUsableException;

/**
 * Whether a failure happened while writing the response to the client of this request, the one case in which
 * nobody can read an answer. Tomcat reports that case, and only that case, as {@link ClientAbortException} (and
 * Spring as {@link AsyncRequestNotUsableException}). Spring's {@code DisconnectedClientHelper} is not used: it
 * matches {@code EOFException} or "connection reset" anywhere in the cause chain, so a database socket's EOF
 * would pass for the client's and the request would end as a 200 with an empty body.
 */
final class ClientDisconnect {

    private ClientDisconnect() {
    }

    static boolean isWhileAnswering(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ClientAbortException || t instanceof AsyncRequestNotUsableException) {
                return true;
            }
        }
        return false;
    }
}

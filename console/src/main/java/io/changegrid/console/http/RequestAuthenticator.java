package io.changegrid.console.http;

import java.util.Optional;
import org.eclipse.jetty.server.Request;

/**
 * Who sent a request to the console: the one seam where its requests are authenticated (and, for
 * the control operations, authorized). The security work on the grid's HTTP endpoints (TLS, tokens,
 * an operations role) plugs in here; until then the console serves whoever can reach it, so keep
 * {@code http.host} on a trusted address.
 */
@FunctionalInterface
public interface RequestAuthenticator {

    /** Everyone, named by remote address in the audit log. */
    RequestAuthenticator UNAUTHENTICATED =
            request -> Optional.of("unauthenticated@" + Request.getRemoteAddr(request));

    /**
     * The operator's name for the audit log, or empty to refuse the request with 401.
     *
     * @param request any request: page, API read or control operation
     */
    Optional<String> operator(Request request);
}

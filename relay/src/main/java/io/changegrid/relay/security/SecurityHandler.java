package io.changegrid.relay.security;

import io.changegrid.protocol.RelayApi;
import io.changegrid.protocol.security.Authentication;
import io.changegrid.protocol.security.Principal;
import io.changegrid.relay.response.JsonResponse;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * In front of every endpoint: recognizes the request's principal ({@link AccessControl}), answers
 * 401 when there is none, 403 when it asks for an operations endpoint ({@code /v1/status}, {@code
 * /metrics}, {@code /v1/snapshot/*}) without the operations role, and otherwise hands the request
 * on with its {@link Grant} as the attribute {@link #GRANT}, which {@code /v1/stream} and {@code
 * /v1/schemas} apply. {@code /v1/health} stays open: load balancers probe it, and it tells nothing
 * but "up".
 *
 * <p>401 and 403 bodies name the principal and what was refused, never data. Thread-safe.
 */
public final class SecurityHandler extends Handler.Wrapper {

    /** The request attribute holding the request's {@link Grant}. */
    public static final String GRANT = Grant.class.getName();

    private final AccessControl access;

    public SecurityHandler(Handler next, AccessControl access) {
        super(next);
        this.access = access;
    }

    /** The grant of a request this handler let through; everything when none stands in front. */
    public static Grant grant(Request request) {
        return request.getAttribute(GRANT) instanceof Grant grant
                ? grant
                : Grant.all(Principal.ANONYMOUS_NAME);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String path = request.getHttpURI().getPath();
        if (RelayApi.HEALTH.equals(path)) {
            return super.handle(request, response, callback);
        }
        Authentication authentication = access.authenticate(request);
        if (authentication.principal() == null) {
            response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer realm=\"changegrid\"");
            JsonResponse.error(
                    response,
                    callback,
                    401,
                    "not authenticated: path=" + path + ", reason=" + authentication.refusal());
            return true;
        }
        Principal principal = authentication.principal();
        Grant grant = access.grant(principal);
        if (RelayApi.operations(path) && !grant.operations()) {
            JsonResponse.error(
                    response,
                    callback,
                    403,
                    "operations role not granted: principal=" + principal + ", path=" + path);
            return true;
        }
        request.setAttribute(GRANT, grant);
        return super.handle(request, response, callback);
    }
}

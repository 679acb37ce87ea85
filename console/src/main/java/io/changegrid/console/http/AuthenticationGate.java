package io.changegrid.console.http;

import io.changegrid.protocol.security.Authentication;
import io.changegrid.protocol.security.Principal;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * In front of the API ({@code /api/*}): recognizes the request's principal ({@link
 * OperatorAccess}), answers 401 if there is none and 403 if it lacks the operations role, and
 * otherwise hands the request on with the operator's name ({@code principal@address}) in the
 * {@value #OPERATOR} attribute, which the control handler audits. The page and its assets stay
 * open: they hold no data, and the page must load to ask for a token.
 */
final class AuthenticationGate extends Handler.Wrapper {

    static final String OPERATOR = "changegrid.console.operator";

    private final OperatorAccess access;

    AuthenticationGate(OperatorAccess access, Handler routes) {
        super(routes);
        this.access = access;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String path = request.getHttpURI().getPath();
        if (!path.startsWith("/api/")) {
            return super.handle(request, response, callback);
        }
        Authentication authentication = access.authenticator().authenticate(request);
        Principal principal = authentication.principal();
        if (principal == null) {
            response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer realm=\"changegrid\"");
            JsonReply.error(
                    response,
                    callback,
                    401,
                    "not authenticated: path=" + path + ", reason=" + authentication.refusal());
            return true;
        }
        if (!access.mayOperate(principal)) {
            JsonReply.error(
                    response,
                    callback,
                    403,
                    "operations role not granted: principal=" + principal + ", path=" + path);
            return true;
        }
        request.setAttribute(OPERATOR, principal.name() + "@" + Request.getRemoteAddr(request));
        return super.handle(request, response, callback);
    }
}

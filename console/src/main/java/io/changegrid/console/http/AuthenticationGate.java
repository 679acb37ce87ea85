package io.changegrid.console.http;

import java.util.Optional;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * In front of every route: asks the {@link RequestAuthenticator} who sent the request, answers 401
 * if nobody, and otherwise hands the request on with the operator's name in the {@value #OPERATOR}
 * attribute (the control handler audits it).
 */
final class AuthenticationGate extends Handler.Wrapper {

    static final String OPERATOR = "changegrid.console.operator";

    private final RequestAuthenticator authenticator;

    AuthenticationGate(RequestAuthenticator authenticator, Handler routes) {
        super(routes);
        this.authenticator = authenticator;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Optional<String> operator = authenticator.operator(request);
        if (operator.isEmpty()) {
            JsonReply.error(response, callback, 401, "not authenticated");
            return true;
        }
        request.setAttribute(OPERATOR, operator.get());
        return super.handle(request, response, callback);
    }
}

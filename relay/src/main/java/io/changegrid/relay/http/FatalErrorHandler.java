package io.changegrid.relay.http;

import io.changegrid.relay.process.FatalErrors;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The outermost handler: an {@link Error} thrown while handling a request ends the process ({@link
 * FatalErrors}) instead of becoming one more 500 that Jetty logs while the relay carries on. Errors
 * in work a handler scheduled are caught where that work runs ({@code StreamExchange}).
 */
final class FatalErrorHandler extends Handler.Wrapper {

    FatalErrorHandler(Handler handler) {
        super(handler);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        try {
            return super.handle(request, response, callback);
        } catch (Error e) {
            FatalErrors.halt("http request: path=" + request.getHttpURI().getPath(), e);
            throw e;
        }
    }
}

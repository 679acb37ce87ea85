package io.changegrid.console.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code GET /api/grid}: the last sample's document ({@code GridStateJson}); 503 before the first
 * sample.
 */
final class GridStateHandler extends Handler.Abstract.NonBlocking {

    private final Supplier<ObjectNode> state;

    GridStateHandler(Supplier<ObjectNode> state) {
        this.state = state;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (!"GET".equals(request.getMethod())) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET");
            JsonReply.error(
                    response,
                    callback,
                    405,
                    "method not allowed: method=" + request.getMethod() + ", allowed=GET");
            return true;
        }
        ObjectNode now = state.get();
        if (now == null) {
            JsonReply.error(response, callback, 503, "the grid has not been sampled yet");
        } else {
            JsonReply.send(response, callback, 200, now.toString());
        }
        return true;
    }
}

package io.changegrid.relay.http;

import io.changegrid.protocol.RelayApi;
import io.changegrid.relay.config.RelaySettings;
import io.changegrid.relay.response.JsonResponse;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Counts the connector's open connections and answers a request beyond {@code http.maxConnections}
 * with 503 naming the limit, closing its connection: the consumer sees why and retries later,
 * rather than a relay serving ever more long-polls. {@code /v1/health} is always answered, so that
 * a busy relay is not taken for a dead one.
 *
 * <p>Thread-safe: the count is changed on Jetty's selector threads and read on request threads.
 */
final class ConnectionLimitHandler extends Handler.Wrapper {

    private final int limit;
    private final OpenConnections open = new OpenConnections();

    ConnectionLimitHandler(Handler handler, int limit) {
        super(handler);
        this.limit = limit;
    }

    /**
     * The listener to add to the connector: a plain listener, not this handler, which the connector
     * would otherwise take as one of its beans.
     */
    Connection.Listener counter() {
        return open;
    }

    /** Connections open now. */
    int open() {
        return open.count.get();
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        int now = open();
        if (now > limit && !RelayApi.HEALTH.equals(request.getHttpURI().getPath())) {
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
            JsonResponse.error(
                    response,
                    callback,
                    503,
                    "too many connections: "
                            + RelaySettings.HTTP_MAX_CONNECTIONS.path()
                            + "="
                            + limit
                            + ", open="
                            + now
                            + "; retry later");
            return true;
        }
        return super.handle(request, response, callback);
    }

    private static final class OpenConnections implements Connection.Listener {
        private final AtomicInteger count = new AtomicInteger();

        @Override
        public void onOpened(Connection connection) {
            count.incrementAndGet();
        }

        @Override
        public void onClosed(Connection connection) {
            count.decrementAndGet();
        }
    }
}

package io.changegrid.console.http;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** Writes the console's JSON answers, errors as {@code {"error":"..."}}. */
final class JsonReply {

    private JsonReply() {}

    static void send(Response response, Callback callback, int status, String json) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        Content.Sink.write(response, true, json, callback);
    }

    static void error(Response response, Callback callback, int status, String message) {
        send(
                response,
                callback,
                status,
                "{\"error\":\""
                        + new String(JsonStringEncoder.getInstance().quoteAsString(message))
                        + "\"}");
    }
}

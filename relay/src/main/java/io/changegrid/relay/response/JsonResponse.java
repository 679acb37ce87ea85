package io.changegrid.relay.response;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** Small JSON answers of the relay's API: status documents and errors that name what was wrong. */
public final class JsonResponse {

    private static final JsonFactory JSON = new JsonFactory();

    /** Writes a JSON object with the given writer. */
    @FunctionalInterface
    public interface Body {
        void write(JsonGenerator json) throws IOException;
    }

    private JsonResponse() {}

    /** Sends {@code body} as the whole response and completes {@code callback} once. */
    public static void send(Response response, Callback callback, int status, Body body) {
        StringWriter text = new StringWriter();
        try (JsonGenerator json = JSON.createGenerator(text)) {
            json.writeStartObject();
            body.write(json);
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to a string cannot fail", e);
        }
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        Content.Sink.write(response, true, text.toString(), callback);
    }

    /** Sends {@code {"error": message}} with the status. */
    public static void error(Response response, Callback callback, int status, String message) {
        send(response, callback, status, json -> json.writeStringField("error", message));
    }

    /** Answers anything but GET with 405, naming the method; returns true if it did. */
    public static boolean rejectUnlessGet(Request request, Response response, Callback callback) {
        return rejectUnless("GET", request, response, callback);
    }

    /** Answers 405 naming the method allowed, unless the request uses it; true when answered. */
    public static boolean rejectUnless(
            String method, Request request, Response response, Callback callback) {
        if (method.equals(request.getMethod())) {
            return false;
        }
        response.getHeaders().put(HttpHeader.ALLOW, method);
        error(
                response,
                callback,
                405,
                "method not allowed: method=" + request.getMethod() + ", allowed=" + method);
        return true;
    }
}

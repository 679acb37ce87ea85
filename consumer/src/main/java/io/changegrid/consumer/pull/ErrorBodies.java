package io.changegrid.consumer.pull;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.changegrid.protocol.StreamResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** What the puller reads from a relay's error answers, and how it names errors in log lines. */
final class ErrorBodies {

    private static final JsonFactory JSON = new JsonFactory();
    private static final int MAX_ERROR_BODY = 512;

    private ErrorBodies() {}

    /** The oldest SCN a 410 answer names, or -1. */
    static long oldestScn(InputStream body) throws IOException {
        long oldest = -1;
        try (JsonParser json = JSON.createParser(body)) {
            while (json.nextToken() != null) {
                if (json.currentToken() == JsonToken.FIELD_NAME
                        && StreamResponse.OLDEST_SCN_FIELD.equals(json.currentName())
                        && json.nextToken() == JsonToken.VALUE_NUMBER_INT) {
                    oldest = json.getLongValue();
                }
            }
        }
        return oldest;
    }

    /** The start of an error answer's body, as text. */
    static String text(InputStream body) throws IOException {
        byte[] text = body.readNBytes(MAX_ERROR_BODY);
        return new String(text, StandardCharsets.UTF_8);
    }

    /** An exception in a log line: its type and the start of its message (Jetty's can be long). */
    static String describe(Throwable error) {
        if (error == null) {
            return "unknown error";
        }
        String message = String.valueOf(error.getMessage());
        return error.getClass().getSimpleName()
                + ": "
                + (message.length() > 160 ? message.substring(0, 160) + "..." : message);
    }
}

package io.changegrid.relay.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.changegrid.events.json.SchemaJson;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.schema.UnknownSchemaException;
import io.changegrid.protocol.RelayApi;
import io.changegrid.relay.response.JsonResponse;
import io.changegrid.relay.security.Grant;
import io.changegrid.relay.security.SecurityHandler;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * {@code GET /v1/schemas}: the schema versions binary frames name, so that consumers can decode row
 * images. Without parameters, every version the relay knows ({@code {"schemas":[...]}}); with
 * {@code tableId} and {@code version}, that one version, or 404 naming them. Only what the
 * request's {@link Grant} may see: the tables it may stream or read the schemas of, each with its
 * granted columns only; a version it may not see is 403.
 */
final class SchemasHandler extends Handler.Abstract.NonBlocking {

    private static final JsonFactory JSON = new JsonFactory();

    private final SchemaRegistry registry;

    SchemasHandler(SchemaRegistry registry) {
        this.registry = registry;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (JsonResponse.rejectUnlessGet(request, response, callback)) {
            return true;
        }
        Grant grant = SecurityHandler.grant(request);
        Fields query = Request.extractQueryParameters(request);
        String tableId = query.getValue(RelayApi.TABLE_ID);
        String version = query.getValue(RelayApi.VERSION);
        if ((tableId == null) != (version == null)) {
            JsonResponse.error(
                    response,
                    callback,
                    400,
                    "bad parameter: name="
                            + (tableId == null ? "tableId" : "version")
                            + ", value=: tableId and"
                            + " version go together");
            return true;
        }
        StringWriter text = new StringWriter();
        try (JsonGenerator json = JSON.createGenerator(text)) {
            if (tableId == null) {
                json.writeStartObject();
                json.writeArrayFieldStart("schemas");
                for (TableSchema schema : registry.allVersions()) {
                    TableSchema visible = grant.visible(schema);
                    if (visible != null) {
                        SchemaJson.write(json, visible);
                    }
                }
                json.writeEndArray();
                json.writeEndObject();
            } else {
                int id;
                int v;
                try {
                    id = Integer.parseInt(tableId);
                    v = Integer.parseInt(version);
                } catch (NumberFormatException e) {
                    JsonResponse.error(
                            response,
                            callback,
                            400,
                            "bad parameter: name=tableId/version, value="
                                    + tableId
                                    + "/"
                                    + version
                                    + ": integers");
                    return true;
                }
                TableSchema visible;
                try {
                    visible = grant.visible(registry.schema(id, v));
                } catch (UnknownSchemaException e) {
                    JsonResponse.error(response, callback, 404, e.getMessage());
                    return true;
                }
                if (visible == null) {
                    JsonResponse.error(
                            response,
                            callback,
                            403,
                            "schema not granted: principal="
                                    + grant.principal()
                                    + ", tableId="
                                    + id
                                    + ", version="
                                    + v);
                    return true;
                }
                SchemaJson.write(json, visible);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to a string cannot fail", e);
        }
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        Content.Sink.write(response, true, text.toString(), callback);
        return true;
    }
}

package io.changegrid.consumer.group;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.changegrid.consumer.SnapshotProgress;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * The JSON form of a {@link GroupStatus}, as {@code GET /v1/status} serves it:
 *
 * <pre>
 * {"group":"orders","instance":"c1","connected":true,"leader":false,"relays":["http://r1:7070"],
 *  "partitions":[{"partition":0,"epoch":3,"state":"RUNNING","relay":"http://r1:7070/",
 *                 "startScn":..,"checkpointScn":..,"timeline":"mariadb-gtid:domain=0",
 *                 "pulledScn":..,"lagMillis":12,
 *                 "eventsDelivered":..,"transactionsDelivered":..,
 *                 "applier":{"target":"jdbc:postgresql://db1/shop","lanes":4,"rowsApplied":..,
 *                            "transactionsApplied":..,"commits":..,"lastError":null},
 *                 "snapshot":{"database":"shop","table":"orders","cursor":"v1:..",
 *                             "rowsDelivered":..}}]}
 * </pre>
 *
 * {@code applier} only for a callback that applies into a target ({@link ApplyingCallback}); {@code
 * snapshot} only while a snapshot runs (its {@code database} and {@code table} null before the
 * relay named the first table).
 */
final class GroupStatusJson {

    private static final JsonFactory JSON = new JsonFactory();

    private GroupStatusJson() {}

    static String write(GroupStatus status) {
        StringWriter text = new StringWriter();
        try (JsonGenerator json = JSON.createGenerator(text)) {
            json.writeStartObject();
            json.writeStringField("group", status.group());
            json.writeStringField("instance", status.instance());
            json.writeBooleanField("connected", status.connected());
            json.writeBooleanField("leader", status.leader());
            json.writeArrayFieldStart("relays");
            for (String relay : status.relays()) {
                json.writeString(relay);
            }
            json.writeEndArray();
            json.writeArrayFieldStart("partitions");
            for (PartitionStatus partition : status.partitions()) {
                json.writeStartObject();
                json.writeNumberField("partition", partition.partition());
                json.writeNumberField("epoch", partition.epoch());
                json.writeStringField("state", partition.state().name());
                if (partition.relay() != null) {
                    json.writeStringField("relay", partition.relay());
                }
                json.writeNumberField("startScn", partition.startScn());
                json.writeNumberField("checkpointScn", partition.checkpointScn());
                if (partition.timeline() != null) {
                    json.writeStringField("timeline", partition.timeline());
                }
                json.writeNumberField("pulledScn", partition.pulledScn());
                json.writeNumberField("lagMillis", partition.lagMillis());
                json.writeNumberField("eventsDelivered", partition.eventsDelivered());
                json.writeNumberField("transactionsDelivered", partition.transactionsDelivered());
                if (partition.error() != null) {
                    json.writeStringField("error", partition.error());
                }
                if (partition.applier() != null) {
                    ApplierStatus applier = partition.applier();
                    json.writeObjectFieldStart("applier");
                    json.writeStringField("target", applier.target());
                    json.writeNumberField("lanes", applier.lanes());
                    json.writeNumberField("rowsApplied", applier.rowsApplied());
                    json.writeNumberField("transactionsApplied", applier.transactionsApplied());
                    json.writeNumberField("commits", applier.commits());
                    json.writeStringField("lastError", applier.lastError());
                    json.writeEndObject();
                }
                if (partition.snapshot() != null) {
                    SnapshotProgress snapshot = partition.snapshot();
                    json.writeObjectFieldStart("snapshot");
                    json.writeStringField("database", snapshot.database());
                    json.writeStringField("table", snapshot.table());
                    json.writeStringField("cursor", snapshot.cursor());
                    json.writeNumberField("rowsDelivered", snapshot.rowsDelivered());
                    json.writeEndObject();
                }
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to memory cannot fail", e);
        }
        return text.toString();
    }
}

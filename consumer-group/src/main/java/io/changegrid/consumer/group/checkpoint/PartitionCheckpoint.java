package io.changegrid.consumer.group.checkpoint;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * What ZooKeeper holds for one partition of a consumer group, as a small JSON document:
 *
 * <pre>{"scn":4294967396,"epoch":7,"owner":"consumer-2","updatedMillis":1732185600000}</pre>
 *
 * and, while the partition's consumer runs a snapshot (docs/bootstrap.md), {@code "snapshot":
 * "<cursor>"} in the same document, so the SCN and the cursor are written in one conditional set. A
 * node without the field (every node written before snapshots) has no cursor. Once the consumer
 * learnt the relays' timeline (docs/consumer.md, "When the source server changes"), {@code
 * "timeline": "mariadb-gtid:domain=0"} names the timeline the SCN is on; a node without it (written
 * before timelines, or before the first relay answered) names none.
 *
 * @param scn the partition's checkpoint; -1 before the first save
 * @param epoch the ownership epoch of the member that wrote it: raised by one with every new owner,
 *     so a later owner always holds a larger epoch than any earlier one
 * @param owner the instance that wrote it
 * @param updatedMillis when it was written, by the writer's clock
 * @param snapshot the snapshot cursor saved with {@code scn}, or null
 * @param timeline the timeline {@code scn} is on, or null when none is known
 */
public record PartitionCheckpoint(
        long scn, long epoch, String owner, long updatedMillis, String snapshot, String timeline) {

    /** A checkpoint without a snapshot cursor or a timeline. */
    public PartitionCheckpoint(long scn, long epoch, String owner, long updatedMillis) {
        this(scn, epoch, owner, updatedMillis, null, null);
    }

    /** A checkpoint without a timeline. */
    public PartitionCheckpoint(
            long scn, long epoch, String owner, long updatedMillis, String snapshot) {
        this(scn, epoch, owner, updatedMillis, snapshot, null);
    }

    private static final JsonFactory JSON = new JsonFactory();

    /** This checkpoint taken over by {@code newOwner}: the same SCN, the next epoch. */
    public PartitionCheckpoint claimedBy(String newOwner, long nowMillis) {
        return new PartitionCheckpoint(scn, epoch + 1, newOwner, nowMillis, snapshot, timeline);
    }

    /** The node's bytes. */
    public byte[] encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(96);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeNumberField("scn", scn);
            json.writeNumberField("epoch", epoch);
            json.writeStringField("owner", owner);
            json.writeNumberField("updatedMillis", updatedMillis);
            if (snapshot != null) {
                json.writeStringField("snapshot", snapshot);
            }
            if (timeline != null) {
                json.writeStringField("timeline", timeline);
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to memory cannot fail", e);
        }
        return out.toByteArray();
    }

    /**
     * Reads a node's bytes.
     *
     * @throws IOException naming the node if they are not a partition checkpoint
     */
    public static PartitionCheckpoint decode(String path, byte[] data) throws IOException {
        long scn = Long.MIN_VALUE;
        long epoch = Long.MIN_VALUE;
        String owner = null;
        long updated = 0;
        String snapshot = null;
        String timeline = null;
        try (JsonParser json = JSON.createParser(data)) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object");
            }
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String field = json.currentName();
                json.nextToken();
                switch (field) {
                    case "scn" -> scn = json.getLongValue();
                    case "epoch" -> epoch = json.getLongValue();
                    case "owner" -> owner = json.getValueAsString();
                    case "updatedMillis" -> updated = json.getLongValue();
                    case "snapshot" -> snapshot = json.getValueAsString();
                    case "timeline" -> timeline = json.getValueAsString();
                    default -> json.skipChildren();
                }
            }
        } catch (IOException e) {
            throw new IOException(
                    "partition checkpoint node unreadable: path="
                            + path
                            + ", data="
                            + new String(data, StandardCharsets.UTF_8),
                    e);
        }
        if (scn == Long.MIN_VALUE || epoch == Long.MIN_VALUE || owner == null) {
            throw new IOException(
                    "partition checkpoint node lacks scn, epoch or owner: path="
                            + path
                            + ", data="
                            + new String(data, StandardCharsets.UTF_8));
        }
        return new PartitionCheckpoint(scn, epoch, owner, updated, snapshot, timeline);
    }
}

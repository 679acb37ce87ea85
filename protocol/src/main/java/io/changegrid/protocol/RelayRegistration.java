package io.changegrid.protocol;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What a relay registers about itself in a grid's ZooKeeper, and the rule by which consumer groups
 * choose relays from it: an ephemeral node {@code /changegrid/relays/<sourceId>/<host>_<port>}
 * ({@link #path()}) holding
 *
 * <pre>
 * {"sourceId":1,"endpoint":"http://10.0.0.5:7070","include":["shop.*"],"exclude":[],
 *  "partition":1,"partitions":4,
 *  "selects":[{"include":["shop.*"],"exclude":["shop.tmp_*"],"where":false,"renames":false,
 *              "partitioner":"byKeyHash(partitions=4)"}]}
 * </pre>
 *
 * The relay writes it ({@link #encode()}, the relay module's {@code RelayRegistrar}); consumer
 * groups read it ({@link #decode}); docs/cluster.md documents it and {@code WireNamesTest} pins its
 * field names. {@code include}/{@code exclude} are the capture filter. A relay with {@code
 * partition} -1 publishes every partition of what it captures (a consumer's partition is then a
 * filter the relay applies per request); a relay splitting the source with others ({@code
 * capture.partition}) publishes only partition {@code partition} of {@code partitions}, as each of
 * its policies' partitioners ({@code selects[].partitioner}) divides the rows. What it publishes is
 * what its capture filter lets through and its policies then select ({@code selects}, in their
 * order; the first policy selecting a table governs it). Whether that makes it a replica for a
 * partition of a group is {@link #isReplicaFor}. Immutable.
 *
 * @param sourceId the source the relay reads
 * @param endpoint the relay's base URL as consumers reach it
 * @param include the tables it captures, {@code database.table} patterns ({@link TableGlob}); empty
 *     for all
 * @param exclude the tables it leaves out
 * @param partition the only partition it publishes, or -1 for all
 * @param partitions the number of partitions {@code partition} is one of; 0 when it publishes all
 * @param selects what its policies select, in order; {@link RelaySelection#EVERYTHING} alone
 *     without policies
 */
public record RelayRegistration(
        int sourceId,
        String endpoint,
        List<String> include,
        List<String> exclude,
        int partition,
        int partitions,
        List<RelaySelection> selects) {

    /** Where relays register: one child per source, one grandchild per relay. */
    public static final String RELAYS_ROOT = "/changegrid/relays";

    private static final JsonFactory JSON = new JsonFactory();

    public RelayRegistration {
        include = List.copyOf(include);
        exclude = List.copyOf(exclude);
        selects = List.copyOf(selects);
    }

    /** The node under which the relays of {@code sourceId} register. */
    public static String sourcePath(int sourceId) {
        return RELAYS_ROOT + "/" + sourceId;
    }

    /** The parent node of this relay's registration. */
    public String sourcePath() {
        return sourcePath(sourceId);
    }

    /** This relay's node: named after its endpoint, so a restarted relay replaces its own. */
    public String path() {
        URI uri = URI.create(endpoint);
        int port = uri.getPort() < 0 ? 80 : uri.getPort();
        String name = (uri.getHost() + "_" + port).replaceAll("[^A-Za-z0-9_.-]", "_");
        return sourcePath() + "/" + name;
    }

    /**
     * Whether this relay is a replica for partition {@code wanted} of a group of {@code
     * groupPartitions} subscribing to {@code tables}: whether it publishes every row that partition
     * consists of, under its own name, so that the partition may read from it and fail over to it.
     * This is the one rule by which group members choose relays.
     *
     * <p>For each wanted table pattern, the pattern must lie within the capture filter ({@code
     * include} covers it, no {@code exclude} could touch it), and the first policy selecting any of
     * its tables (which governs them) must select all of them, every row, unrenamed. A relay
     * publishing a subset (some tables, some rows) is not a replica, since failing over to it would
     * silently lose the rest. Judged on the patterns alone, so it errs towards "not a replica"
     * where only the source's actual tables would tell.
     *
     * <p>A relay publishing one partition of the source ({@code capture.partition}) holds the rows
     * its policies' partitioners put there, which are partition {@code wanted}'s rows only if the
     * group divides them the same way: the same partition of as many, and for each wanted pattern
     * the governing policy's partitioner is the group's for those tables (the same kind and
     * parameters, compared by canonical form). A relay split by table is no replica for a group
     * split by key hash, whatever the numbers; partition 1 of 2 is half of what partition 1 of 4
     * needs and more than it wants; a split relay that does not register its partitioners is never
     * a replica. A relay of one partition of one publishes every row, as one publishing all.
     *
     * @param tables what the group subscribes to; {@code *.*} for every table
     * @param wanted the group's partition
     * @param groupPartitions the number of partitions of the group
     */
    public boolean isReplicaFor(List<WantedTables> tables, int wanted, int groupPartitions) {
        boolean split = partition >= 0 && partitions > 1;
        if (split && (partition != wanted || partitions != groupPartitions)) {
            return false;
        }
        for (WantedTables table : tables) {
            RelaySelection governing = publishingAllOf(table.pattern());
            if (governing == null) {
                return false;
            }
            if (split
                    && (governing.partitioner() == null
                            || !governing.partitioner().equals(table.partitioner()))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The policy governing the tables {@code wanted} names if it publishes all of them, every row,
     * unrenamed, and the capture filter lets them all through; otherwise null.
     */
    private RelaySelection publishingAllOf(String wanted) {
        if (!include.isEmpty()
                && include.stream().noneMatch(pattern -> TableGlob.covers(pattern, wanted))) {
            return null;
        }
        if (exclude.stream().anyMatch(pattern -> TableGlob.overlaps(pattern, wanted))) {
            return null;
        }
        for (RelaySelection policy : selects) {
            if (policy.touches(wanted)) {
                return policy.publishesAllOf(wanted) ? policy : null;
            }
        }
        return null;
    }

    /** The node's bytes. */
    public byte[] encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeNumberField("sourceId", sourceId);
            json.writeStringField("endpoint", endpoint);
            writeStrings(json, "include", include);
            writeStrings(json, "exclude", exclude);
            json.writeNumberField("partition", partition);
            json.writeNumberField("partitions", partitions);
            json.writeArrayFieldStart("selects");
            for (RelaySelection selection : selects) {
                json.writeStartObject();
                writeStrings(json, "include", selection.include());
                writeStrings(json, "exclude", selection.exclude());
                json.writeBooleanField("where", selection.where());
                json.writeBooleanField("renames", selection.renames());
                json.writeStringField("partitioner", selection.partitioner()); // null as null
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to memory cannot fail", e);
        }
        return out.toByteArray();
    }

    private static void writeStrings(JsonGenerator json, String field, List<String> values)
            throws IOException {
        json.writeArrayFieldStart(field);
        for (String value : values) {
            json.writeString(value);
        }
        json.writeEndArray();
    }

    /**
     * Reads a registration node.
     *
     * @throws IOException naming the node if it is not one
     */
    public static RelayRegistration decode(String path, byte[] data) throws IOException {
        int sourceId = -1;
        String endpoint = null;
        List<String> include = List.of();
        List<String> exclude = List.of();
        int partition = -1;
        int partitions = 0;
        List<RelaySelection> selects = null;
        try (JsonParser json = JSON.createParser(data)) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object");
            }
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String field = json.currentName();
                json.nextToken();
                switch (field) {
                    case "sourceId" -> sourceId = json.getIntValue();
                    case "endpoint" -> endpoint = json.getValueAsString();
                    case "include" -> include = strings(json);
                    case "exclude" -> exclude = strings(json);
                    case "partition" -> partition = json.getIntValue();
                    case "partitions" -> partitions = json.getIntValue();
                    case "selects" -> selects = selections(json);
                    default -> json.skipChildren();
                }
            }
        } catch (IOException e) {
            throw new IOException(
                    "relay registration unreadable: path="
                            + path
                            + ", data="
                            + new String(data, StandardCharsets.UTF_8),
                    e);
        }
        if (sourceId < 0 || endpoint == null || endpoint.isBlank() || selects == null) {
            throw new IOException(
                    "relay registration lacks sourceId, endpoint or selects: path="
                            + path
                            + ", data="
                            + new String(data, StandardCharsets.UTF_8));
        }
        if (partition >= 0 && partitions <= partition) {
            throw new IOException(
                    "relay registration publishes a partition without the number of partitions it"
                            + " is one of: path="
                            + path
                            + ", data="
                            + new String(data, StandardCharsets.UTF_8));
        }
        return new RelayRegistration(
                sourceId, endpoint, include, exclude, partition, partitions, selects);
    }

    private static List<RelaySelection> selections(JsonParser json) throws IOException {
        if (json.currentToken() != JsonToken.START_ARRAY) {
            throw new IOException("expected a list of objects: field=selects");
        }
        List<RelaySelection> selects = new ArrayList<>();
        while (json.nextToken() == JsonToken.START_OBJECT) {
            List<String> include = List.of();
            List<String> exclude = List.of();
            boolean where = true;
            boolean renames = true;
            String partitioner = null;
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String field = json.currentName();
                json.nextToken();
                switch (field) {
                    case "include" -> include = strings(json);
                    case "exclude" -> exclude = strings(json);
                    case "where" -> where = json.getBooleanValue();
                    case "renames" -> renames = json.getBooleanValue();
                    case "partitioner" -> partitioner = stringOrNull(json);
                    default -> json.skipChildren();
                }
            }
            selects.add(new RelaySelection(include, exclude, where, renames, partitioner));
        }
        return selects;
    }

    private static String stringOrNull(JsonParser json) throws IOException {
        return switch (json.currentToken()) {
            case VALUE_STRING -> json.getText();
            case VALUE_NULL -> null;
            default ->
                    throw new IOException("expected a string or null: field=" + json.currentName());
        };
    }

    private static List<String> strings(JsonParser json) throws IOException {
        if (json.currentToken() != JsonToken.START_ARRAY) {
            throw new IOException("expected a list of strings: field=" + json.currentName());
        }
        List<String> values = new ArrayList<>();
        while (json.nextToken() != JsonToken.END_ARRAY) {
            values.add(json.getValueAsString());
        }
        return values;
    }
}

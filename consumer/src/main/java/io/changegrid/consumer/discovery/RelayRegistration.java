package io.changegrid.consumer.discovery;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What a relay registers about itself: an ephemeral node {@code
 * /changegrid/relays/<sourceId>/<name>} holding
 *
 * <pre>
 * {"sourceId":1,"endpoint":"http://10.0.0.5:7070","include":["shop.*"],"exclude":[],
 *  "partition":-1,"partitions":0,
 *  "selects":[{"include":["*.*"],"exclude":[],"where":false,"renames":false}]}
 * </pre>
 *
 * The relay writes it (the relay module's {@code RelayRegistrar}); this is the consumer's reading
 * of the same format, documented in docs/cluster.md. A relay with {@code partition} -1 publishes
 * every partition of what it captures (a consumer's partition is then a filter the relay applies
 * per request); a relay splitting the source with others ({@code capture.partition}) publishes only
 * partition {@code partition} of {@code partitions} and serves only that partition of a group of
 * that many. What it publishes is what its capture filter ({@code include}, {@code exclude}) lets
 * through and its policies then select ({@code selects}, in their order).
 *
 * @param name the node's name
 * @param sourceId the source the relay reads
 * @param endpoint the relay's base URL
 * @param include the tables it captures, {@code database.table} patterns with {@code *}; empty for
 *     all
 * @param exclude the tables it leaves out
 * @param partition the only partition it publishes, or -1 for all
 * @param partitions the number of partitions {@code partition} is one of; 0 when it publishes all
 * @param selects what its policies select, in order; {@link RelaySelection#EVERYTHING} alone
 *     without policies
 */
public record RelayRegistration(
        String name,
        int sourceId,
        String endpoint,
        List<String> include,
        List<String> exclude,
        int partition,
        int partitions,
        List<RelaySelection> selects) {

    /** Where relays register. */
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

    /**
     * Whether this relay publishes all of partition {@code wanted} of a group of {@code
     * groupPartitions}: it publishes every partition, or exactly that one of as many. A relay's
     * partition 1 of 2 is half of what partition 1 of 4 needs and more than it wants; neither makes
     * it a replica.
     */
    public boolean serves(int wanted, int groupPartitions) {
        return partition < 0 || (partition == wanted && partitions == groupPartitions);
    }

    /**
     * Whether this relay publishes every row of every table {@code wanted} names, under their own
     * names: a relay that does is a replica for a subscription to them, one that publishes a subset
     * (some tables, some rows) is not, since failing over to it would silently lose the rest.
     *
     * <p>Each pattern must lie within the capture filter ({@code include} covers it, no {@code
     * exclude} could touch it), and the first policy selecting any of its tables (which governs
     * them) must select all of them, every row, unrenamed. Judged on the patterns alone, so it errs
     * towards "not a replica" where only the source's actual tables would tell.
     *
     * @param wanted {@code database.table} patterns; a subscription to every table wants {@code
     *     *.*}
     */
    public boolean covers(List<String> wanted) {
        return wanted.stream().allMatch(this::publishesAllOf);
    }

    private boolean publishesAllOf(String wanted) {
        if (!include.isEmpty()
                && include.stream().noneMatch(pattern -> TableGlobs.covers(pattern, wanted))) {
            return false;
        }
        if (exclude.stream().anyMatch(pattern -> TableGlobs.overlaps(pattern, wanted))) {
            return false;
        }
        for (RelaySelection policy : selects) {
            if (policy.touches(wanted)) {
                return policy.publishesAllOf(wanted);
            }
        }
        return false;
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
        String name = path.substring(path.lastIndexOf('/') + 1);
        return new RelayRegistration(
                name, sourceId, endpoint, include, exclude, partition, partitions, selects);
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
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String field = json.currentName();
                json.nextToken();
                switch (field) {
                    case "include" -> include = strings(json);
                    case "exclude" -> exclude = strings(json);
                    case "where" -> where = json.getBooleanValue();
                    case "renames" -> renames = json.getBooleanValue();
                    default -> json.skipChildren();
                }
            }
            selects.add(new RelaySelection(include, exclude, where, renames));
        }
        return selects;
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

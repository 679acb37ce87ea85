package io.changegrid.consumer.discovery;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What a relay registers about itself: an ephemeral node {@code
 * /changegrid/relays/<sourceId>/<name>} holding
 *
 * <pre>
 * {"sourceId":1,"endpoint":"http://10.0.0.5:7070","include":["shop.*"],"exclude":[],
 *  "partition":-1,"partitions":0}
 * </pre>
 *
 * The relay writes it (the relay module's {@code RelayRegistrar}); this is the consumer's reading
 * of the same format, documented in docs/cluster.md. A relay with {@code partition} -1 publishes
 * every partition of what it captures (a consumer's partition is then a filter the relay applies
 * per request); a relay splitting the source with others ({@code capture.partition}) publishes only
 * partition {@code partition} of {@code partitions} and serves only that partition of a group of
 * that many.
 *
 * @param name the node's name
 * @param sourceId the source the relay reads
 * @param endpoint the relay's base URL
 * @param include the tables it captures, {@code database.table} patterns with {@code *}; empty for
 *     all
 * @param exclude the tables it leaves out
 * @param partition the only partition it publishes, or -1 for all
 * @param partitions the number of partitions {@code partition} is one of; 0 when it publishes all
 */
public record RelayRegistration(
        String name,
        int sourceId,
        String endpoint,
        List<String> include,
        List<String> exclude,
        int partition,
        int partitions) {

    /** Where relays register. */
    public static final String RELAYS_ROOT = "/changegrid/relays";

    private static final JsonFactory JSON = new JsonFactory();

    public RelayRegistration {
        include = List.copyOf(include);
        exclude = List.copyOf(exclude);
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
     * Whether this relay captures everything a subscription to {@code tables} asks for: a relay
     * capturing all tables covers any subscription; otherwise each wanted pattern must fall within
     * an included pattern and no excluded one. A subscription to every table (empty) needs a relay
     * that captures everything.
     */
    public boolean covers(List<String> tables) {
        if (include.isEmpty() && exclude.isEmpty()) {
            return true;
        }
        if (tables.isEmpty()) {
            return false;
        }
        for (String wanted : tables) {
            boolean included = include.isEmpty();
            for (String pattern : include) {
                included |= matches(pattern, wanted);
            }
            for (String pattern : exclude) {
                // An exclusion that could touch a wanted table makes the relay unfit for it.
                if (matches(pattern, wanted) || matches(wanted, pattern)) {
                    return false;
                }
            }
            if (!included) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code pattern}'s {@code *} wildcards cover every name {@code candidate} names. */
    static boolean matches(String pattern, String candidate) {
        StringBuilder regex = new StringBuilder();
        for (String part : pattern.split("\\*", -1)) {
            if (regex.length() > 0) {
                regex.append(".*");
            }
            regex.append(Pattern.quote(part));
        }
        return Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE)
                .matcher(candidate)
                .matches();
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
        if (sourceId < 0 || endpoint == null || endpoint.isBlank()) {
            throw new IOException(
                    "relay registration lacks sourceId or endpoint: path="
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
                name, sourceId, endpoint, include, exclude, partition, partitions);
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

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
 * <pre>{"sourceId":1,"endpoint":"http://10.0.0.5:7070","include":["shop.*"],"exclude":[]}</pre>
 *
 * The relay writes it (the relay module's {@code RelayRegistrar}); this is the consumer's reading
 * of the same format, documented in docs/cluster.md. Every relay serves every partition of what it
 * captures: a partition is a filter the relay applies per request.
 *
 * @param name the node's name
 * @param sourceId the source the relay reads
 * @param endpoint the relay's base URL
 * @param include the tables it captures, {@code database.table} patterns with {@code *}; empty for
 *     all
 * @param exclude the tables it leaves out
 * @param partition the only partition it publishes, or -1 for all
 */
public record RelayRegistration(
        String name,
        int sourceId,
        String endpoint,
        List<String> include,
        List<String> exclude,
        int partition) {

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

    /** Whether this relay publishes {@code wanted} (a partition of a consumer group). */
    public boolean serves(int wanted) {
        return partition < 0 || partition == wanted;
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
        String name = path.substring(path.lastIndexOf('/') + 1);
        return new RelayRegistration(name, sourceId, endpoint, include, exclude, partition);
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

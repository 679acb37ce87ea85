package io.changegrid.relay.cluster;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.List;

/**
 * What a relay registers about itself: an ephemeral node {@code
 * /changegrid/relays/<sourceId>/<host>_<port>} holding
 *
 * <pre>
 * {"sourceId":1,"endpoint":"http://10.0.0.5:7070","include":["shop.*"],"exclude":[],
 *  "partition":-1,"partitions":0}
 * </pre>
 *
 * Consumers read the same format (the consumer module's own reader; the two modules share no code,
 * docs/cluster.md is the contract). {@code partition} is {@code capture.partition}: -1 when the
 * relay publishes every partition; {@code partitions} is the number of partitions its policies
 * split the source into when it publishes one (0 when it publishes all), so that a consumer takes
 * it for partition {@code p} of {@code N} only when both match.
 *
 * @param sourceId the source the relay reads
 * @param endpoint the relay's base URL as consumers reach it
 * @param include the tables it captures; empty for all
 * @param exclude the tables it leaves out
 * @param partition the only partition it publishes, or -1 for all
 * @param partitions the number of partitions {@code partition} is one of; 0 when it publishes all
 */
public record RelayRegistration(
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

    /** The parent node of the source's registrations. */
    public String sourcePath() {
        return RELAYS_ROOT + "/" + sourceId;
    }

    /** This relay's node: named after its endpoint, so a restarted relay replaces its own. */
    public String path() {
        URI uri = URI.create(endpoint);
        int port = uri.getPort() < 0 ? 80 : uri.getPort();
        String name = (uri.getHost() + "_" + port).replaceAll("[^A-Za-z0-9_.-]", "_");
        return sourcePath() + "/" + name;
    }

    /** The node's bytes. */
    public byte[] encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeNumberField("sourceId", sourceId);
            json.writeStringField("endpoint", endpoint);
            json.writeArrayFieldStart("include");
            for (String table : include) {
                json.writeString(table);
            }
            json.writeEndArray();
            json.writeArrayFieldStart("exclude");
            for (String table : exclude) {
                json.writeString(table);
            }
            json.writeEndArray();
            json.writeNumberField("partition", partition);
            json.writeNumberField("partitions", partitions);
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to memory cannot fail", e);
        }
        return out.toByteArray();
    }
}

package io.changegrid.relay.cluster;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.changegrid.policy.Policy;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.partition.Partitioner;
import io.changegrid.policy.select.TablePattern;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * What a relay registers about itself: an ephemeral node {@code
 * /changegrid/relays/<sourceId>/<host>_<port>} holding
 *
 * <pre>
 * {"sourceId":1,"endpoint":"http://10.0.0.5:7070","include":["shop.*"],"exclude":[],
 *  "partition":1,"partitions":4,
 *  "selects":[{"include":["shop.*"],"exclude":["shop.tmp_*"],"where":false,"renames":false,
 *              "partitioner":"byKeyHash(partitions=4)"}]}
 * </pre>
 *
 * Consumers read the same format (the consumer module's own reader; the two modules share no code,
 * docs/cluster.md is the contract). {@code include}/{@code exclude} are the capture filter. {@code
 * partition} is {@code capture.partition}: -1 when the relay publishes every partition; {@code
 * partitions} is the number of partitions its policies split the source into when it publishes one
 * (0 when it publishes all). {@code selects} is what its policies select, in their order (the first
 * policy selecting a table governs it): each policy's tables, whether it filters rows ({@code
 * where:}), whether it renames tables and, when the relay publishes one partition, how that policy
 * splits its rows ({@code partitioner}: {@link Partitioner#canonicalForm()}, null when the relay
 * publishes every partition); a relay without policies publishes every captured table unchanged,
 * registered as one entry selecting {@code *.*}. A consumer uses a relay as a replica only if it
 * publishes every row of everything the consumer subscribes to under its own name, and a relay
 * publishing one partition only for that partition of a group split the same way: same number, same
 * count, same partitioner.
 *
 * @param sourceId the source the relay reads
 * @param endpoint the relay's base URL as consumers reach it
 * @param include the tables it captures; empty for all
 * @param exclude the tables it leaves out
 * @param partition the only partition it publishes, or -1 for all
 * @param partitions the number of partitions {@code partition} is one of; 0 when it publishes all
 * @param selects what its policies select, in order
 */
public record RelayRegistration(
        int sourceId,
        String endpoint,
        List<String> include,
        List<String> exclude,
        int partition,
        int partitions,
        List<Selection> selects) {

    /**
     * What one policy selects.
     *
     * @param include its tables
     * @param exclude the tables it leaves out
     * @param where whether it publishes only the rows a predicate selects
     * @param renames whether it publishes the tables under another database or table name
     * @param partitioner how it splits its rows ({@link Partitioner#canonicalForm()}) when the
     *     relay publishes one partition; null when the relay publishes every partition
     */
    public record Selection(
            List<String> include,
            List<String> exclude,
            boolean where,
            boolean renames,
            String partitioner) {

        public Selection {
            include = List.copyOf(include);
            exclude = List.copyOf(exclude);
        }

        /** A relay without policies: every captured table, every row, unchanged. */
        public static final Selection EVERYTHING =
                new Selection(List.of("*.*"), List.of(), false, false, null);

        /**
         * What a relay's policies select, in order: {@link #EVERYTHING} without policies. A relay's
         * policies' partitioners are registered only when it publishes one partition; a relay
         * publishing all of them publishes every row whatever they say.
         */
        public static List<Selection> of(CapturePlan plan) {
            if (plan.policies().isEmpty()) {
                return List.of(EVERYTHING);
            }
            boolean split = plan.partition() != CapturePlan.ALL_PARTITIONS;
            List<Selection> selects = new ArrayList<>();
            for (Policy policy : plan.policies().get().policies()) {
                selects.add(
                        new Selection(
                                policy.include().stream().map(TablePattern::text).toList(),
                                policy.exclude().stream().map(TablePattern::text).toList(),
                                policy.where() != null,
                                policy.transform().database() != null
                                        || policy.transform().table() != null,
                                // CapturePlan.of checked that every policy of a split has one.
                                split ? policy.partitioner().canonicalForm() : null));
            }
            return selects;
        }
    }

    /** Where relays register. */
    public static final String RELAYS_ROOT = "/changegrid/relays";

    private static final JsonFactory JSON = new JsonFactory();

    public RelayRegistration {
        include = List.copyOf(include);
        exclude = List.copyOf(exclude);
        selects = List.copyOf(selects);
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
            writeStrings(json, "include", include);
            writeStrings(json, "exclude", exclude);
            json.writeNumberField("partition", partition);
            json.writeNumberField("partitions", partitions);
            json.writeArrayFieldStart("selects");
            for (Selection selection : selects) {
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
}

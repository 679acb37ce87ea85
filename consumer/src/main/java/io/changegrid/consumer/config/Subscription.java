package io.changegrid.consumer.config;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.changegrid.config.ConfigException;
import io.changegrid.config.YamlConfigFile;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * Which part of a source's stream a consumer receives. The relay applies it on its side, on frame
 * headers where it can; transactions with nothing wanted are left out, and the consumer's
 * checkpoint still moves past them. Two forms:
 *
 * <ul>
 *   <li>Tables and partition {@code p} of {@code n} by key hash.
 *   <li>Policies, written as in a relay's YAML (docs/policies.md) but only selecting and
 *       partitioning: tables, a row predicate ({@code where:}), a partitioner; with {@code
 *       partition(p, n)} the consumer receives partition {@code p} of every policy's partitioner,
 *       each of which must split into {@code n}.
 * </ul>
 *
 * <pre>{@code
 * Subscription.all()
 * Subscription.tables("shop.*", "crm.users").partition(2, 4)
 * Subscription.policies("""
 *     policies:
 *       - include: [shop.*]
 *         where: tenant_id IN (3, 7)
 *         partition: {byKeyHash: {partitions: 4}}
 *     """).partition(1, 4)
 * }</pre>
 *
 * @param tables {@code database.table} patterns with {@code *}; empty for every table the relay
 *     captures (or when policies say)
 * @param partition the partition wanted, in {@code [0, partitions)}
 * @param partitions the number of partitions; 1 for no partitioning
 * @param policies the {@code policies:} list as parsed from YAML or JSON; empty for none
 */
public record Subscription(List<String> tables, int partition, int partitions, List<?> policies) {

    private static final JsonFactory JSON = new JsonFactory();

    public Subscription {
        tables = List.copyOf(tables);
        policies = List.copyOf(policies);
    }

    /** Tables and a partition by key hash. */
    public Subscription(List<String> tables, int partition, int partitions) {
        this(tables, partition, partitions, List.of());
    }

    /** Every table, unpartitioned. */
    public static Subscription all() {
        return new Subscription(List.of(), 0, 1);
    }

    /** The given tables, unpartitioned. */
    public static Subscription tables(String... patterns) {
        return new Subscription(List.of(patterns), 0, 1);
    }

    /**
     * What the policies of a YAML (or JSON) document with a {@code policies:} list select,
     * unpartitioned; checked when the consumer is built.
     *
     * @throws ConfigException if the text is not such a document
     */
    public static Subscription policies(String yaml) {
        Object list = YamlConfigFile.parse(yaml, "subscription").get("policies");
        if (!(list instanceof List)) {
            throw new ConfigException(List.of("policies: missing or not a list"));
        }
        return new Subscription(List.of(), 0, 1, (List<?>) list);
    }

    /** This subscription restricted to partition {@code p} of {@code n}. */
    public Subscription partition(int p, int n) {
        return new Subscription(tables, p, n, policies);
    }

    /**
     * The relay's {@code filter} parameter for the policies form: {@code {"policies": [...],
     * "partition": p}}, or {@code null} for the tables form.
     */
    public String filterJson() {
        if (policies.isEmpty()) {
            return null;
        }
        StringWriter text = new StringWriter();
        try (JsonGenerator json = JSON.createGenerator(text)) {
            json.writeStartObject();
            json.writeFieldName("policies");
            write(json, policies);
            json.writeNumberField("partition", partitions == 1 ? -1 : partition);
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to memory cannot fail", e);
        }
        return text.toString();
    }

    private static void write(JsonGenerator json, Object value) throws IOException {
        if (value instanceof Map) {
            json.writeStartObject();
            for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
                json.writeFieldName(String.valueOf(entry.getKey()));
                write(json, entry.getValue());
            }
            json.writeEndObject();
        } else if (value instanceof List) {
            json.writeStartArray();
            for (Object item : (List<?>) value) {
                write(json, item);
            }
            json.writeEndArray();
        } else if (value instanceof Number || value instanceof Boolean) {
            json.writeRawValue(String.valueOf(value)); // YAML numbers as written: 10.50 stays 10.50
        } else if (value == null) {
            json.writeNull();
        } else {
            json.writeString(String.valueOf(value));
        }
    }
}

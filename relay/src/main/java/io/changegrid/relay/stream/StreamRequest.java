package io.changegrid.relay.stream;

import static io.changegrid.protocol.StreamParameters.FILTER;
import static io.changegrid.protocol.StreamParameters.FORMAT;
import static io.changegrid.protocol.StreamParameters.FROM;
import static io.changegrid.protocol.StreamParameters.MAX_BYTES;
import static io.changegrid.protocol.StreamParameters.PARTITION;
import static io.changegrid.protocol.StreamParameters.PARTITIONS;
import static io.changegrid.protocol.StreamParameters.TABLES;
import static io.changegrid.protocol.StreamParameters.TIMEOUT_MS;

import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.protocol.StreamParameters;
import java.util.List;
import java.util.Locale;
import org.eclipse.jetty.util.Fields;

/**
 * The parameters of {@code GET /v1/stream}, validated: a bad value is a {@link BadRequestException}
 * naming the parameter and the value.
 *
 * <pre>
 * from       required  checkpoint SCN: events after it are sent; -1 means from the oldest held
 * maxBytes   optional  soft limit of the response body (default 1 MiB, 1 KiB..64 MiB); at least
 *                      one whole transaction is always sent
 * timeoutMs  optional  how long to wait for new events when there are none (default 30000, 0..300000)
 * format     optional  binary (default) or json
 * filter     optional  the subscription: {"policies": [...], "partition": p}, policies as in a
 *                      relay's YAML that select and partition (docs/policies.md); the partition of
 *                      every policy's partitioner wanted, or -1 (default) for all
 * tables     optional  comma-separated database.table patterns with *, e.g. shop.*,crm.users
 * p, n       optional  partition p of n by key hash (both or neither; 0 &lt;= p &lt; n &lt;= 65536)
 * parts      optional  parts of the transaction after from already held (default 0): the rest of
 *                      a transaction published in parts comes first
 * </pre>
 *
 * {@code filter} replaces {@code tables}, {@code p} and {@code n}, which remain as its shorthand.
 *
 * @param from the checkpoint SCN
 * @param maxBytes the soft body limit
 * @param timeoutMs the long-poll wait
 * @param format binary or JSON
 * @param plan what the subscriber wants: the frames are judged by it
 * @param parts parts of the transaction after {@code from} the consumer holds
 */
public record StreamRequest(
        long from, int maxBytes, long timeoutMs, StreamFormat format, CapturePlan plan, int parts) {

    static final int DEFAULT_MAX_BYTES = 1 << 20;
    static final int MAX_MAX_BYTES = 64 << 20;
    static final long DEFAULT_TIMEOUT_MS = 30_000;
    static final long MAX_TIMEOUT_MS = 300_000;

    /** Parses and validates the query parameters without {@code filter}. */
    public static StreamRequest parse(Fields query) {
        return parse(query, null);
    }

    /**
     * Parses and validates the query parameters.
     *
     * @param filters checks {@code filter} against the tables served; null refuses {@code filter}
     */
    static StreamRequest parse(Fields query, SubscriptionFilters filters) {
        for (Fields.Field field : query) {
            if (!StreamParameters.ALL.contains(field.getName())) {
                throw new BadRequestException(
                        field.getName(),
                        field.getValue(),
                        "unknown parameter; known are " + String.join(", ", StreamParameters.ALL));
            }
            if (field.getValues().size() > 1) {
                throw new BadRequestException(
                        field.getName(),
                        String.join(",", field.getValues()),
                        "given more than once");
            }
        }
        String fromText = query.getValue(FROM);
        if (fromText == null) {
            throw new BadRequestException(
                    FROM, "", "required: the checkpoint SCN, or -1 for the oldest held");
        }
        long from = number(query, FROM, -1, Long.MAX_VALUE, 0);
        int maxBytes = (int) number(query, MAX_BYTES, 1024, MAX_MAX_BYTES, DEFAULT_MAX_BYTES);
        long timeoutMs = number(query, TIMEOUT_MS, 0, MAX_TIMEOUT_MS, DEFAULT_TIMEOUT_MS);
        StreamFormat format = format(query.getValue(FORMAT));
        int parts = (int) number(query, StreamParameters.PARTS, 0, Integer.MAX_VALUE, 0);
        String tablesText = query.getValue(TABLES);
        String p = query.getValue(PARTITION);
        String n = query.getValue(PARTITIONS);
        String filter = query.getValue(FILTER);
        if (filter != null) {
            if (tablesText != null || p != null || n != null) {
                throw new BadRequestException(
                        FILTER, filter, "filter replaces tables, p and n: give one form");
            }
            if (filters == null) {
                throw new BadRequestException(FILTER, filter, "not accepted here");
            }
            return new StreamRequest(
                    from, maxBytes, timeoutMs, format, filters.filter(filter), parts);
        }
        if ((p == null) != (n == null)) {
            throw new BadRequestException(
                    p == null ? PARTITION : PARTITIONS,
                    "",
                    "p and n go together: partition p of n");
        }
        int partitions = (int) number(query, PARTITIONS, 1, 65_536, 1);
        int partition = (int) number(query, PARTITION, 0, partitions - 1L, 0);
        CapturePlan plan =
                tablesText == null && partitions == 1
                        ? CapturePlan.everything()
                        : SubscriptionFilters.tables(
                                tablesText == null ? null : List.of(tablesText.split(",")),
                                partition,
                                partitions);
        return new StreamRequest(from, maxBytes, timeoutMs, format, plan, parts);
    }

    private static StreamFormat format(String text) {
        if (text == null) {
            return StreamFormat.BINARY;
        }
        try {
            return StreamFormat.valueOf(text.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new BadRequestException(FORMAT, text, "binary or json");
        }
    }

    private static long number(Fields query, String name, long min, long max, long defaultValue) {
        String text = query.getValue(name);
        if (text == null) {
            return defaultValue;
        }
        long value;
        try {
            value = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new BadRequestException(name, text, "an integer from " + min + " to " + max);
        }
        if (value < min || value > max) {
            throw new BadRequestException(name, text, "an integer from " + min + " to " + max);
        }
        return value;
    }
}

package io.changegrid.appliers.it;

import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.checkpoint.FileCheckpointStore;
import io.changegrid.events.ChangeEvent;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.relay.Relay;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Consumers' row streams in a form two sources of one workload can be compared in: transactions in
 * timeline order, each the list of its row changes as text (operation, table, both images by column
 * name), without what is the source's own: SCNs, transaction ids, type names, the case of names
 * (Oracle's are upper case, MariaDB's as created) and a column the source fills itself (a commit
 * time). Used by the differential tests.
 */
final class RowStreams {

    private RowStreams() {}

    /**
     * A consumer of {@code namespace}'s tables on {@code relay} adding its row changes to {@code
     * events}.
     */
    static Consumer collect(
            Relay relay, String namespace, Path checkpoint, List<ChangeEvent> events)
            throws Exception {
        return Pipeline.consume(
                relay,
                namespace,
                event -> {
                    if (event.operation().isRowChange()) {
                        events.add(event.toChangeEvent());
                    }
                    return CallbackResult.SUCCESS;
                },
                new FileCheckpointStore(checkpoint),
                100);
    }

    /**
     * The stream as transactions (by SCN, in order), each a list of its row changes as text,
     * without the column {@code skipped} (any case).
     */
    static List<List<String>> transactions(List<ChangeEvent> events, String skipped) {
        List<List<String>> transactions = new ArrayList<>();
        long scn = Long.MIN_VALUE;
        for (ChangeEvent event : events) {
            if (event.scn() != scn) {
                transactions.add(new ArrayList<>());
                scn = event.scn();
            }
            transactions.get(transactions.size() - 1).add(text(event, skipped));
        }
        return transactions;
    }

    /** Operation, table and both images by column name, without the column {@code skipped}. */
    static String text(ChangeEvent event, String skipped) {
        TableSchema schema = event.schema();
        int skip = -1;
        for (int i = 0; i < schema.columns().size(); i++) {
            if (schema.column(i).name().equalsIgnoreCase(skipped)) {
                skip = i;
            }
        }
        return event.operation()
                + " "
                + lower(schema.database())
                + "."
                + lower(schema.table())
                + " before="
                + image(event.before(), schema, skip)
                + " after="
                + image(event.after(), schema, skip);
    }

    private static String image(Object[] row, TableSchema schema, int skipped) {
        if (row == null) {
            return "null";
        }
        List<String> values = new ArrayList<>();
        for (int i = 0; i < row.length; i++) {
            if (i != skipped) {
                Object value = row[i];
                values.add(
                        lower(schema.column(i).name())
                                + "="
                                + (value instanceof byte[] bytes
                                        ? Arrays.toString(bytes)
                                        : String.valueOf(value)));
            }
        }
        return String.join(", ", values);
    }

    private static String lower(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}

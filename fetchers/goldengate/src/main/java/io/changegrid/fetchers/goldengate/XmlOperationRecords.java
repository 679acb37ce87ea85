package io.changegrid.fetchers.goldengate;

import java.util.Arrays;
import java.util.Map;

/**
 * The XML format's side of the assembler: one {@code <transaction>} element parsed by {@link
 * XmlTransactionParser}, and each of its operations put into the {@link OperationRecord} and the
 * table binding's image arrays the JSON parser fills for a line, so that the assembler publishes
 * both formats the same way. Values are typed with the table's schema here, from their text.
 * Problems are {@link IllegalArgumentException}s saying what; the caller adds file and offset.
 *
 * <p>Not thread-safe: the fetcher's thread only.
 */
final class XmlOperationRecords {

    private final XmlTransactionParser parser;

    XmlOperationRecords(String xidToken, String csnToken) {
        this.parser = new XmlTransactionParser(xidToken, csnToken);
    }

    /** The transaction element of the line {@code tail} is at. */
    XmlTransactionParser.XmlTransaction parse(FileTail tail) {
        return parser.parse(tail.buffer(), tail.lineStart(), tail.lineLength());
    }

    /** Starts {@code record} as the transaction's first operation would: SCN, op_ts and tokens. */
    static void begin(
            XmlTransactionParser.XmlTransaction transaction, long scn, OperationRecord record) {
        record.clear();
        record.scn = scn;
        String timestamp = transaction.timestamp();
        // Databus's form puts a colon between date and time: 2026-11-26:10:00:00.000000.
        record.opTs =
                timestamp.length() > 10 && timestamp.charAt(10) == ':'
                        ? timestamp.substring(0, 10) + " " + timestamp.substring(11)
                        : timestamp;
        record.xid = transaction.xid();
        record.csn = transaction.csn();
    }

    /** Puts one operation into {@code record}, its images into {@code binding}'s arrays. */
    static void operation(
            XmlTransactionParser.XmlOperation operation,
            TableBinding binding,
            OperationRecord record) {
        record.table = operation.table();
        record.binding = binding;
        record.opType = operation.opType();
        record.primaryKeys.clear();
        record.primaryKeys.addAll(operation.key());
        record.hasPrimaryKeys = true;
        record.hasBefore = operation.before() != null;
        record.hasAfter = operation.after() != null;
        if (binding.captured()) {
            image(binding, operation.before(), binding.before, binding.beforePresent);
            image(binding, operation.after(), binding.after, binding.afterPresent);
        }
    }

    private static void image(
            TableBinding binding, Map<String, String> columns, Object[] values, boolean[] present) {
        Arrays.fill(values, null);
        Arrays.fill(present, false);
        if (columns == null) {
            return;
        }
        for (Map.Entry<String, String> column : columns.entrySet()) {
            int index = binding.schema.indexOf(column.getKey());
            if (index < 0) {
                throw new IllegalArgumentException(
                        "column not in the table's schema: table="
                                + binding.schema.qualifiedName()
                                + ", column="
                                + column.getKey());
            }
            try {
                values[index] =
                        column.getValue() == null
                                ? null
                                : JsonCells.fromText(
                                        column.getValue(), binding.schema.column(index));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(
                        "value the column cannot carry: table="
                                + binding.schema.qualifiedName()
                                + ", column="
                                + column.getKey()
                                + ", type="
                                + binding.schema.column(index).type()
                                + ", problem="
                                + e.getMessage(),
                        e);
            }
            present[index] = true;
        }
    }
}

package io.changegrid.appliers.batch;

import io.changegrid.appliers.schema.TargetTable;
import io.changegrid.appliers.typemap.TargetColumn;
import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Says which row change a target refused, for the operator: its table, key and SCN and, where the
 * server's message names a column ({@code Out of range value for column 'f' at row 1}, {@code null
 * value in column "f"}), that column and the row's value of it. A server's own message names
 * neither the table nor the value.
 */
final class FailedRow {

    /** The column a MariaDB/MySQL ({@code 'f'}) or PostgreSQL ({@code "f"}) message names. */
    /**
     * A column a server's error names, qualified or not: {@code column 'f'} (MariaDB's "Data
     * truncated", "Out of range value") or {@code column `db`.`t`.`f`} ("Incorrect string value").
     */
    private static final Pattern COLUMN =
            Pattern.compile("column (?:['\"`][^'\"`]+['\"`]\\.)*['\"`]([^'\"`]+)['\"`]");

    /** Longest value text in a message. */
    private static final int MAX_VALUE_CHARS = 200;

    private FailedRow() {}

    /** The refusal of one change's value, naming its table, key and SCN. */
    static RowRefusedException refused(
            TargetTable table, RowKey key, Lane.Change change, RuntimeException cause) {
        return new RowRefusedException(
                table.schema().qualifiedName(), where(table, key, change), cause);
    }

    /** {@code table=..., scn=..., key=...}: where one change is. */
    static String where(TargetTable table, RowKey key, Lane.Change change) {
        return "table=" + table.name() + ", scn=" + change.version().scn() + ", key=" + key;
    }

    /**
     * The failure of a JDBC batch of {@code changes}, as an error naming the change that failed
     * where the driver or the batch's size tells it, else the table and the batch's SCNs. The
     * SQLSTATE, error code and cause are kept, so the error classifies as before.
     */
    static RowWriteException of(
            TargetTable table, List<RowKey> keys, List<Lane.Change> changes, SQLException e) {
        int at = failedEntry(e, changes.size());
        String where;
        if (at >= 0) {
            Lane.Change change = changes.get(at);
            where = where(table, keys.get(at), change) + column(table, change, e.getMessage());
        } else {
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            for (Lane.Change change : changes) {
                first = Math.min(first, change.version().scn());
                last = Math.max(last, change.version().scn());
            }
            where =
                    "table="
                            + table.name()
                            + ", rows="
                            + changes.size()
                            + ", scns="
                            + first
                            + ".."
                            + last
                            + " (which row the driver does not say)";
        }
        return new RowWriteException(
                table.schema().qualifiedName(),
                "target refused a row: " + where + ", error=" + e.getMessage(),
                e);
    }

    /** The index of the failed entry of a batch of {@code size}, or -1 if unknown. */
    private static int failedEntry(SQLException e, int size) {
        if (size == 1) {
            return 0;
        }
        if (e instanceof BatchUpdateException batch && batch.getUpdateCounts() != null) {
            int[] counts = batch.getUpdateCounts();
            if (counts.length < size) {
                return counts.length; // the driver stopped at the failed entry
            }
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] == Statement.EXECUTE_FAILED) {
                    return i;
                }
            }
        }
        return -1;
    }

    /** {@code , column=f, value=...} if the message names a column of the table, else empty. */
    private static String column(TargetTable table, Lane.Change change, String message) {
        if (message == null || change.row() == null) {
            return "";
        }
        Matcher matcher = COLUMN.matcher(message);
        if (!matcher.find()) {
            return "";
        }
        List<TargetColumn> columns = table.columns();
        int sourceColumns = table.schema().columnCount();
        for (int i = 0; i < sourceColumns; i++) {
            if (columns.get(i).name().equals(matcher.group(1))) {
                return ", column=" + matcher.group(1) + ", value=" + show(change.row()[i]);
            }
        }
        return "";
    }

    /** A value as a message shows it: bytes in hex, long text cut. */
    static String show(Object value) {
        String text =
                value instanceof byte[] bytes
                        ? "0x" + HexFormat.of().formatHex(bytes)
                        : value instanceof String s ? "'" + s + "'" : String.valueOf(value);
        return text.length() <= MAX_VALUE_CHARS
                ? text
                : text.substring(0, MAX_VALUE_CHARS) + "...(" + text.length() + " chars)";
    }
}

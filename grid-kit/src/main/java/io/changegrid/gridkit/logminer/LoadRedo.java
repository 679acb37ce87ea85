package io.changegrid.gridkit.logminer;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * grid-kit's load ({@code LoadGenerator}, its transactions as {@code forEachTransaction} hands them
 * over in the MariaDB dialect) rendered into LogMiner rows, as an Oracle database running the same
 * transactions on tables of the same columns would show them: one transaction per load transaction
 * (START, its row changes, COMMIT), the rows in the order the source logs them (a multi-row INSERT
 * in VALUES order, each upsert of an existing key an UPDATE with the whole old row in its WHERE,
 * {@code DELETE ... WHERE id IN (..)} in key order, as InnoDB deletes by primary key), {@code
 * NOW(6)} a time of the renderer's own (each source fills that column with its own clock). The
 * renderer keeps each table's rows to write the old images.
 *
 * <p>The load's tables, in Oracle's terms: {@link #columns()}. Table names are the load's, upper
 * case, in the owner given.
 *
 * <p>Not thread-safe: one writer drives it.
 */
public final class LoadRedo {

    /** LogMiner's {@code SQL_REDO} piece: longer statements continue over {@code CSF = 1} rows. */
    private static final int PIECE = 4000;

    private static final LocalDateTime EPOCH = LocalDateTime.of(2026, 11, 26, 0, 0);
    private static final Object NOW = new Object();

    private final String owner;
    private final Map<String, Map<Long, Map<String, Object>>> tables = new HashMap<>();
    private final List<RedoRow> rows = new ArrayList<>();
    private long scn;
    private int transactions;
    private int block;
    private long rowCount;
    private long redoChars;

    /**
     * @param owner the Oracle owner of the load's tables (e.g. {@code WORKLOAD})
     * @param firstScn the SCN of the first row, above the stand-in's current SCN
     */
    public LoadRedo(String owner, long firstScn) {
        this.owner = owner;
        this.scn = firstScn - 1;
    }

    /** The load's columns as Oracle types them (see grid-kit's {@code WorkloadTables}). */
    public static List<StandInColumn> columns() {
        List<StandInColumn> columns = new ArrayList<>();
        columns.add(StandInColumn.number("ID", 18, 0, false));
        columns.add(StandInColumn.number("ACCOUNT", 10, 0, false));
        columns.add(StandInColumn.number("QUANTITY", 10, 0, true));
        columns.add(StandInColumn.number("AMOUNT", 12, 2, true));
        columns.add(StandInColumn.of("STATUS", "VARCHAR2", 12));
        columns.add(StandInColumn.of("CODE", "VARCHAR2", 5));
        columns.add(StandInColumn.of("NAME", "VARCHAR2", 40));
        columns.add(new StandInColumn("CREATED", "TIMESTAMP(6)", 11, null, 6, true));
        columns.add(new StandInColumn("UPDATED", "TIMESTAMP(6)", 11, null, 6, true));
        for (int note = 1; note <= 5; note++) {
            columns.add(StandInColumn.of("NOTE" + note, "VARCHAR2", 4000));
        }
        return List.copyOf(columns);
    }

    /** Defines the load's tables {@code names} in the stand-in's dictionary, keyed by ID. */
    public void define(LogMinerStandIn standIn, List<String> names) throws SQLException {
        for (String name : names) {
            standIn.defineTable(owner, oracleName(name), columns(), List.of("ID"), true);
        }
    }

    /** Renders one load transaction, its statements as the load runs them. */
    public void transaction(List<String> statements) {
        transactions++;
        byte[] xid =
                ByteBuffer.allocate(8)
                        .putShort((short) (1 + transactions % 10))
                        .putShort((short) (transactions % 32))
                        .putInt(transactions)
                        .array();
        add(RedoRow.START, "START", "set transaction read write;", xid, null, null);
        LocalDateTime commitTime = EPOCH.plusSeconds(scn + statements.size() + 1);
        for (String sql : statements) {
            if (sql.startsWith("DELETE FROM ")) {
                delete(sql, xid);
            } else if (sql.startsWith("INSERT INTO ")) {
                insert(sql, xid, commitTime);
            } else {
                throw new IllegalArgumentException("load statement not rendered: sql=" + sql);
            }
        }
        add(RedoRow.COMMIT, "COMMIT", "commit;", xid, null, null);
    }

    /**
     * Writes the rows rendered since the last call to the stand-in, current SCN at the last one.
     *
     * @return the number of rows written
     */
    public int write(LogMinerStandIn standIn) throws SQLException {
        return write(standIn, scn);
    }

    /**
     * Writes the rows rendered since the last call, flushed, with the stand-in's current SCN moved
     * to {@code currentScn} at most: a backlog written ahead keeps the current SCN where it was, so
     * no fetcher mines it before the caller moves the SCN on.
     *
     * @return the number of rows written
     */
    public int write(LogMinerStandIn standIn, long currentScn) throws SQLException {
        int count = rows.size();
        if (count > 0) {
            standIn.append(List.copyOf(rows), List.of(), currentScn);
            rows.clear();
        }
        return count;
    }

    /** The last SCN rendered. */
    public long scn() {
        return scn;
    }

    /** LogMiner rows rendered so far (CSF pieces counted). */
    public long rows() {
        return rowCount;
    }

    /** Characters of {@code SQL_REDO} rendered so far. */
    public long redoChars() {
        return redoChars;
    }

    private void insert(String sql, byte[] xid, LocalDateTime commitTime) {
        int open = sql.indexOf('(');
        String table = oracleName(lastName(sql.substring("INSERT INTO ".length(), open)));
        int close = sql.indexOf(')', open);
        List<String> names = new ArrayList<>();
        for (String column : sql.substring(open + 1, close).split(",")) {
            names.add(column.trim().toUpperCase(Locale.ROOT));
        }
        int values = sql.indexOf(" VALUES ", close) + " VALUES ".length();
        int upsert = sql.indexOf(" ON ", values);
        boolean isUpsert = upsert >= 0;
        String tuples = sql.substring(values, isUpsert ? upsert : sql.length());
        Map<Long, Map<String, Object>> rowsOfTable =
                tables.computeIfAbsent(table, t -> new HashMap<>());
        for (List<Object> tuple : tuples(tuples)) {
            Map<String, Object> row = new LinkedHashMap<>();
            for (int i = 0; i < names.size(); i++) {
                row.put(names.get(i), typed(names.get(i), tuple.get(i), commitTime));
            }
            long id = (Long) row.get("ID");
            Map<String, Object> before = rowsOfTable.get(id);
            if (isUpsert && before != null) {
                add(
                        RedoRow.UPDATE,
                        "UPDATE",
                        RedoRenderer.update(owner, table, columns(), before, row),
                        xid,
                        table,
                        rowId(table, id));
            } else {
                add(
                        RedoRow.INSERT,
                        "INSERT",
                        RedoRenderer.insert(owner, table, columns(), row),
                        xid,
                        table,
                        rowId(table, id));
            }
            rowsOfTable.put(id, row);
        }
    }

    private void delete(String sql, byte[] xid) {
        int where = sql.indexOf(" WHERE ");
        String table = oracleName(lastName(sql.substring("DELETE FROM ".length(), where)));
        String list = sql.substring(sql.indexOf('(', where) + 1, sql.lastIndexOf(')'));
        Map<Long, Map<String, Object>> rowsOfTable = tables.get(table);
        // InnoDB deletes an IN list by walking the primary key: in key order.
        List<Long> ids = new ArrayList<>();
        for (String id : list.split(",")) {
            ids.add(Long.parseLong(id.trim()));
        }
        ids.sort(null);
        for (long id : ids) {
            Map<String, Object> before = rowsOfTable == null ? null : rowsOfTable.remove(id);
            if (before == null) {
                throw new IllegalStateException(
                        "load deletes a row it never wrote: table=" + table + ", id=" + id);
            }
            add(
                    RedoRow.DELETE,
                    "DELETE",
                    RedoRenderer.delete(owner, table, columns(), before),
                    xid,
                    table,
                    rowId(table, id));
        }
    }

    /** A load literal as the value its Oracle column holds. */
    private static Object typed(String column, Object literal, LocalDateTime commitTime) {
        if (literal == NOW) {
            return commitTime;
        }
        return switch (column) {
            case "ID", "ACCOUNT", "QUANTITY" -> ((BigDecimal) literal).longValueExact();
            case "AMOUNT" -> literal;
            case "CREATED" -> LocalDateTime.parse(((String) literal).replace(' ', 'T'));
            default -> literal;
        };
    }

    /**
     * The tuples of a VALUES list: quoted strings ({@code ''} a quote) as {@link String}, numbers
     * as {@link BigDecimal}, {@code NOW(6)}/{@code now()} as the transaction's time.
     */
    static List<List<Object>> tuples(String text) {
        List<List<Object>> tuples = new ArrayList<>();
        List<Object> tuple = null;
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '(') {
                tuple = new ArrayList<>();
                tuples.add(tuple);
                i++;
            } else if (c == ',' || c == ')' || c == ' ') {
                i++;
            } else if (c == '\'') {
                StringBuilder value = new StringBuilder();
                i++;
                while (true) {
                    char d = text.charAt(i++);
                    if (d == '\'') {
                        if (i < text.length() && text.charAt(i) == '\'') {
                            value.append('\'');
                            i++;
                        } else {
                            break;
                        }
                    } else {
                        value.append(d);
                    }
                }
                tuple.add(value.toString());
            } else if (text.regionMatches(true, i, "NOW(", 0, 4)) {
                tuple.add(NOW);
                i = text.indexOf(')', i) + 1;
            } else {
                int end = i;
                while (end < text.length() && ",) ".indexOf(text.charAt(end)) < 0) {
                    end++;
                }
                tuple.add(new BigDecimal(text.substring(i, end)));
                i = end;
            }
        }
        return tuples;
    }

    /** {@code `db`.`table`} or {@code "db"."table"}: {@code table}. */
    private static String lastName(String qualified) {
        String name = qualified.substring(qualified.lastIndexOf('.') + 1).trim();
        return name.substring(1, name.length() - 1);
    }

    private static String oracleName(String name) {
        return name.toUpperCase(Locale.ROOT);
    }

    private static String rowId(String table, long id) {
        return String.format("AAA%03dAAE%09d", Math.abs(table.hashCode() % 1000), id);
    }

    private void add(
            int code, String operation, String sql, byte[] xid, String table, String rowId) {
        scn++;
        LocalDateTime timestamp = EPOCH.plusSeconds(scn);
        int pieces = Math.max(1, (sql.length() + PIECE - 1) / PIECE);
        rowCount += pieces;
        redoChars += sql.length();
        for (int i = 0; i < pieces; i++) {
            block++;
            rows.add(
                    new RedoRow(
                            scn,
                            code,
                            operation,
                            sql.substring(i * PIECE, Math.min(sql.length(), (i + 1) * PIECE)),
                            timestamp,
                            xid,
                            i < pieces - 1,
                            table == null ? null : owner,
                            table,
                            rowId == null ? "AAAAAAAAAAAAAAAAAA" : rowId,
                            false,
                            block,
                            1,
                            String.format(" 0x%06x.%08x.%04x ", 1 + block / 100_000, block, 16)));
        }
    }
}

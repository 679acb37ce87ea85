package io.changegrid.gridkit.logminer;

import java.nio.ByteBuffer;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A seeded workload rendered into LogMiner rows, as an Oracle source would show them in {@code
 * V$LOGMNR_CONTENTS}: concurrent transactions whose rows interleave, rolled-back transactions,
 * rollbacks to a savepoint ({@code ROLLBACK = 1} rows undoing rows by {@code ROW_ID}, latest
 * first), {@code SQL_REDO} longer than a piece split over {@code CSF = 1} rows, several commits at
 * one SCN, SCN gaps, an {@code ALTER TABLE .. ADD} (the dictionary changes with its rows), {@code
 * Unsupported Type} in another table, and the edge values of every column type of {@link #ITEMS}.
 *
 * <p>It keeps what a consumer must end up with: the committed rows of {@code SHOP.ITEMS} ({@link
 * #expectedRows()}) and the committed transactions in timeline order ({@link #committed()}).
 * Transactions never touch a row another open transaction changed (Oracle would make them wait).
 *
 * <p>Not thread-safe: one writer drives it. Prints nothing; the caller logs the seed.
 */
public final class LogMinerWorkload {

    public static final String OWNER = "SHOP";
    public static final String ITEMS = "ITEMS";
    public static final String DOCS = "DOCS";

    /** A committed transaction of ITEMS rows: its XID in hex and its row changes. */
    public record Committed(String xid, long scn, int rowChanges) {}

    /**
     * How the workload behaves.
     *
     * @param maxOpen most transactions open at once
     * @param rowsPerTransaction most row changes per transaction
     * @param rollbackRate share of transactions rolled back
     * @param savepointRate chance per row change of a savepoint, changes, and a rollback to it
     * @param equalScnRate chance that a commit takes the SCN of the commit before
     * @param gapRate chance of an SCN gap before a row
     * @param longValueRate chance that a NOTE value is long enough to split SQL_REDO over CSF rows
     * @param pieceLength longest SQL_REDO piece (LogMiner's is 4,000 bytes)
     * @param ddlAfter add a column to ITEMS after this many transactions (never when negative)
     * @param unsupportedRate chance per transaction of a DOCS row rendered as Unsupported Type
     */
    public record Options(
            int maxOpen,
            int rowsPerTransaction,
            double rollbackRate,
            double savepointRate,
            double equalScnRate,
            double gapRate,
            double longValueRate,
            int pieceLength,
            int ddlAfter,
            double unsupportedRate) {

        /** Every feature, at rates a short test sees each of several times. */
        public static Options everything() {
            return new Options(4, 6, 0.15, 0.1, 0.3, 0.1, 0.05, 4000, 40, 0.05);
        }

        /** Plain transactions only, for a benchmark's steady rate. */
        public static Options steady(int rowsPerTransaction) {
            return new Options(4, rowsPerTransaction, 0, 0, 0.1, 0, 0, 4000, -1, 0);
        }
    }

    private static final LocalDateTime EPOCH = LocalDateTime.of(2026, 11, 26, 0, 0);

    private final Random random;
    private final ItemValues itemValues;
    private final Options options;
    private final List<StandInColumn> columns;
    private final Map<Long, Map<String, Object>> committedRows = new LinkedHashMap<>();
    private final Map<Long, String> locks = new HashMap<>();
    private final Map<Long, String> rowIds = new HashMap<>();
    private final List<Open> open = new ArrayList<>();
    private final List<Committed> committed = new ArrayList<>();
    private final List<RedoRow> rows = new ArrayList<>();
    private final List<LogMinerStandIn.AddedColumn> added = new ArrayList<>();
    private long scn;
    private long nextId = 1;
    private int nextXid = 1;
    private int block;
    private boolean lastWasCommit;
    private int ended;
    private boolean ddlDone;

    /** An open transaction and the rows it changed, as it sees them. */
    private static final class Open {
        final byte[] xid;
        final int size;
        final Map<Long, Map<String, Object>> overlay = new HashMap<>();
        int changes;
        int itemChanges;

        Open(byte[] xid, int size) {
            this.xid = xid;
            this.size = size;
        }
    }

    /** One change, to render and to undo. */
    private record Change(long id, Map<String, Object> before, Map<String, Object> after) {}

    public LogMinerWorkload(long seed, long firstScn, Options options) {
        this(seed, firstScn, options, itemsColumns());
    }

    /**
     * A workload on ITEMS with only {@code items} of {@link #itemsColumns()} (e.g. without the
     * TIMESTAMP WITH TIME ZONE column for a target that cannot keep offsets); define the table with
     * {@link #define(LogMinerStandIn, List)} alike.
     */
    public LogMinerWorkload(long seed, long firstScn, Options options, List<StandInColumn> items) {
        this.columns = new ArrayList<>(items);
        this.random = new Random(seed);
        this.itemValues = new ItemValues(random, options.longValueRate());
        this.options = options;
        this.scn = firstScn;
    }

    /** The columns of SHOP.ITEMS: one of every type the fetcher carries that a row image holds. */
    public static List<StandInColumn> itemsColumns() {
        return List.of(
                StandInColumn.number("ID", 10, 0, false),
                StandInColumn.of("NAME", "VARCHAR2", 100),
                StandInColumn.of("NNAME", "NVARCHAR2", 50),
                StandInColumn.number("PRICE", 12, 2, true),
                StandInColumn.number("QTY", 18, 0, true),
                StandInColumn.of("RATIO", "BINARY_DOUBLE", 8),
                StandInColumn.of("CREATED", "DATE", 7),
                new StandInColumn("UPDATED", "TIMESTAMP(6)", 11, null, 6, true),
                new StandInColumn("SEEN", "TIMESTAMP(9) WITH TIME ZONE", 13, null, 9, true),
                StandInColumn.of("TAG", "RAW", 16),
                new StandInColumn("WAIT", "INTERVAL DAY(2) TO SECOND(6)", 11, 2, 6, true),
                StandInColumn.of("NOTE", "VARCHAR2", 4000));
    }

    /** Defines SHOP.ITEMS and SHOP.DOCS in the stand-in's dictionary. */
    public static void define(LogMinerStandIn standIn) throws SQLException {
        define(standIn, itemsColumns());
    }

    /** Defines SHOP.ITEMS with {@code items} and SHOP.DOCS in the stand-in's dictionary. */
    public static void define(LogMinerStandIn standIn, List<StandInColumn> items)
            throws SQLException {
        standIn.defineTable(OWNER, ITEMS, items, List.of("ID"), true);
        standIn.defineTable(
                OWNER,
                DOCS,
                List.of(
                        StandInColumn.number("ID", 10, 0, false),
                        StandInColumn.of("BODY", "VARCHAR2", 100)),
                List.of("ID"),
                true);
    }

    /** The current columns of ITEMS (a DDL may have added one). */
    public List<StandInColumn> columns() {
        return List.copyOf(columns);
    }

    /** The last SCN written. */
    public long scn() {
        return scn;
    }

    /** The committed rows of ITEMS by ID, column name to value (NULLs absent). */
    public Map<Long, Map<String, Object>> expectedRows() {
        return Collections.unmodifiableMap(committedRows);
    }

    /** The committed transactions that changed ITEMS, in timeline order. */
    public List<Committed> committed() {
        return List.copyOf(committed);
    }

    /**
     * Renders until {@code transactions} more transactions ended (committed or rolled back) and
     * writes the rows to the stand-in, one stand-in transaction per {@code batch} ended ones.
     * Transactions still open stay open for the next call.
     *
     * @return the number of rows written
     */
    public int write(LogMinerStandIn standIn, int transactions, int batch) throws SQLException {
        int written = 0;
        int target = ended + transactions;
        int batchEnd = ended + batch;
        while (ended < target) {
            step();
            if (ended >= batchEnd || ended >= target) {
                written += flush(standIn);
                batchEnd = ended + batch;
            }
        }
        return written + flush(standIn);
    }

    private int flush(LogMinerStandIn standIn) throws SQLException {
        if (rows.isEmpty() && added.isEmpty()) {
            return 0;
        }
        int count = rows.size();
        standIn.append(List.copyOf(rows), List.copyOf(added), scn);
        // The current SCN is now past this one: no later row may take it, as no later commit
        // takes an SCN Oracle's redo has already flushed.
        lastWasCommit = false;
        rows.clear();
        added.clear();
        return count;
    }

    private void step() {
        if (!ddlDone && options.ddlAfter() >= 0 && ended >= options.ddlAfter() && open.isEmpty()) {
            ddl();
            return;
        }
        boolean ddlWaiting = !ddlDone && options.ddlAfter() >= 0 && ended >= options.ddlAfter();
        if (open.isEmpty()
                || (!ddlWaiting && open.size() < options.maxOpen() && random.nextInt(3) == 0)) {
            begin();
            return;
        }
        Open transaction = open.get(random.nextInt(open.size()));
        if (transaction.changes >= transaction.size) {
            end(transaction);
        } else if (random.nextDouble() < options.savepointRate()) {
            savepoint(transaction);
        } else if (random.nextDouble() < options.unsupportedRate()) {
            unsupported(transaction);
        } else {
            Change change = change(transaction);
            if (change != null) {
                emit(transaction, change, false);
            }
            transaction.changes++;
        }
    }

    private void begin() {
        int n = nextXid++;
        byte[] xid =
                ByteBuffer.allocate(8)
                        .putShort((short) (n % 10 + 1))
                        .putShort((short) (n % 32))
                        .putInt(n)
                        .array();
        Open transaction = new Open(xid, 1 + random.nextInt(options.rowsPerTransaction()));
        open.add(transaction);
        add(
                RedoRow.START,
                "START",
                "set transaction read write;",
                transaction.xid,
                null,
                null,
                null,
                false);
    }

    private void end(Open transaction) {
        open.remove(transaction);
        ended++;
        String owner = hex(transaction.xid);
        locks.values().removeIf(owner::equals);
        if (random.nextDouble() < options.rollbackRate()) {
            add(
                    RedoRow.ROLLBACK,
                    "ROLLBACK",
                    "rollback;",
                    transaction.xid,
                    null,
                    null,
                    null,
                    false);
            return;
        }
        boolean sameScn = lastWasCommit && random.nextDouble() < options.equalScnRate();
        add(RedoRow.COMMIT, "COMMIT", "commit;", transaction.xid, null, null, null, sameScn);
        transaction.overlay.forEach(
                (id, image) -> {
                    if (image == null) {
                        committedRows.remove(id);
                    } else {
                        committedRows.put(id, image);
                    }
                });
        if (transaction.itemChanges > 0) {
            committed.add(new Committed(hex(transaction.xid), scn, transaction.itemChanges));
        }
    }

    /** A SAVEPOINT, one to three changes, and ROLLBACK TO SAVEPOINT: undo rows, latest first. */
    private void savepoint(Open transaction) {
        Map<Long, Map<String, Object>> saved = new HashMap<>(transaction.overlay);
        int savedItemChanges = transaction.itemChanges;
        List<Change> made = new ArrayList<>();
        int count = 1 + random.nextInt(3);
        for (int i = 0; i < count; i++) {
            Change change = change(transaction);
            if (change != null) {
                emit(transaction, change, false);
                made.add(change);
            }
        }
        for (int i = made.size() - 1; i >= 0; i--) {
            Change change = made.get(i);
            emit(transaction, new Change(change.id(), change.after(), change.before()), true);
        }
        transaction.overlay.clear();
        transaction.overlay.putAll(saved);
        transaction.itemChanges = savedItemChanges;
        transaction.changes++;
    }

    /** A row of DOCS whose BODY LogMiner renders as Unsupported Type. */
    private void unsupported(Open transaction) {
        long id = nextId++;
        add(
                RedoRow.UPDATE,
                "UPDATE",
                RedoRenderer.unsupported(OWNER, DOCS, "ID", id, "BODY"),
                transaction.xid,
                DOCS,
                rowId(id),
                null,
                false);
        transaction.changes++;
    }

    /** Picks and applies one change to the transaction's view; null when no row can be taken. */
    private Change change(Open transaction) {
        int kind = random.nextInt(10);
        if (kind < 5 || committedRows.isEmpty()) {
            long id = nextId++;
            Map<String, Object> row = itemValues.row(id, columns, ddlDone);
            transaction.overlay.put(id, row);
            locks.put(id, hex(transaction.xid));
            return new Change(id, null, row);
        }
        List<Long> candidates = new ArrayList<>();
        for (Long id : committedRows.keySet()) {
            String owner = locks.get(id);
            if (owner == null || owner.equals(hex(transaction.xid))) {
                candidates.add(id);
            }
        }
        for (Long id : transaction.overlay.keySet()) {
            if (!committedRows.containsKey(id)) {
                candidates.add(id);
            }
        }
        Collections.shuffle(candidates, random);
        for (Long id : candidates) {
            Map<String, Object> current =
                    transaction.overlay.containsKey(id)
                            ? transaction.overlay.get(id)
                            : committedRows.get(id);
            if (current == null) {
                continue; // deleted in this transaction
            }
            locks.put(id, hex(transaction.xid));
            if (kind < 8) {
                Map<String, Object> next = new LinkedHashMap<>(current);
                Map<String, Object> fresh = itemValues.row(id, columns, ddlDone);
                for (int i = 0; i < 3; i++) {
                    String column = columns.get(1 + random.nextInt(columns.size() - 1)).name();
                    if (fresh.get(column) == null) {
                        next.remove(column);
                    } else {
                        next.put(column, fresh.get(column));
                    }
                }
                if (sameRow(current, next)) {
                    next.put("NAME", "changed " + random.nextInt());
                }
                transaction.overlay.put(id, next);
                return new Change(id, current, next);
            }
            transaction.overlay.put(id, null);
            return new Change(id, current, null);
        }
        return null;
    }

    private boolean sameRow(Map<String, Object> a, Map<String, Object> b) {
        for (StandInColumn column : columns) {
            if (!RedoRenderer.same(a.get(column.name()), b.get(column.name()))) {
                return false;
            }
        }
        return true;
    }

    private void emit(Open transaction, Change change, boolean rollback) {
        String sql;
        int code;
        String operation;
        if (change.before() == null) {
            sql = RedoRenderer.insert(OWNER, ITEMS, columns, change.after());
            code = RedoRow.INSERT;
            operation = "INSERT";
        } else if (change.after() == null) {
            sql = RedoRenderer.delete(OWNER, ITEMS, columns, change.before());
            code = RedoRow.DELETE;
            operation = "DELETE";
        } else {
            sql = RedoRenderer.update(OWNER, ITEMS, columns, change.before(), change.after());
            code = RedoRow.UPDATE;
            operation = "UPDATE";
        }
        if (!rollback) {
            transaction.itemChanges++;
        }
        add(
                code,
                operation,
                sql,
                transaction.xid,
                ITEMS,
                rowId(change.id()),
                null,
                false,
                rollback);
    }

    private void ddl() {
        ddlDone = true;
        byte[] xid =
                ByteBuffer.allocate(8)
                        .putShort((short) 99)
                        .putShort((short) 0)
                        .putInt(nextXid++)
                        .array();
        StandInColumn extra = StandInColumn.of("EXTRA", "VARCHAR2", 20);
        add(RedoRow.START, "START", "set transaction read write;", xid, null, null, null, false);
        add(
                RedoRow.DDL,
                "DDL",
                "ALTER TABLE \"SHOP\".\"ITEMS\" ADD (\"EXTRA\" VARCHAR2(20));",
                xid,
                ITEMS,
                null,
                null,
                false);
        add(RedoRow.COMMIT, "COMMIT", "commit;", xid, null, null, null, false);
        columns.add(extra);
        added.add(new LogMinerStandIn.AddedColumn(OWNER, ITEMS, columns.size(), extra));
        ended++;
    }

    private void add(
            int code,
            String operation,
            String sql,
            byte[] xid,
            String table,
            String rowId,
            String info,
            boolean sameScn) {
        add(code, operation, sql, xid, table, rowId, info, sameScn, false);
    }

    private void add(
            int code,
            String operation,
            String sql,
            byte[] xid,
            String table,
            String rowId,
            String info,
            boolean sameScn,
            boolean rollback) {
        if (!sameScn) {
            scn += 1 + (random.nextDouble() < options.gapRate() ? random.nextInt(500) : 0);
        }
        lastWasCommit = code == RedoRow.COMMIT;
        LocalDateTime timestamp = EPOCH.plusSeconds(scn / 10);
        int pieces =
                Math.max(1, (sql.length() + options.pieceLength() - 1) / options.pieceLength());
        for (int i = 0; i < pieces; i++) {
            block++;
            String piece =
                    sql.substring(
                            i * options.pieceLength(),
                            Math.min(sql.length(), (i + 1) * options.pieceLength()));
            rows.add(
                    new RedoRow(
                            scn,
                            code,
                            operation,
                            piece,
                            timestamp,
                            xid,
                            i < pieces - 1,
                            table == null ? null : OWNER,
                            table,
                            rowId == null ? "AAAAAAAAAAAAAAAAAA" : rowId,
                            rollback,
                            block,
                            1,
                            String.format(" 0x%06x.%08x.%04x ", 1 + block / 100_000, block, 16)));
        }
    }

    private String rowId(long id) {
        return rowIds.computeIfAbsent(id, key -> String.format("AAASs1AAE%09d", key));
    }

    /** Fresh values for a row, edge values among them. */
    private static String hex(byte[] xid) {
        return java.util.HexFormat.of().withUpperCase().formatHex(xid);
    }
}

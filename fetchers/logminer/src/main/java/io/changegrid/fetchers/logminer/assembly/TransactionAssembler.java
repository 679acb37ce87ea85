package io.changegrid.fetchers.logminer.assembly;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.fetchers.TransactionSink;
import io.changegrid.fetchers.logminer.failure.FetchFailedException;
import io.changegrid.fetchers.logminer.redo.RedoSyntaxException;
import io.changegrid.fetchers.logminer.redo.SqlRedoParser;
import io.changegrid.fetchers.logminer.schema.OracleCatalog;
import io.changegrid.fetchers.logminer.schema.OracleColumn;
import io.changegrid.policy.capture.CaptureRouter;
import io.changegrid.policy.capture.TableRoute;
import io.changegrid.policy.capture.TransactionWriter;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns {@code V$LOGMNR_CONTENTS} rows, window after window, into whole transactions on the
 * timeline.
 *
 * <ul>
 *   <li>{@code CSF = 1} rows are joined with the rows after them into one {@code SQL_REDO}.
 *   <li>START opens a transaction by XID; a DML row of a captured table appends to it; a row with
 *       {@code ROLLBACK = 1} undoes the transaction's latest row of the same {@code ROW_ID}
 *       (rollback to a savepoint); ROLLBACK discards the transaction; COMMIT publishes it whole.
 *       Rows of a transaction whose START was not read (it began before mining did) are skipped: on
 *       a fresh start such a transaction is not published (logged), after a restart it was already.
 *   <li>A DDL row of a captured table re-reads the table's definition at commit and publishes a
 *       schema change, alone in its transaction, as the binlog fetcher does.
 *   <li>Commits at one SCN are held until the SCN is complete (a window always holds whole SCNs),
 *       then ranked by ({@code THREAD#}, {@code RS_ID}, {@code SSN}) into {@link TimelineScn}s.
 *       Every COMMIT row counts, captured or not, so the rank is the same on every relay.
 *   <li>The resume position handed with each transaction restarts mining at the oldest open
 *       transaction's START and skips every commit at or below what was published.
 * </ul>
 *
 * <p>Threading: the fetcher's thread only, except the getters named so.
 */
public final class TransactionAssembler {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionAssembler.class);

    private static final Comparator<ContentsRow> COMMIT_ORDER =
            Comparator.comparingInt(ContentsRow::thread)
                    .thenComparing(row -> row.rsId() == null ? "" : row.rsId().trim())
                    .thenComparingLong(ContentsRow::ssn)
                    .thenComparing(ContentsRow::xid);

    /**
     * A COMMIT row waiting for its SCN to be complete; {@code transaction} null if not captured.
     */
    private record PendingCommit(ContentsRow row, OpenTransaction transaction) {}

    private final SchemaRegistry registry;
    private final CaptureRouter router;
    private final TableDefinitions definitions;
    private final TransactionSink sink;
    private final TransactionWriter writer;
    private final int maxTransactionBytes;
    private final long heartbeatAfterNanos;
    private final SqlRedoParser parser = new SqlRedoParser();
    private final Map<String, TableBinding> bindings = new HashMap<>();
    private final Map<String, OpenTransaction> open = new LinkedHashMap<>();
    private final List<PendingCommit> pending = new ArrayList<>();
    private final StringBuilder continued = new StringBuilder();
    private ContentsRow continuedFirst;
    private long pendingScn = -1;
    private long minedTo;
    private long lastPublishNanos = System.nanoTime();
    private volatile ResumePosition accepted;
    private volatile long publishedScn;

    /**
     * @param start where mining (re)starts and what was published before
     */
    public TransactionAssembler(
            int sourceId,
            CaptureRouter router,
            SchemaRegistry registry,
            TableDefinitions definitions,
            TransactionSink sink,
            int maxTransactionBytes,
            Duration heartbeatInterval,
            ResumePosition start) {
        this.registry = registry;
        this.router = router;
        this.definitions = definitions;
        this.sink = sink;
        this.writer = new TransactionWriter(sourceId, 64 * 1024);
        this.maxTransactionBytes = maxTransactionBytes;
        this.heartbeatAfterNanos = heartbeatInterval.toNanos();
        this.accepted = start;
        this.publishedScn = start.published();
        this.minedTo = start.restartScn() - 1;
    }

    /**
     * Binds a captured table's current definition: registers its schema and takes its route.
     *
     * @return the schema registered
     * @throws FetchFailedException naming the columns the fetcher cannot carry
     */
    public TableSchema bind(OracleCatalog.Definition definition) {
        if (!definition.refused().isEmpty()) {
            throw new FetchFailedException(
                    "captured table has columns of types the fetcher cannot carry: table="
                            + definition.name()
                            + ", columns="
                            + definition.refused()
                            + "; exclude the table (capture.exclude)");
        }
        List<String> key = definition.key();
        List<String> names = definition.columns().stream().map(OracleColumn::name).toList();
        if (!names.containsAll(key)) {
            key = List.of();
        }
        TableSchema schema =
                registry.register(
                        definition.name().owner(),
                        definition.name().table(),
                        definition.columns().stream().map(OracleColumn::column).toList(),
                        key);
        bindings.put(
                qualified(definition.name().owner(), definition.name().table()),
                new TableBinding(schema, definition.columns(), router.route(schema)));
        return schema;
    }

    /** The last SCN whose rows were all read: the next window starts after it. */
    public long minedTo() {
        return minedTo;
    }

    /** The position handed with the last transaction or heartbeat; any thread. */
    public ResumePosition accepted() {
        return accepted;
    }

    /** No transaction still to come has a timeline SCN below this one; any thread. */
    public long nextScn() {
        ResumePosition position = accepted;
        return Math.max(publishedScn + 1, TimelineScn.of(position.restartScn(), 0));
    }

    /** The schema versions published frames name; any thread. */
    public SchemaRegistry published() {
        return router.published();
    }

    /**
     * Forgets what was read since the last position handed to the sink, so mining can restart there
     * (after a lost connection): the open transactions are read again from their START.
     */
    public void rewind() {
        open.clear();
        pending.clear();
        continued.setLength(0);
        continuedFirst = null;
        pendingScn = -1;
        minedTo = accepted.restartScn() - 1;
    }

    /** One row of the window, in {@code V$LOGMNR_CONTENTS} order. */
    public void row(ContentsRow row) throws InterruptedException {
        if (row.csf()) {
            if (continuedFirst == null) {
                continuedFirst = row;
            }
            continued.append(row.sqlRedo());
            return;
        }
        if (continuedFirst != null) {
            continued.append(row.sqlRedo());
            row = continuedFirst.withSqlRedo(continued.toString());
            continued.setLength(0);
            continuedFirst = null;
        }
        if (row.scn() != pendingScn) {
            publishPending();
        }
        switch (row.operationCode()) {
            case OperationCode.START ->
                    open.putIfAbsent(row.xid(), new OpenTransaction(row.xid(), row.scn()));
            case OperationCode.INSERT, OperationCode.UPDATE, OperationCode.DELETE -> dml(row);
            case OperationCode.DDL -> ddl(row);
            case OperationCode.COMMIT -> {
                pendingScn = row.scn();
                pending.add(new PendingCommit(row, open.remove(row.xid())));
            }
            case OperationCode.ROLLBACK -> open.remove(row.xid());
            default -> refuse(row);
        }
    }

    /** The window's rows are all read, up to and including {@code scn}. */
    public void endOfWindow(long scn) throws InterruptedException {
        if (continuedFirst != null) {
            throw new FetchFailedException(
                    "window ended inside a CSF row: scn="
                            + continuedFirst.scn()
                            + ", xid="
                            + continuedFirst.xid()
                            + ", windowEnd="
                            + scn);
        }
        publishPending();
        minedTo = scn;
        if (System.nanoTime() - lastPublishNanos > heartbeatAfterNanos) {
            long heartbeat = TimelineScn.heartbeat(scn);
            if (heartbeat > publishedScn) {
                writer.heartbeat(heartbeat, System.currentTimeMillis() * 1_000L);
                ResumePosition position = new ResumePosition(restartScn(scn + 1), heartbeat);
                sink.accept(
                        heartbeat,
                        writer.frames(),
                        writer.length(),
                        0,
                        writer.commitTimeMicros(),
                        position.toString());
                accepted(position, heartbeat);
            }
        }
    }

    /** The number of transactions open now (read from START, not yet ended). */
    public int openTransactions() {
        return open.size();
    }

    private void dml(ContentsRow row) {
        TableBinding binding = bindings.get(qualified(row.owner(), row.table()));
        if (binding == null) {
            return; // not captured
        }
        OpenTransaction transaction = open.get(row.xid());
        if (transaction == null) {
            LOG.debug(
                    "row of a transaction begun before mining did, skipped: xid={}, scn={}",
                    row.xid(),
                    row.scn());
            return;
        }
        if (row.rollback()) {
            if (!transaction.undo(row.rowId())) {
                throw new FetchFailedException(
                        "ROLLBACK=1 row with no earlier row of its ROW_ID: xid="
                                + row.xid()
                                + ", scn="
                                + row.scn()
                                + ", rowId="
                                + row.rowId()
                                + ", table="
                                + binding.schema().qualifiedName());
            }
            return;
        }
        transaction.add(
                new OpenTransaction.Entry(
                        row.scn(), row.rowId(), row.sqlRedo(), binding, null, null));
    }

    private void ddl(ContentsRow row) {
        if (row.owner() == null
                || row.table() == null
                || !router.captures(row.owner(), row.table())) {
            return;
        }
        // Oracle runs DDL in a transaction of its own; one whose START came before mining did
        // opens here, so the table is still read again at its COMMIT.
        OpenTransaction transaction =
                open.computeIfAbsent(row.xid(), xid -> new OpenTransaction(xid, row.scn()));
        transaction.add(
                new OpenTransaction.Entry(
                        row.scn(),
                        row.rowId(),
                        row.sqlRedo(),
                        null,
                        qualified(row.owner(), row.table()),
                        null));
    }

    /**
     * A LOB operation or an unsupported one on a captured table: its transaction cannot be
     * published, and is refused at its commit naming the table (and, for a LOB, the column).
     */
    private void refuse(ContentsRow row) {
        if (row.owner() == null || !bindings.containsKey(qualified(row.owner(), row.table()))) {
            return;
        }
        OpenTransaction transaction = open.get(row.xid());
        if (transaction == null) {
            return; // begun before mining did, as dml() skips its rows
        }
        String table = qualified(row.owner(), row.table());
        String refusal;
        if (LobOperations.isLob(row.operationCode())) {
            if (row.operationCode() == OperationCode.SELECT_LOB_LOCATOR) {
                transaction.locatedLob(LobOperations.locatedColumn(row.sqlRedo()));
            }
            refusal = LobOperations.refusal(row.operationCode(), table, transaction.locatedLob());
        } else {
            refusal =
                    "LogMiner operation the fetcher cannot carry: operationCode="
                            + row.operationCode()
                            + ", table="
                            + table
                            + ", info="
                            + row.info();
        }
        transaction.add(
                new OpenTransaction.Entry(
                        row.scn(), row.rowId(), row.sqlRedo(), null, null, refusal));
    }

    private void publishPending() throws InterruptedException {
        if (pending.isEmpty()) {
            return;
        }
        pending.sort(Comparator.comparing(PendingCommit::row, COMMIT_ORDER));
        for (int ordinal = 0; ordinal < pending.size(); ordinal++) {
            PendingCommit commit = pending.get(ordinal);
            if (commit.transaction() == null) {
                continue;
            }
            long timelineScn = TimelineScn.of(commit.row().scn(), ordinal);
            if (timelineScn <= publishedScn) {
                continue; // published before a restart or a re-read window
            }
            publish(commit.transaction(), commit.row(), timelineScn, ordinal);
        }
        pending.clear();
        pendingScn = -1;
    }

    private void publish(
            OpenTransaction transaction, ContentsRow commit, long timelineScn, int publishing)
            throws InterruptedException {
        long commitMicros = commit.timestampMillis() * 1_000L;
        writer.open(timelineScn, commitMicros, transaction.xid());
        List<OpenTransaction.Entry> ddl = new ArrayList<>();
        boolean rows = false;
        for (OpenTransaction.Entry entry : transaction.entries()) {
            if (entry.refusal() != null) {
                throw new FetchFailedException(
                        entry.refusal() + ", xid=" + transaction.xid() + ", scn=" + entry.scn());
            }
            if (entry.ddlTable() != null) {
                ddl.add(entry);
                continue;
            }
            rows = true;
            appendRow(transaction, entry, timelineScn);
        }
        if (!ddl.isEmpty()) {
            if (rows) {
                throw new FetchFailedException(
                        "DDL and row changes in one transaction: xid="
                                + transaction.xid()
                                + ", scn="
                                + commit.scn());
            }
            applyDdl(ddl);
        }
        if (writer.hasEvents()) {
            writer.end();
            ResumePosition position =
                    new ResumePosition(restartScn(commit.scn(), publishing), timelineScn);
            sink.accept(
                    timelineScn,
                    writer.frames(),
                    writer.length(),
                    writer.events(),
                    writer.commitTimeMicros(),
                    position.toString());
            accepted(position, timelineScn);
        }
    }

    private void appendRow(
            OpenTransaction transaction, OpenTransaction.Entry entry, long timelineScn) {
        TableBinding binding = entry.binding();
        if (binding.route() == null) {
            return;
        }
        String where =
                "xid=" + transaction.xid() + ", scn=" + entry.scn() + ", rowId=" + entry.rowId();
        RowImages.Change change;
        try {
            change = RowImages.of(binding, parser.parse(entry.sqlRedo()), where);
        } catch (RedoSyntaxException e) {
            throw new FetchFailedException(
                    e.getMessage() + ", table=" + binding.schema().qualifiedName() + ", " + where,
                    e);
        }
        if (writer.appendRow(binding.route(), change.operation(), change.before(), change.after())
                && writer.length() > maxTransactionBytes) {
            throw new FetchFailedException(
                    "transaction larger than the relay can publish whole: scn="
                            + TimelineScn.sourceScn(timelineScn)
                            + ", xid="
                            + transaction.xid()
                            + ", bytesSoFar="
                            + writer.length()
                            + ", maxTransactionBytes="
                            + maxTransactionBytes
                            + "; raise the relay's buffer segment size");
        }
    }

    private void applyDdl(List<OpenTransaction.Entry> ddl) {
        for (OpenTransaction.Entry entry : ddl) {
            int dot = entry.ddlTable().indexOf('.');
            var name =
                    new OracleCatalog.TableName(
                            entry.ddlTable().substring(0, dot),
                            entry.ddlTable().substring(dot + 1));
            OracleCatalog.Definition definition;
            try {
                definition = definitions.read(name);
            } catch (SQLException e) {
                throw new FetchFailedException(
                        "cannot read a table's definition after its DDL: table="
                                + name
                                + ", scn="
                                + entry.scn()
                                + ", reason="
                                + e.getMessage(),
                        e);
            }
            if (definition.columns().isEmpty()) {
                bindings.remove(entry.ddlTable());
                LOG.info("captured table dropped: table={}, scn={}", name, entry.scn());
                continue;
            }
            Optional<TableSchema> before = registry.latest(name.owner(), name.table());
            TableSchema schema = bind(definition);
            if (before.isEmpty() || before.get().version() != schema.version()) {
                TableRoute changed = router.routeChanged(schema);
                if (changed != null) {
                    writer.appendSchemaChange(changed, entry.sqlRedo());
                }
            }
        }
    }

    private long restartScn(long otherwise) {
        return restartScn(otherwise, pending.size());
    }

    private long restartScn(long otherwise, int publishing) {
        long restart = otherwise;
        for (OpenTransaction transaction : open.values()) {
            restart = Math.min(restart, transaction.startScn());
        }
        // Commits held at this SCN and ranked after the one being published are out of the open
        // map but not published yet: a restart must read them from their START.
        for (int i = publishing + 1; i < pending.size(); i++) {
            OpenTransaction transaction = pending.get(i).transaction();
            if (transaction != null) {
                restart = Math.min(restart, transaction.startScn());
            }
        }
        return restart;
    }

    private void accepted(ResumePosition position, long timelineScn) {
        accepted = position;
        publishedScn = timelineScn;
        lastPublishNanos = System.nanoTime();
    }

    private static String qualified(String owner, String table) {
        return owner + "." + table;
    }
}

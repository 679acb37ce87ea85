package io.changegrid.fetchers.mysql;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import io.changegrid.events.Operation;
import io.changegrid.events.frame.RowImages;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.fetchers.TransactionSink;
import io.changegrid.policy.capture.CaptureRouter;
import io.changegrid.policy.capture.PolicyViolationException;
import io.changegrid.policy.capture.TableRoute;
import io.changegrid.policy.capture.TransactionWriter;
import java.io.IOException;
import java.io.Serializable;
import java.util.Arrays;
import java.util.BitSet;
import java.util.EnumSet;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the binlog's event stream into whole transactions of frames. Transactions are the unit: a
 * transaction is handed to the sink only once its commit (XID, or COMMIT for non-transactional
 * tables, or the end of a DDL statement) has been read, with all its events.
 *
 * <ul>
 *   <li>MariaDB opens a transaction with its GTID event (there is no BEGIN); MySQL with GTID and
 *       BEGIN, or BEGIN alone without GTIDs. The transaction's SCN comes from the {@link Timeline}:
 *       the position of that first event ({@link BinlogPosition#scn()}), or its GTID's sequence
 *       number ({@link GtidTimeline}); its GTID is the transaction id.
 *   <li>The position to resume from is kept here, at transaction boundaries only: the library's own
 *       position advances mid-transaction and must not be used.
 *   <li>A DDL statement is its own transaction: the {@link DdlApplier} updates the schemas, and a
 *       SCHEMA_CHANGE frame is published for each captured table it changed.
 *   <li>Rows of tables the relay's {@link CaptureRouter} does not capture are not decoded ({@link
 *       TableBindings} decides from each table map). The rows of the others take their table's
 *       {@link TableRoute} through the {@link TransactionWriter}: the policy's predicate, its
 *       transform, and this relay's partition; only what passes is encoded, with the route's output
 *       schema. A transaction with nothing published publishes nothing, but a heartbeat follows so
 *       consumers still see the timeline move.
 *   <li>Rows are read from the rows event's bytes in place ({@link RowTranscoder}): a route that
 *       passes everything has them written straight into frames; one with policies gets the values
 *       of the columns its predicate reads and its transform computes, and the other columns are
 *       written in place too (a per-row partitioner still takes whole images as values). The
 *       library decodes only what the transcoder does not know the size of.
 *   <li>Schema changes take the same route, so a renamed, masked or dropped column stays so after
 *       an ALTER; a change the policy cannot follow safely stops the fetcher ({@link
 *       PolicyViolationException}).
 * </ul>
 *
 * <p>Threading: runs on the binlog client's thread, or on the {@link FetchPipeline}'s encoder
 * thread that the client's thread hands events to in order. The library swallows exceptions thrown
 * by listeners, so every failure is caught here, kept in {@link #failure()} and ends the connection
 * through {@code onFailure}; the fetcher's control loop then hands it on.
 */
final class TransactionAssembler implements BinaryLogClient.EventListener {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionAssembler.class);

    private final CaptureRouter router;
    private final TransactionWriter writer;
    private final DdlApplier ddl;
    private final TransactionSink sink;
    private final PartCutter parts;
    private final long heartbeatAfterNanos;
    private final Runnable onFailure;
    private final Timeline timeline;
    private final TableBindings tables;
    private final EventHandling[] byType = handlingByType();

    /** Set once the server sent a heartbeat: it does so only when it has nothing more to send. */
    private volatile boolean sawServerHeartbeat;

    private String file;
    private BinlogPosition committed;

    /** The GTID of the last transaction before {@link #committed}, or empty. */
    private String committedGtid;

    /** The server {@link #committed} belongs to, or null when not known. */
    private SourceIdentity server;

    /**
     * Whether the next ROTATE sets {@link #committed} even to a file of the same name: after a
     * connection by GTID, possibly to another server, whose file names may be the same.
     */
    private boolean repositioned;

    private long lastPublishNanos = System.nanoTime();

    private boolean open;
    private BinlogPosition start;

    /** {@code start.scn()}, which parses the file name: kept per transaction, read per row. */
    private long startScn;

    private String transactionId;

    /** The open transaction for an error, built only when one is thrown. */
    private final Supplier<String> openTransaction =
            () -> "scn=" + startScn + ", position=" + start + ", gtid=" + transactionId;

    /**
     * Whether the open group ends with its DDL statement (no XID follows). MariaDB marks such
     * groups FL_STANDALONE; MySQL's DDL groups end with the statement unless it is a CREATE ...
     * SELECT, which MySQL logs as "CREATE TABLE ... START TRANSACTION" followed by rows and an XID.
     * MariaDB logs CREATE ... SELECT in ROW format as a plain CREATE TABLE, rows and an XID in a
     * group without FL_STANDALONE.
     */
    private boolean endsWithStatement = true;

    private volatile Throwable failure;

    TransactionAssembler(
            int sourceId,
            CaptureRouter router,
            DdlApplier ddl,
            TransactionSink sink,
            int maxTransactionBytes,
            long heartbeatAfterNanos,
            Timeline timeline,
            ResumePosition resumeFrom,
            Runnable onFailure) {
        this.router = router;
        this.ddl = ddl;
        this.tables = new TableBindings(router, ddl);
        this.writer = new TransactionWriter(sourceId, 64 * 1024);
        this.sink = sink;
        this.parts = new PartCutter(writer, sink, maxTransactionBytes);
        this.heartbeatAfterNanos = heartbeatAfterNanos;
        this.committed = resumeFrom.position();
        this.committedGtid = resumeFrom.gtid();
        this.server = resumeFrom.server();
        this.timeline = timeline;
        this.file = committed.file();
        this.onFailure = onFailure;
    }

    /** The schema versions the published frames name. */
    SchemaRegistry published() {
        return router.published();
    }

    /**
     * Whether the server ever sent a heartbeat, i.e. was seen at the end of its binlog; any thread.
     */
    boolean sawServerHeartbeat() {
        return sawServerHeartbeat;
    }

    /** Where the next transaction starts: the position to reconnect at. */
    BinlogPosition committed() {
        return committed;
    }

    /** {@link #committed()} with the GTID of the transaction before it: what the relay stores. */
    ResumePosition resumePosition() {
        return resumePosition(committed, committedGtid);
    }

    private ResumePosition resumePosition(BinlogPosition position, String gtid) {
        return new ResumePosition(
                position,
                gtid,
                timeline instanceof GtidTimeline gtidTimeline ? gtidTimeline : null,
                server);
    }

    /**
     * Called before each connection: the server it goes to. A connection by GTID starts with a
     * ROTATE naming that server's file, whose position becomes {@link #committed()}.
     */
    void connecting(SourceIdentity to, boolean byGtid) {
        server = to;
        repositioned = byGtid;
    }

    /** What stopped this assembler, or {@code null}. */
    Throwable failure() {
        return failure;
    }

    /**
     * Whether the rows of a binlog table id are of no use here: its latest table map named a table
     * that is not captured, or that no policy publishes. The binlog client's row deserializers ask
     * before reading a rows event's rows, on the client's thread, after this assembler saw the
     * table map: only when this assembler runs on that thread (without a {@link FetchPipeline}).
     */
    boolean skipsRowsOf(long binlogTableId) {
        return tables.unpublished(binlogTableId);
    }

    /** Drops a transaction left open by a broken connection; the next connection re-reads it. */
    void abandonOpenTransaction() {
        parts.abandon();
        open = false;
        writer.abandon();
        tables.forget();
    }

    @Override
    public void onEvent(Event event) {
        if (failure != null) {
            return;
        }
        try {
            handle(event);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail(e);
        } catch (RuntimeException | Error e) {
            fail(e);
        }
    }

    private void handle(Event event) throws InterruptedException {
        EventHeaderV4 header = event.getHeader();
        byType[header.getEventType().ordinal()].handle(header, event);
    }

    /**
     * What one event type does here, looked up in {@link #byType} rather than chosen by a switch.
     * C2 compiles the cases of a switch that its profile has not seen as traps: the first ROTATE
     * (the binlog's next file, seconds into a run) then threw away the compiled row path with the
     * switch (68 KB of code, every event type inlined) and left it on C1 for over a second while C2
     * compiled it again. Called through a table the call is megamorphic, so each type's code is
     * compiled on its own, and a type first seen late costs only its own compilation.
     */
    @FunctionalInterface
    private interface EventHandling {
        void handle(EventHeaderV4 header, Event event) throws InterruptedException;
    }

    private EventHandling[] handlingByType() {
        EventHandling[] byType = new EventHandling[EventType.values().length];
        // FORMAT_DESCRIPTION, ANNOTATE_ROWS, BINLOG_CHECKPOINT, GTID lists, ...: nothing to carry.
        Arrays.fill(byType, (EventHandling) (header, event) -> {});
        byType[EventType.ROTATE.ordinal()] = (header, event) -> rotate(event.getData());
        byType[EventType.MARIADB_GTID.ordinal()] =
                (header, event) -> beginMariaDb(header, event.getData());
        byType[EventType.GTID.ordinal()] = (header, event) -> beginMySql(header, event.getData());
        byType[EventType.QUERY.ordinal()] = (header, event) -> query(header, event.getData());
        byType[EventType.TABLE_MAP.ordinal()] =
                (header, event) -> tableMap(header, event.getData());
        EventHandling rows = (header, event) -> rows(header, event.getData());
        for (EventType type :
                EnumSet.of(
                        EventType.WRITE_ROWS,
                        EventType.EXT_WRITE_ROWS,
                        EventType.UPDATE_ROWS,
                        EventType.EXT_UPDATE_ROWS,
                        EventType.DELETE_ROWS,
                        EventType.EXT_DELETE_ROWS)) {
            byType[type.ordinal()] = rows;
        }
        byType[EventType.XID.ordinal()] = (header, event) -> commit(header);
        byType[EventType.HEARTBEAT.ordinal()] = (header, event) -> serverHeartbeat();
        byType[EventType.XA_PREPARE.ordinal()] =
                (header, event) -> {
                    throw new FetchFailedException(
                            "XA transactions are not supported: position=" + position(header));
                };
        return byType;
    }

    private void beginMariaDb(EventHeaderV4 header, MariadbGtidEventData gtid) {
        // The GTID's server id is the event header's; the event body does not carry it.
        begin(
                header,
                gtid.getDomainId() + "-" + header.getServerId() + "-" + gtid.getSequence(),
                header.getTimestamp() * 1_000L);
        endsWithStatement = (gtid.getFlags() & MariadbGtidEventData.FL_STANDALONE) != 0;
    }

    private void beginMySql(EventHeaderV4 header, GtidEventData gtid) {
        begin(
                header,
                gtid.getMySqlGtid().toString(),
                gtid.getOriginalCommitTimestamp() > 0
                        ? gtid.getOriginalCommitTimestamp()
                        : header.getTimestamp() * 1_000L);
    }

    private void serverHeartbeat() throws InterruptedException {
        sawServerHeartbeat = true;
        if (!open) {
            publishHeartbeat();
        }
    }

    private void rotate(RotateEventData rotate) {
        file = rotate.getBinlogFilename();
        if (!open && (repositioned || !file.equals(committed.file()))) {
            committed = new BinlogPosition(file, rotate.getBinlogPosition());
        }
        repositioned = false;
    }

    private void begin(EventHeaderV4 header, String gtid) {
        begin(header, gtid, header.getTimestamp() * 1_000L);
    }

    private void begin(EventHeaderV4 header, String gtid, long commitTimeMicros) {
        if (open) {
            throw new FetchFailedException(
                    "transaction started inside another: open="
                            + start
                            + ", new="
                            + position(header)
                            + ", gtid="
                            + gtid);
        }
        open = true;
        endsWithStatement = true;
        start = position(header);
        startScn = timeline.scn(start, gtid);
        if (timeline instanceof GtidTimeline) {
            long floor = timeline.next(resumePosition());
            if (startScn < floor) {
                throw new FetchFailedException(
                        "GTID sequence does not grow: gtid="
                                + gtid
                                + ", after="
                                + committedGtid
                                + ", position="
                                + start
                                + ", server="
                                + server
                                + "; a GTID timeline needs gtid_strict_mode on every server of the"
                                + " source's topology");
            }
        }
        transactionId = gtid;
        writer.open(startScn, commitTimeMicros, gtid.isEmpty() ? start.toString() : gtid);
    }

    private void query(EventHeaderV4 header, QueryEventData query) throws InterruptedException {
        String sql = query.getSql();
        if (sql.equalsIgnoreCase("BEGIN")) {
            if (!open) {
                begin(header, "");
            }
            return;
        }
        if (sql.equalsIgnoreCase("COMMIT") || sql.equalsIgnoreCase("ROLLBACK")) {
            // ROLLBACK reaches the binlog only for groups with non-transactional changes, which did
            // happen: what was logged before it is real.
            commit(header);
            return;
        }
        if (open && writer.hasEvents() && isSavepoint(sql)) {
            return;
        }
        if (!open) {
            begin(header, "");
        }
        ddl.apply(start, startScn, query.getDatabase(), sql, this::appendSchemaChange);
        tables.forget();
        if (endsWithStatement
                && !sql.stripTrailing()
                        .toUpperCase(java.util.Locale.ROOT)
                        .endsWith("START TRANSACTION")) {
            commit(header);
        }
    }

    private static boolean isSavepoint(String sql) {
        String head = sql.stripLeading().toUpperCase(java.util.Locale.ROOT);
        return head.startsWith("SAVEPOINT")
                || head.startsWith("ROLLBACK TO")
                || head.startsWith("RELEASE SAVEPOINT");
    }

    /** Publishes a schema change of a captured table in the open (DDL) transaction. */
    private void appendSchemaChange(TableSchema schema, String sql) {
        TableRoute route = router.routeChanged(schema);
        if (route != null) {
            writer.appendSchemaChange(route, sql);
        }
    }

    private void tableMap(EventHeaderV4 header, TableMapEventData map) {
        tables.tableMap(map, file, header.getPosition());
    }

    private void rows(EventHeaderV4 header, BinlogRows rows) throws InterruptedException {
        long binlogTableId = rows.tableId();
        if (tables.unpublished(binlogTableId)) {
            return;
        }
        TableBindings.Binding binding = tables.binding(binlogTableId);
        if (binding == null) {
            throw new FetchFailedException(
                    "rows without a table map: binlogTableId="
                            + binlogTableId
                            + ", position="
                            + position(header));
        }
        if (!open) {
            // Row events outside BEGIN/GTID: a non-transactional statement is its own transaction.
            begin(header, "");
        }
        Operation op = rows.operation();
        RowTranscoder inPlace = binding.inPlace();
        if (inPlace != null && inPlace.readsAll(rows)) {
            TableRoute route = binding.route().route;
            boolean unchanged = route.passesEverything();
            int at = 0;
            while (at < rows.length()) {
                boolean appended = true;
                try {
                    if (op != Operation.INSERT) {
                        at = inPlace.readBefore(rows, at);
                    }
                    if (op != Operation.DELETE) {
                        at = inPlace.readAfter(rows, at);
                    }
                    if (unchanged) {
                        // Straight from the binlog's bytes into the frame.
                        writer.appendRow(route, op, (RowImages) inPlace);
                    } else if (route.readsInPlace()) {
                        // Values only for what the policy reads or computes; the rest in place.
                        appended = writer.appendRow(route, op, inPlace);
                    } else {
                        appended =
                                writer.appendRow(
                                        route,
                                        op,
                                        op != Operation.INSERT ? inPlace.values(false) : null,
                                        op != Operation.DELETE ? inPlace.values(true) : null);
                    }
                } catch (IllegalArgumentException e) {
                    throw RowRefusal.of(
                            route.output().qualifiedName(),
                            e,
                            startScn,
                            position(header),
                            transactionId);
                }
                if (appended) {
                    requireFits();
                }
            }
            return;
        }
        try {
            ByteArrayInputStream in = CellReader.stream(rows);
            while (in.available() > 0) {
                Serializable[] before =
                        op != Operation.INSERT
                                ? tables.cells().row(binlogTableId, rows.beforeColumns(), in)
                                : null;
                Serializable[] after =
                        op != Operation.DELETE
                                ? tables.cells().row(binlogTableId, rows.afterColumns(), in)
                                : null;
                rowChange(
                        header,
                        binding.route(),
                        op,
                        before,
                        after,
                        rows.afterColumns(),
                        rows.beforeColumns());
            }
        } catch (IOException e) {
            throw new FetchFailedException(
                    "binlog rows could not be read: table="
                            + binding.route().converter.schema().qualifiedName()
                            + ", position="
                            + position(header)
                            + ", reason="
                            + e.getMessage(),
                    e);
        }
    }

    private void rowChange(
            EventHeaderV4 header,
            TableBindings.Route route,
            Operation op,
            Serializable[] beforeCells,
            Serializable[] afterCells,
            BitSet afterColumns,
            BitSet beforeColumns)
            throws InterruptedException {
        RowConverter converter = route.converter;
        Object[] before;
        Object[] after;
        try {
            before = beforeCells == null ? null : converter.convert(beforeCells, beforeColumns);
            after = afterCells == null ? null : converter.convert(afterCells, afterColumns);
        } catch (IllegalArgumentException e) {
            throw RowRefusal.of(null, e, startScn, position(header), transactionId);
        }
        boolean appended;
        try {
            appended = writer.appendRow(route.route, op, before, after);
        } catch (IllegalArgumentException e) {
            String table = route.route.output().qualifiedName();
            throw RowRefusal.of(table, e, startScn, position(header), transactionId);
        }
        if (appended) {
            requireFits();
        }
    }

    /** Hands a part of a large transaction over once it reached its size. */
    private void requireFits() throws InterruptedException {
        parts.afterEvent(openTransaction);
    }

    private void commit(EventHeaderV4 header) throws InterruptedException {
        BinlogPosition next = new BinlogPosition(file, header.getNextPosition());
        boolean published = writer.hasEvents();
        String gtid = transactionId.isEmpty() ? committedGtid : transactionId;
        if (published) {
            writer.end();
            sink.accept(
                    startScn,
                    writer.frames(),
                    writer.length(),
                    writer.events(),
                    writer.commitTimeMicros(),
                    resumePosition(next, gtid).toString());
        }
        committed = next;
        committedGtid = gtid;
        open = false;
        if (published) {
            lastPublishNanos = System.nanoTime();
        } else if (System.nanoTime() - lastPublishNanos > heartbeatAfterNanos) {
            publishHeartbeat();
        }
    }

    /**
     * A heartbeat sits just before the next transaction's SCN: above every SCN published so far and
     * below any transaction still to come, so a consumer checkpointing it misses nothing.
     */
    private void publishHeartbeat() throws InterruptedException {
        long scn = timeline.next(resumePosition()) - 1;
        writer.heartbeat(scn, System.currentTimeMillis() * 1_000L);
        sink.accept(
                scn,
                writer.frames(),
                writer.length(),
                0,
                writer.commitTimeMicros(),
                resumePosition().toString());
        lastPublishNanos = System.nanoTime();
    }

    private BinlogPosition position(EventHeaderV4 header) {
        return new BinlogPosition(file, header.getPosition());
    }

    private void fail(Throwable e) {
        failure = e;
        LOG.error("binlog fetch failed, disconnecting: position={}", committed, e);
        onFailure.run();
    }
}

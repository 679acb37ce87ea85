package io.changegrid.fetchers.goldengate;

import io.changegrid.events.Operation;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.fetchers.TransactionSink;
import io.changegrid.policy.capture.CaptureRouter;
import io.changegrid.policy.capture.TableRoute;
import io.changegrid.policy.capture.TransactionWriter;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Turns the File Writer's lines into whole transactions of frames on the relay's timeline.
 *
 * <ul>
 *   <li>A transaction's SCN is the trail position of its first operation; positions must rise
 *       strictly from one record to the next, or the fetcher stops naming both.
 *   <li>Boundaries: with a transaction indicator metacolumn, a transaction ends at its record
 *       marked end (2) or whole (3). Without, it ends where the XID token changes, or when its file
 *       is finalized with no file after it yet (GoldenGate's roll says the data so far is
 *       complete); a transaction is never handed over before its end is known.
 *   <li>The resume position is the last handed-over operation's {@code pos} with the file and
 *       offset of the next line to read, so a restart reads on exactly from there.
 *   <li>Rows take their table's {@link TableRoute} through the {@link TransactionWriter}, as every
 *       fetcher's do. A table's key is its records' {@code primary_keys}: a key other than the
 *       declared one makes a new schema version before the table's first row; a change after rows
 *       were published stops the fetcher.
 * </ul>
 *
 * <p>Threading: the fetcher's thread only, except the getters named so.
 */
final class GoldenGateTransactionAssembler implements TrailReader.Handler {

    private final GoldenGateFetcherConfig config;
    private final SchemaRegistry registry;
    private final CaptureRouter router;
    private final TransactionWriter writer;
    private final TransactionSink sink;
    private final OperationParser parser;
    private final XmlOperationRecords xml;
    private final OperationRecord record = new OperationRecord();
    private final Map<String, TableBinding> bindings = new HashMap<>();
    private final OperationParser.TableResolver resolver = this::binding;
    private final long heartbeatAfterNanos;
    private volatile ResumePoint committed;
    private long lastScn;
    private long lastPublishNanos = System.nanoTime();

    // The open transaction.
    private boolean open;
    private long firstScn;
    private long lastOpScn;
    private String xid;
    private String closedAtRollXid;

    /**
     * @param resume the position resumed from, or null when starting at the earliest file
     */
    GoldenGateTransactionAssembler(
            GoldenGateFetcherConfig config,
            SchemaRegistry registry,
            TransactionSink sink,
            ResumePoint resume) {
        this.config = config;
        this.registry = registry;
        this.router = new CaptureRouter(config.capture(), config.plan(), registry);
        this.writer = new TransactionWriter(config.sourceId(), 64 * 1024);
        this.sink = sink;
        this.parser =
                new OperationParser(
                        config.xidToken(), config.csnToken(), config.transactionIndicator());
        this.xml = new XmlOperationRecords(config.xidToken(), config.csnToken());
        this.heartbeatAfterNanos = config.heartbeatInterval().toNanos();
        this.committed = resume;
        this.lastScn = resume == null ? 0 : resume.lastScn();
    }

    /** The schema versions the published frames name; any thread. */
    SchemaRegistry published() {
        return router.published();
    }

    /** Where to resume, or null before the first transaction; any thread. */
    ResumePoint committed() {
        return committed;
    }

    /** No transaction still to come has an SCN below this one; any thread. */
    long committedScn() {
        ResumePoint point = committed;
        return (point == null ? 0 : point.lastScn()) + 1;
    }

    String committedText() {
        ResumePoint point = committed;
        return point == null ? "" : point.toString();
    }

    @Override
    public void line(FileTail tail) throws InterruptedException {
        if (config.format() == TrailFormat.XML) {
            xmlTransaction(tail);
            return;
        }
        try {
            parser.parse(tail.buffer(), tail.lineStart(), tail.lineLength(), resolver, record);
        } catch (IllegalArgumentException | IOException e) {
            throw failure(tail, e.getMessage(), e);
        }
        if (record.scn <= lastScn) {
            throw failure(
                    tail,
                    "trail position does not advance: pos="
                            + TrailPosition.text(record.scn)
                            + ", previous="
                            + TrailPosition.text(lastScn),
                    null);
        }
        if (config.hasTransactionIndicator()) {
            byIndicator(tail);
        } else {
            byXid(tail);
        }
        lastScn = record.scn;
    }

    private void byIndicator(FileTail tail) throws InterruptedException {
        int indicator = record.txind;
        if (indicator < 0) {
            throw failure(
                    tail,
                    "record without the transaction indicator: field="
                            + config.transactionIndicator(),
                    null);
        }
        boolean begins = indicator == 0 || indicator == 3;
        if (begins == open) {
            throw failure(
                    tail,
                    open
                            ? "transaction begins inside another: open at pos="
                                    + TrailPosition.text(firstScn)
                            : "transaction continues without its beginning: txind=" + indicator,
                    null);
        }
        if (begins) {
            begin(tail);
        }
        apply(tail);
        if (indicator == 2 || indicator == 3) {
            publish(new ResumePoint(record.scn, tail.file().firstScn(), tail.nextOffset()));
        }
    }

    private void byXid(FileTail tail) throws InterruptedException {
        if (record.xid == null) {
            throw failure(
                    tail,
                    "record without the transaction id token: token="
                            + config.xidToken()
                            + "; add it in the Extract's TOKENS or set source.transactionIndicator",
                    null);
        }
        if (open && !record.xid.equals(xid)) {
            publish(new ResumePoint(lastOpScn, tail.file().firstScn(), tail.lineOffset()));
        }
        if (!open) {
            if (record.xid.equals(closedAtRollXid)) {
                throw failure(
                        tail,
                        "transaction continues after the file roll that closed it: xid="
                                + xid
                                + "; set source.transactionIndicator (the txind metacolumn)",
                        null);
            }
            begin(tail);
        }
        closedAtRollXid = null;
        apply(tail);
    }

    /**
     * One {@code <transaction>} element: a whole transaction, at SCN {@code file sequence << 32 |
     * the element's byte offset}, published at once.
     */
    private void xmlTransaction(FileTail tail) throws InterruptedException {
        XmlTransactionParser.XmlTransaction transaction;
        try {
            transaction = xml.parse(tail);
        } catch (IllegalArgumentException e) {
            throw failure(tail, e.getMessage(), e);
        }
        if (tail.lineOffset() >= 1L << 32) {
            throw failure(tail, "XML trail file larger than 4 GiB", null);
        }
        long scn = tail.file().firstScn() | tail.lineOffset();
        if (scn <= lastScn) {
            throw failure(
                    tail,
                    "trail position does not advance: pos="
                            + TrailPosition.text(scn)
                            + ", previous="
                            + TrailPosition.text(lastScn),
                    null);
        }
        XmlOperationRecords.begin(transaction, scn, record);
        begin(tail);
        for (XmlTransactionParser.XmlOperation operation : transaction.operations()) {
            try {
                XmlOperationRecords.operation(operation, binding(operation.table()), record);
            } catch (IllegalArgumentException e) {
                throw failure(tail, e.getMessage(), e);
            }
            apply(tail);
        }
        lastScn = scn;
        publish(new ResumePoint(scn, tail.file().firstScn(), tail.nextOffset()));
    }

    @Override
    public void rolled(TrailFile file, long endOffset, boolean nextExists)
            throws InterruptedException {
        if (!config.hasTransactionIndicator() && open && !nextExists) {
            closedAtRollXid = xid;
            publish(new ResumePoint(lastOpScn, file.firstScn(), endOffset));
        }
    }

    /** Nothing new to read: an idle source still advances the timeline. */
    void idle() throws InterruptedException {
        if (!open && System.nanoTime() - lastPublishNanos > heartbeatAfterNanos) {
            long scn = committedScn();
            writer.heartbeat(scn, System.currentTimeMillis() * 1_000L);
            sink.accept(
                    scn,
                    writer.frames(),
                    writer.length(),
                    0,
                    writer.commitTimeMicros(),
                    committedText());
            lastPublishNanos = System.nanoTime();
        }
    }

    private void begin(FileTail tail) {
        if (record.opTs == null) {
            throw failure(tail, "record without op_ts", null);
        }
        long commitMicros;
        try {
            commitMicros = JsonCells.epochMicros(record.opTs);
        } catch (RuntimeException e) {
            throw failure(tail, "op_ts is not a timestamp: op_ts=" + record.opTs, e);
        }
        open = true;
        firstScn = record.scn;
        xid = record.xid;
        String id =
                record.xid == null
                        ? "pos:" + TrailPosition.text(record.scn)
                        : record.csn == null ? record.xid : record.csn + ":" + record.xid;
        writer.open(firstScn, commitMicros, id);
    }

    private void apply(FileTail tail) {
        lastOpScn = record.scn;
        TableBinding binding = record.binding;
        if (!binding.captured()) {
            return;
        }
        if (record.opType == 'T') {
            throw failure(
                    tail,
                    "TRUNCATE of a captured table cannot be carried on the timeline: table="
                            + record.table
                            + "; restart the relay past it and bootstrap its consumers, or exclude the"
                            + " table",
                    null);
        }
        binding = keyed(tail, binding);
        if (binding.route == null) {
            return; // a policy or partition leaves the table to other relays
        }
        Operation op;
        Object[] before = null;
        Object[] after = null;
        switch (record.opType) {
            case 'I' -> {
                op = Operation.INSERT;
                after = whole(tail, binding, false, "insert");
            }
            case 'U' -> {
                op = Operation.UPDATE;
                before = whole(tail, binding, true, "update");
                after = binding.after;
                if (!record.hasAfter) {
                    throw failure(tail, "update without an after image", null);
                }
                for (int i = 0; i < after.length; i++) {
                    if (!binding.afterPresent[i]) {
                        after[i] = before[i]; // a compressed update leaves unchanged columns out
                    }
                }
            }
            case 'D' -> {
                op = Operation.DELETE;
                before = whole(tail, binding, true, "delete");
            }
            default ->
                    throw new IllegalStateException(
                            "op_type checked by the parser: " + record.opType);
        }
        if (writer.appendRow(binding.route, op, before, after)) {
            binding.published = true;
            if (writer.length() > config.maxTransactionBytes()) {
                throw failure(
                        tail,
                        "transaction larger than the relay can publish whole: pos="
                                + TrailPosition.text(firstScn)
                                + ", bytesSoFar="
                                + writer.length()
                                + ", maxTransactionBytes="
                                + config.maxTransactionBytes()
                                + "; raise the relay's buffer segment size",
                        null);
            }
        }
    }

    /** An image with every column, or the fetcher stops naming the first missing one. */
    private Object[] whole(FileTail tail, TableBinding binding, boolean before, String what) {
        boolean has = before ? record.hasBefore : record.hasAfter;
        if (!has) {
            throw failure(
                    tail,
                    what
                            + " without its "
                            + (before ? "before" : "after")
                            + " image: table="
                            + record.table
                            + (before
                                    ? "; the Extract needs GETUPDATEBEFORES and NOCOMPRESSDELETES"
                                    : ""),
                    null);
        }
        boolean[] present = before ? binding.beforePresent : binding.afterPresent;
        for (int i = 0; i < present.length; i++) {
            if (!present[i]) {
                throw failure(
                        tail,
                        (before ? "before" : "after")
                                + " image of a "
                                + what
                                + " without a column: table="
                                + record.table
                                + ", column="
                                + binding.schema.column(i).name()
                                + (before
                                        ? "; the source needs full supplemental logging (ADD TRANDATA ..."
                                                + " ALLCOLS) and the Extract NOCOMPRESSUPDATES"
                                        : ""),
                        null);
            }
        }
        return before ? binding.before : binding.after;
    }

    /** The binding whose key is the record's {@code primary_keys}. */
    private TableBinding keyed(FileTail tail, TableBinding binding) {
        if (!record.hasPrimaryKeys || record.primaryKeys.equals(binding.schema.keyColumns())) {
            return binding;
        }
        if (binding.published) {
            throw failure(
                    tail,
                    "primary key of a table changed: table="
                            + record.table
                            + ", was="
                            + binding.schema.keyColumns()
                            + ", now="
                            + record.primaryKeys,
                    null);
        }
        TableSchema schema;
        try {
            schema =
                    registry.register(
                            binding.schema.database(),
                            binding.schema.table(),
                            binding.schema.columns(),
                            record.primaryKeys);
        } catch (IllegalArgumentException e) {
            throw failure(tail, "primary_keys do not fit the table's schema: " + e.getMessage(), e);
        }
        TableBinding keyed = new TableBinding(schema, router.route(schema));
        // The images were read into the old binding's arrays: same columns, so copy them over.
        System.arraycopy(binding.before, 0, keyed.before, 0, keyed.before.length);
        System.arraycopy(binding.after, 0, keyed.after, 0, keyed.after.length);
        System.arraycopy(binding.beforePresent, 0, keyed.beforePresent, 0, keyed.before.length);
        System.arraycopy(binding.afterPresent, 0, keyed.afterPresent, 0, keyed.after.length);
        bindings.put(record.table, keyed);
        return keyed;
    }

    private TableBinding binding(String qualifiedName) {
        TableBinding binding = bindings.get(qualifiedName);
        if (binding != null) {
            return binding;
        }
        String[] name = TableDefinition.splitName(qualifiedName);
        if (!router.captures(name[0], name[1])) {
            binding = TableBinding.UNCAPTURED;
        } else {
            TableSchema schema =
                    registry.latest(name[0], name[1])
                            .orElseThrow(
                                    () ->
                                            new IllegalArgumentException(
                                                    "captured table with no known schema: table="
                                                            + qualifiedName
                                                            + "; give it a schema file in source.schemaDirectory"
                                                            + " or an entry in source.tables"));
            binding = new TableBinding(schema, router.route(schema));
        }
        bindings.put(qualifiedName, binding);
        return binding;
    }

    private void publish(ResumePoint after) throws InterruptedException {
        if (writer.hasEvents()) {
            writer.end();
            sink.accept(
                    firstScn,
                    writer.frames(),
                    writer.length(),
                    writer.events(),
                    writer.commitTimeMicros(),
                    after.toString());
            lastPublishNanos = System.nanoTime();
        } else {
            writer.abandon();
        }
        committed = after;
        open = false;
    }

    private FetchFailedException failure(FileTail tail, String problem, Throwable cause) {
        writer.abandon();
        open = false;
        return new FetchFailedException(
                problem
                        + ": file="
                        + tail.path()
                        + ", offset="
                        + tail.lineOffset()
                        + ", lastPublished="
                        + Objects.toString(committed, "none"),
                cause);
    }
}

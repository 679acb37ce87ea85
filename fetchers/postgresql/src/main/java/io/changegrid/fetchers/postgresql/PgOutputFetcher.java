package io.changegrid.fetchers.postgresql;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.fetchers.FetchPosition;
import io.changegrid.fetchers.Fetcher;
import io.changegrid.fetchers.TransactionSink;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.postgresql.PGConnection;
import org.postgresql.replication.LogSequenceNumber;
import org.postgresql.replication.PGReplicationStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one PostgreSQL database's changes from a pgoutput logical replication slot (protocol 1, the
 * configured publication) and hands whole transactions to a sink: the control loop of a PostgreSQL
 * fetcher.
 *
 * <p>The slot's confirmed-flush position advances only to the relay's durable replay point ({@link
 * TransactionSink#durablePosition()}), so the server keeps every transaction a restarted relay
 * would read again. A lost connection is retried with exponential backoff from the last complete
 * transaction; what retrying cannot fix stops {@link #run} with a {@link FetchFailedException}.
 *
 * <p>Threading: {@link #run} blocks the calling thread (the relay's fetcher thread), which reads,
 * decodes, assembles and hands to the sink; {@link #stop} and the getters may be called from any
 * thread.
 */
public final class PgOutputFetcher implements Fetcher {

    private static final Logger LOG = LoggerFactory.getLogger(PgOutputFetcher.class);
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(100);

    /** How long an idle read waits before asking again; pgjdbc's own blocking read polls alike. */
    private static final long IDLE_WAIT_MILLIS = 10;

    private final PostgresFetcherConfig config;
    private final SchemaRegistry registry;
    private final PgTransactionAssembler assembler;
    private final PgOutputDecoder decoder = new PgOutputDecoder();
    private final TransactionSink sink;
    private final PgCatalog catalog;
    private final PgSchemaHistory history;
    private final SourceEndProbe sourceEnd;
    private volatile boolean stopped;
    private long flushed;

    private PgOutputFetcher(
            PostgresFetcherConfig config,
            SchemaRegistry registry,
            PgCatalog catalog,
            PgSchemaHistory history,
            TransactionSink sink,
            Lsn start) {
        this.config = config;
        this.registry = registry;
        this.catalog = catalog;
        this.history = history;
        this.sink = sink;
        this.assembler =
                new PgTransactionAssembler(config, registry, catalog, history, sink, start);
        this.sourceEnd = new SourceEndProbe(config);
    }

    /**
     * Checks the source, creates the publication and slot if missing, restores the schema versions
     * of the history up to {@code resumePosition} (or, starting afresh, begins a new history),
     * registers the captured tables it does not know yet (read in a new slot's exported snapshot,
     * so exactly as at its consistent point, else from the catalog before an existing slot is
     * positioned; in name order, so table ids are the same on every relay started on the same
     * catalog) and positions the fetcher at {@code resumePosition} or where the settings say.
     *
     * @param stateDirectory where the schema history lives, with the relay's other state
     * @throws FetchFailedException naming every problem
     */
    static PgOutputFetcher open(
            PostgresFetcherConfig config,
            Path stateDirectory,
            String resumePosition,
            TransactionSink sink)
            throws SQLException, IOException {
        return open(config, stateDirectory, resumePosition, sink, () -> {});
    }

    /**
     * What runs after a new slot is created and before the catalog is read in its snapshot: nothing
     * in a relay; tests change a table there to prove the start schemas are the snapshot's.
     */
    @FunctionalInterface
    interface SlotCreatedHook {
        void run() throws SQLException;
    }

    /** {@link #open(PostgresFetcherConfig, Path, String, TransactionSink)} with a test's hook. */
    static PgOutputFetcher open(
            PostgresFetcherConfig config,
            Path stateDirectory,
            String resumePosition,
            TransactionSink sink,
            SlotCreatedHook slotCreated)
            throws SQLException, IOException {
        Connection connection =
                DriverManager.getConnection(config.jdbcUrl(), config.properties(false));
        PgCatalog catalog = new PgCatalog(connection);
        PgSchemaHistory history = null;
        try {
            // The current catalog: for the checks, the publication, and the start schemas of an
            // existing slot (read before it is advanced, so a change in between is one schema
            // change forward on the timeline, never a step back).
            StartTables current = StartTables.readNow(catalog, config.capture());
            if (SourceChecks.run(connection, config, current.columns())) {
                String create =
                        SourceChecks.createStatement(
                                config.publication(), current.columns().keySet());
                try (var statement = connection.createStatement()) {
                    statement.execute(create);
                }
                LOG.info("publication created: {}", create);
            }
            StartTables[] tables = {current};
            Lsn start =
                    ReplicationSlot.position(
                            connection,
                            config,
                            resumePosition,
                            snapshot -> {
                                // A new slot: version 1 of each table is exactly the shape at the
                                // slot's consistent point, the shape of the first rows it sends.
                                slotCreated.run();
                                StartTables atSlot =
                                        StartTables.readAtSnapshot(
                                                catalog, config.capture(), snapshot);
                                SourceChecks.checkTables(config, atSlot.columns());
                                tables[0] = atSlot;
                            });
            StartTables startTables = tables[0];
            long startScn = start.value() - 1;
            SchemaRegistry registry = new SchemaRegistry();
            Path historyFile = stateDirectory.resolve(PgSchemaHistory.FILE);
            if (resumePosition != null && Files.exists(historyFile)) {
                history = PgSchemaHistory.load(historyFile, startScn, registry);
            } else {
                if (resumePosition != null) {
                    LOG.warn(
                            "no schema history to resume with: file={}; the catalog's current"
                                    + " tables become the first versions",
                            historyFile);
                }
                // No saved position: whatever history an earlier, never-published run left is
                // stale.
                Files.deleteIfExists(historyFile);
            }
            List<TableSchema> added = new ArrayList<>();
            for (var entry : startTables.columns().entrySet()) {
                PgCatalog.Table table = entry.getKey();
                if (registry.latest(table.schema(), table.name()).isPresent()) {
                    continue; // the history's version: the Relation message tells what changed
                }
                added.add(
                        registry.register(
                                table.schema(),
                                table.name(),
                                entry.getValue().stream()
                                        .map(PgCatalog.TypedColumn::column)
                                        .toList(),
                                startTables.keys().get(table)));
            }
            if (history == null) {
                history = PgSchemaHistory.create(historyFile, startScn, added);
            } else {
                for (TableSchema schema : added) {
                    history.append(startScn, schema);
                }
            }
            LOG.info(
                    "postgresql fetcher positioned: slot={}, publication={}, start={}, tables={},"
                            + " schemaVersions={}",
                    config.slot(),
                    config.publication(),
                    start,
                    startTables.columns().size(),
                    registry.allVersions().size());
            return new PgOutputFetcher(config, registry, catalog, history, sink, start);
        } catch (SQLException | IOException | RuntimeException e) {
            if (history != null) {
                history.close();
            }
            connection.close();
            throw e;
        }
    }

    @Override
    public void run() throws InterruptedException {
        Duration backoff = FIRST_BACKOFF;
        try {
            while (!stopped) {
                Lsn from = assembler.committed();
                long startedNanos = System.nanoTime();
                try {
                    stream(from);
                } catch (SQLException e) {
                    if (stopped) {
                        break;
                    }
                    assembler.abandonOpenTransaction();
                    if (System.nanoTime() - startedNanos > TimeUnit.SECONDS.toNanos(10)) {
                        backoff = FIRST_BACKOFF; // the connection had worked: back off afresh
                    }
                    LOG.warn(
                            "replication connection lost, reconnecting: position={}, in={}ms, cause={}",
                            assembler.committed(),
                            backoff.toMillis(),
                            e.toString());
                    Thread.sleep(backoff.toMillis());
                    backoff = min(backoff.multipliedBy(2), config.reconnectBackoffMax());
                }
            }
        } finally {
            sourceEnd.close();
            closeCatalog();
            closeHistory();
            LOG.info("postgresql fetcher stopped: position={}", assembler.committed());
        }
    }

    private void stream(Lsn from) throws SQLException, InterruptedException {
        LOG.info(
                "starting replication: host={}, port={}, slot={}, position={}",
                config.host(),
                config.port(),
                config.slot(),
                from);
        try (Connection connection =
                        DriverManager.getConnection(config.jdbcUrl(), config.properties(true));
                PGReplicationStream stream =
                        connection
                                .unwrap(PGConnection.class)
                                .getReplicationAPI()
                                .replicationStream()
                                .logical()
                                .withSlotName(config.slot())
                                .withSlotOption("proto_version", 1)
                                .withSlotOption("publication_names", config.publication())
                                .withStartPosition(LogSequenceNumber.valueOf(from.value()))
                                .withStatusInterval(
                                        (int) config.statusInterval().toMillis(),
                                        TimeUnit.MILLISECONDS)
                                // pgjdbc would otherwise confirm a keepalive's position itself
                                // once everything received is confirmed: past the relay's
                                // durable point, which a restarted relay then finds released.
                                .withAutomaticFlush(false)
                                .start()) {
            while (!stopped) {
                ByteBuffer message = stream.readPending();
                if (message == null) {
                    // A keepalive's position: everything before it is sent, so an idle source
                    // (or one writing only what is not captured) still moves the resume point.
                    assembler.idle(stream.getLastReceiveLSN().asLong());
                    confirmDurable(stream);
                    TimeUnit.MILLISECONDS.sleep(IDLE_WAIT_MILLIS);
                    continue;
                }
                decoder.decode(message, assembler);
            }
            confirmDurable(stream);
            stream.forceUpdateStatus();
        }
    }

    /** Lets the server release WAL before the relay's durable replay point, and no further. */
    private void confirmDurable(PGReplicationStream stream) {
        String durable = sink.durablePosition();
        if (durable == null) {
            return;
        }
        long lsn = Lsn.parse(durable).value();
        if (lsn > flushed) {
            stream.setFlushedLSN(LogSequenceNumber.valueOf(lsn));
            stream.setAppliedLSN(LogSequenceNumber.valueOf(lsn));
            flushed = lsn;
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) > 0 ? b : a;
    }

    private void closeCatalog() {
        try {
            catalog.close();
        } catch (SQLException e) {
            LOG.debug("closing the catalog connection failed; it is being dropped anyway", e);
        }
    }

    private void closeHistory() {
        try {
            history.close();
        } catch (IOException e) {
            LOG.debug("closing the schema history failed; every append was forced already", e);
        }
    }

    @Override
    public void stop() {
        stopped = true;
    }

    @Override
    public FetchPosition position() {
        return new FetchPosition(assembler.committedScn(), assembler.committed().toString());
    }

    @Override
    public long lagScn() {
        long end = sourceEnd.currentLsn();
        return end < 0 ? -1 : Math.max(0, end - assembler.committed().value());
    }

    @Override
    public SchemaRegistry sourceSchemas() {
        return registry;
    }

    @Override
    public SchemaRegistry publishedSchemas() {
        return assembler.published();
    }
}

package io.changegrid.fetchers.mysql;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.network.ServerException;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.fetchers.FetchPosition;
import io.changegrid.fetchers.Fetcher;
import io.changegrid.fetchers.SourceUnavailableException;
import io.changegrid.fetchers.TransactionSink;
import io.changegrid.fetchers.mysql.schema.SchemaHistory;
import io.changegrid.fetchers.mysql.schema.SchemaTracker;
import io.changegrid.policy.capture.CaptureRouter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one MySQL/MariaDB server's binlog and hands whole transactions to a sink, for as long as it
 * runs: the control loop of a binlog fetcher.
 *
 * <p>Connection loss is retried with exponential backoff, resuming at the last complete
 * transaction. What retrying cannot fix stops {@link #run} with a {@link FetchFailedException} (or
 * {@link TransactionTooLargeException}) that says what happened and what to do: a binlog position
 * the server no longer holds (error 1236), refused credentials, DDL the schema tracker cannot
 * understand on a captured table.
 *
 * <p>Threading: {@link #run} blocks the calling thread (the relay's fetcher thread); the binlog is
 * read on that thread, and transactions are assembled and handed to the sink either on it too or,
 * with {@link BinlogFetcherConfig#pipeline()}, on a second thread per connection that it hands the
 * events to in order ({@link FetchPipeline}). {@link #stop} may be called from any thread.
 */
public final class BinlogFetcher implements Fetcher {

    private static final Logger LOG = LoggerFactory.getLogger(BinlogFetcher.class);
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(100);

    /** The schema history's file name in the state directory. */
    public static final String HISTORY_FILE = "schema-history.jsonl";

    private final BinlogFetcherConfig config;
    private final SchemaTracker tracker;
    private final SourceEndProbe sourceEnd;
    private final TransactionAssembler assembler;
    private final Timeline timeline;
    private volatile boolean stopped;
    private volatile BinaryLogClient client;
    private volatile Throwable connectionFailure;

    /** The current connection's pipeline, or null without one. */
    private volatile FetchPipeline pipeline;

    /**
     * The first end of the binlog seen since opening, as an SCN, or -1; see {@link #reachedEnd}.
     */
    private volatile long endSeen = -1;

    private volatile boolean reachedEnd;

    private BinlogFetcher(
            BinlogFetcherConfig config,
            SchemaTracker tracker,
            SchemaHistory history,
            Timeline timeline,
            ResumePosition start,
            TransactionSink sink) {
        this.config = config;
        this.timeline = timeline;
        this.tracker = tracker;
        this.sourceEnd = new SourceEndProbe(config, TimeUnit.SECONDS.toNanos(1));
        this.assembler =
                new TransactionAssembler(
                        config.sourceId(),
                        new CaptureRouter(config.capture(), config.plan(), tracker.registry()),
                        new DdlApplier(
                                tracker,
                                history,
                                config.capture(),
                                config.ddlSkip(),
                                new SourceSchemas(config)::read),
                        sink,
                        config.maxTransactionBytes(),
                        config.heartbeatInterval().toNanos(),
                        timeline,
                        start,
                        this::onAssemblerFailure);
    }

    /**
     * Prepares a fetcher: checks the source, then either resumes at {@code resumePosition} with the
     * schemas of the history as of that position, or (no saved position) takes a consistent schema
     * snapshot at the configured start and begins a new history.
     *
     * @param stateDirectory where the schema history lives (with the relay's other state)
     * @param resumePosition a position a sink was given earlier, or null to start afresh
     * @throws FetchFailedException if the source cannot be captured, naming every problem
     * @throws SourceUnavailableException if the server cannot be reached now ({@link SourceReach})
     */
    public static BinlogFetcher open(
            BinlogFetcherConfig config,
            Path stateDirectory,
            String resumePosition,
            TransactionSink sink)
            throws SQLException, IOException, SourceUnavailableException {
        Files.createDirectories(stateDirectory);
        Path historyFile = stateDirectory.resolve(HISTORY_FILE);
        try (Connection connection = SourceReach.connect(config)) {
            SourceChecks.run(connection, config.serverId());
            CascadingForeignKeys.warn(connection, config.capture());
            SourceIdentity server = SourceIdentity.read(connection);
            if (config.resume() == ResumeMode.GTID && !server.isMariaDb()) {
                throw new FetchFailedException(
                        "source.resume: gtid needs a MariaDB source; on MySQL a relay resumes by"
                                + " position: server="
                                + server
                                + ", address="
                                + address(config));
            }
            if (resumePosition != null) {
                ResumePosition start =
                        ServerChange.atStart(
                                config.resume(),
                                ResumePosition.parse(resumePosition),
                                server,
                                address(config));
                Timeline timeline = timelineOf(start);
                // The history as of the last transaction processed: a DDL starting right at the
                // resume position is read (and applied) again.
                long scn = timeline.next(start);
                SchemaHistory.Loaded loaded = SchemaHistory.load(historyFile, scn - 1);
                LOG.info(
                        "resuming at saved position: position={}, scn={}, timeline={}",
                        start,
                        scn,
                        timeline.identity());
                return new BinlogFetcher(
                        config, loaded.tracker(), loaded.history(), timeline, start, sink);
            }
            StartSnapshot snapshot = StartSnapshot.take(connection, config.start());
            ResumePosition start =
                    config.resume() == ResumeMode.GTID
                            ? GtidStart.at(connection, snapshot.position(), server)
                            : new ResumePosition(snapshot.position(), "", null, server);
            Timeline timeline = timelineOf(start);
            SchemaTracker tracker =
                    SchemaTracker.fromSnapshot(snapshot.snapshot(), new SchemaRegistry());
            // No saved position: whatever history an earlier, never-published run left is stale.
            // The snapshot is the state after every transaction before the start position, so it
            // is recorded at the SCN just below it, as loads are addressed.
            Files.deleteIfExists(historyFile);
            SchemaHistory history =
                    SchemaHistory.create(historyFile, timeline.next(start) - 1, tracker);
            LOG.info(
                    "starting a new timeline: position={}, timeline={}",
                    start,
                    timeline.identity());
            return new BinlogFetcher(config, tracker, history, timeline, start, sink);
        }
    }

    /** The timeline a resume position is on: its GTID timeline, or its server's positions. */
    private static Timeline timelineOf(ResumePosition start) {
        return start.timeline() != null
                ? start.timeline()
                : new Timeline.OfPosition(start.server());
    }

    private static String address(BinlogFetcherConfig config) {
        return config.host() + ":" + config.port();
    }

    /**
     * Reads until {@link #stop} or a fatal error.
     *
     * @throws FetchFailedException or TransactionTooLargeException for what retrying cannot fix
     * @throws InterruptedException if the thread is interrupted while waiting to reconnect
     */
    @Override
    public void run() throws InterruptedException {
        Duration backoff = FIRST_BACKOFF;
        while (!stopped) {
            BinlogPosition position = assembler.committed();
            BinaryLogClient connection;
            try {
                connection = connectionAt(assembler.resumePosition());
            } catch (SQLException e) {
                if (e.getErrorCode() == 1045 || e.getErrorCode() == 1044) {
                    throw new FetchFailedException(
                            "source refused the fetcher's user: user="
                                    + config.user()
                                    + ", server says: "
                                    + e.getMessage(),
                            e);
                }
                connection = null;
                connectionFailure = e;
            }
            if (connection == null) {
                backoff = waitToReconnect(backoff);
                continue;
            }
            FetchPipeline pipeline =
                    config.pipeline()
                            ? FetchPipeline.start(assembler, this::disconnectCurrent)
                            : null;
            this.pipeline = pipeline;
            connection.registerEventListener(pipeline == null ? assembler : pipeline);
            connection.registerLifecycleListener(
                    new BinaryLogClient.AbstractLifecycleListener() {
                        @Override
                        public void onCommunicationFailure(BinaryLogClient c, Exception e) {
                            connectionFailure = e;
                        }

                        @Override
                        public void onEventDeserializationFailure(BinaryLogClient c, Exception e) {
                            connectionFailure =
                                    new FetchFailedException(
                                            "binlog event could not be read: position after="
                                                    + assembler.committed()
                                                    + ", reason="
                                                    + e.getMessage(),
                                            e);
                            disconnect(c);
                        }
                    });
            client = connection;
            connectionFailure = null;
            long startedNanos = System.nanoTime();
            LOG.info(
                    "connecting to binlog: host={}, port={}, position={}",
                    config.host(),
                    config.port(),
                    position);
            try {
                connection.connect();
            } catch (IOException e) {
                connectionFailure = e;
            } finally {
                if (pipeline != null) {
                    // Every event read is handled before the position and failures are read.
                    pipeline.finish();
                }
            }
            if (pipeline != null && pipeline.failure() != null) {
                // What stopped the pipeline ended the connection: it is the cause, not the
                // closed socket the client saw after it.
                connectionFailure = pipeline.failure();
            }
            throwIfFatal(position);
            if (stopped) {
                break;
            }
            assembler.abandonOpenTransaction();
            if (System.nanoTime() - startedNanos > TimeUnit.SECONDS.toNanos(10)) {
                backoff = FIRST_BACKOFF; // the connection had worked: start backing off afresh
            }
            backoff = waitToReconnect(backoff);
        }
        sourceEnd.close();
        LOG.info("binlog fetcher stopped: position={}", assembler.committed());
    }

    /**
     * A client for the server behind the source's address now, positioned after {@code at}: by GTID
     * with {@code source.resume: gtid} (by position while nothing was read yet on the same server),
     * else by file and offset on the same server only ({@link ServerChange}).
     */
    private BinaryLogClient connectionAt(ResumePosition at) throws SQLException {
        SourceIdentity found;
        try (Connection jdbc = config.connect()) {
            found = SourceIdentity.read(jdbc);
        }
        ServerChange.check(config.resume(), at, found, address(config));
        boolean byGtid =
                config.resume() == ResumeMode.GTID
                        && !(at.gtid().isEmpty() && found.equals(at.server()));
        assembler.connecting(found, byGtid);
        return config.pipeline()
                ? BinlogClientFactory.create(
                        config,
                        at,
                        byGtid,
                        tableMaps -> new UnreadTables(tableMaps, config.capture(), config.plan()),
                        new RowBuffers(FetchPipeline.ROW_BUFFERS))
                : BinlogClientFactory.create(
                        config,
                        at,
                        byGtid,
                        tableMaps -> assembler::skipsRowsOf,
                        RowBuffers.single());
    }

    /** Logs the lost connection, waits {@code backoff}, and returns the next backoff. */
    private Duration waitToReconnect(Duration backoff) throws InterruptedException {
        LOG.warn(
                "binlog connection lost, reconnecting: position={}, in={}ms, cause={}",
                assembler.resumePosition(),
                backoff.toMillis(),
                String.valueOf(connectionFailure));
        Thread.sleep(backoff.toMillis());
        return backoff.multipliedBy(2).compareTo(config.reconnectBackoffMax()) > 0
                ? config.reconnectBackoffMax()
                : backoff.multipliedBy(2);
    }

    /** Stops reading; {@link #run} returns once the connection is closed. */
    @Override
    public void stop() {
        stopped = true;
        disconnectCurrent();
    }

    /**
     * Ends the connection after the assembler failed: at once on the client's thread, or through
     * the pipeline when the assembler runs on its encoder thread ({@link
     * FetchPipeline#requestDisconnect}).
     */
    private void onAssemblerFailure() {
        FetchPipeline current = pipeline;
        if (current != null) {
            current.requestDisconnect();
        } else {
            disconnectCurrent();
        }
    }

    private void disconnectCurrent() {
        BinaryLogClient current = client;
        if (current != null) {
            disconnect(current);
        }
    }

    /**
     * The source's schema versions, as the fetcher tracks them from its DDL. Safe to read from any
     * thread.
     */
    @Override
    public SchemaRegistry sourceSchemas() {
        return tracker.registry();
    }

    /**
     * The schema versions the published frames name: the source's without policies, else the
     * policies' output schemas (same table ids and versions, transformed columns and names).
     * Decoders (JSON serving, {@code /v1/schemas}, tests) look them up here. Safe to read from any
     * thread.
     */
    @Override
    public SchemaRegistry publishedSchemas() {
        return assembler.published();
    }

    /**
     * How far the source's binlog is ahead of this fetcher, in SCN units (bytes of binlog within a
     * file; a file boundary counts as 2^32), or -1 when the source cannot be asked right now.
     */
    @Override
    public long lagScn() {
        return sourceEnd
                .end()
                .map(end -> Math.max(0, end.scn() - assembler.committed().scn()))
                .orElse(-1L);
    }

    /**
     * True once the fetcher has read up to an end of the binlog seen since it was opened ({@code
     * SHOW MASTER STATUS}, asked at most once a second), or the server sent a heartbeat, which it
     * does only while it has nothing more to send. The end kept is the first one seen, not the
     * latest: under a steady load the fetcher trails the latest end by a transaction or two, but
     * passes any fixed one.
     */
    @Override
    public boolean reachedEnd() {
        if (reachedEnd) {
            return true;
        }
        long committed = assembler.committed().scn();
        long end = endSeen;
        if (end < 0) {
            end = sourceEnd.end().map(BinlogPosition::scn).orElse(-1L);
            endSeen = end;
        }
        if (assembler.sawServerHeartbeat() || (end >= 0 && committed >= end)) {
            reachedEnd = true;
        }
        return reachedEnd;
    }

    /**
     * Where the next transaction starts, i.e. how far this fetcher has read completely: its SCN and
     * its {@link ResumePosition} text, which {@link #open} takes back as {@code resumePosition}.
     */
    @Override
    public FetchPosition position() {
        ResumePosition resume = assembler.resumePosition();
        return new FetchPosition(timeline.next(resume), resume.toString());
    }

    /**
     * The identity of the timeline this fetcher's SCNs are on: {@code mariadb-gtid:domain=<d>} with
     * {@code source.resume: gtid}, else {@code binlog:<server>} ({@link SourceIdentity}).
     */
    @Override
    public String timeline() {
        return timeline.identity();
    }

    private void throwIfFatal(BinlogPosition position) {
        Throwable failure = assembler.failure();
        if (failure == null) {
            failure = connectionFailure;
        }
        if (failure == null) {
            return;
        }
        if (failure instanceof FetchFailedException fatal) {
            throw fatal;
        }
        if (failure instanceof TransactionTooLargeException tooLarge) {
            throw tooLarge;
        }
        if (failure instanceof InterruptedException) {
            stopped = true;
            return;
        }
        if (failure instanceof ServerException server) {
            switch (server.getErrorCode()) {
                case 1236 ->
                        throw new FetchFailedException(
                                (config.resume() == ResumeMode.GTID
                                                ? "the server does not hold the transactions after"
                                                        + " the relay's GTID (purged, or a server"
                                                        + " that was not a replica with"
                                                        + " log_slave_updates): position="
                                                : "binlog position is no longer on the server"
                                                        + " (purged?): position=")
                                        + assembler.resumePosition()
                                        + ", server says: "
                                        + server.getMessage()
                                        + "; the relay cannot continue without a gap — restart it from a held"
                                        + " position (start: current or earliest, after clearing its state)"
                                        + " and bootstrap its consumers",
                                server);
                case 1045, 1044, 1227, 1142 ->
                        throw new FetchFailedException(
                                "source refused the fetcher's user: user="
                                        + config.user()
                                        + ", server says: "
                                        + server.getMessage(),
                                server);
                default -> {
                    // Other server errors (shutdown, kill): reconnect.
                }
            }
        }
        if (!(failure instanceof IOException) && !(failure instanceof ServerException)) {
            throw new FetchFailedException(
                    "binlog fetch failed: position=" + position + ", cause=" + failure, failure);
        }
    }

    private static void disconnect(BinaryLogClient connection) {
        try {
            connection.disconnect();
        } catch (IOException e) {
            LOG.debug("closing the binlog connection failed; it is being dropped anyway", e);
        }
    }
}

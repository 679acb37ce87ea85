package io.changegrid.fetchers.logminer;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.fetchers.FetchPosition;
import io.changegrid.fetchers.Fetcher;
import io.changegrid.fetchers.TransactionSink;
import io.changegrid.fetchers.logminer.assembly.ResumePosition;
import io.changegrid.fetchers.logminer.assembly.TransactionAssembler;
import io.changegrid.fetchers.logminer.failure.FetchFailedException;
import io.changegrid.fetchers.logminer.mining.ContentsQuery;
import io.changegrid.fetchers.logminer.mining.MiningStatements;
import io.changegrid.fetchers.logminer.mining.RedoFlush;
import io.changegrid.fetchers.logminer.mining.SourceChecks;
import io.changegrid.fetchers.logminer.schema.OracleCatalog;
import io.changegrid.policy.capture.CaptureRouter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mines an Oracle database with LogMiner, window after window, and hands whole transactions to a
 * sink: the control loop of a LogMiner fetcher.
 *
 * <p>Each turn reads the current SCN, has the redo up to it written out ({@link RedoFlush}), mines
 * {@code (last mined, min(current, last + window max)]} in one LogMiner session (started and ended
 * through the {@link MiningStatements} seam) with one {@code V$LOGMNR_CONTENTS} query ({@link
 * ContentsQuery}), and feeds the rows to the {@link TransactionAssembler}. A lost connection is
 * retried with exponential backoff from the last position handed to the sink; what retrying cannot
 * fix stops {@link #run} with a {@link FetchFailedException}.
 *
 * <p>Threading: {@link #run} blocks the calling thread (the relay's fetcher thread), which mines,
 * parses, assembles and hands to the sink; {@link #stop} and the getters may be called from any
 * thread.
 */
public final class LogMinerFetcher implements Fetcher {

    private static final Logger LOG = LoggerFactory.getLogger(LogMinerFetcher.class);
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(100);

    private final LogMinerFetcherConfig config;
    private final MiningStatements statements;
    private final SchemaRegistry registry;
    private final TransactionAssembler assembler;
    private final ContentsQuery query;

    /** The mining connection, replaced after a failure; the catalog reads DDL'd tables on it. */
    private final AtomicReference<Connection> connection;

    private volatile boolean stopped;
    private volatile long currentScn = -1;
    private volatile long minedTo;

    private LogMinerFetcher(
            LogMinerFetcherConfig config,
            MiningStatements statements,
            AtomicReference<Connection> connection,
            SchemaRegistry registry,
            TransactionAssembler assembler,
            ContentsQuery query) {
        this.config = config;
        this.statements = statements;
        this.connection = connection;
        this.registry = registry;
        this.assembler = assembler;
        this.query = query;
        this.minedTo = assembler.minedTo();
    }

    /**
     * Connects, checks the source, registers the captured tables' schemas (in owner and name order,
     * so table ids are the same on every relay) and positions the fetcher at {@code resumePosition}
     * or where the settings say.
     *
     * @throws FetchFailedException naming every problem
     */
    public static LogMinerFetcher open(
            LogMinerFetcherConfig config, String resumePosition, TransactionSink sink)
            throws SQLException {
        MiningStatements statements = config.statements();
        Connection connection = DriverManager.getConnection(config.url(), config.properties());
        try {
            statements.prepareSession(connection);
            OracleCatalog catalog = new OracleCatalog(connection);
            AtomicReference<Connection> current = new AtomicReference<>(connection);
            List<OracleCatalog.TableName> tables = catalog.capturedTables(config.capture());
            if (tables.isEmpty()) {
                throw new FetchFailedException(
                        "no table of the source matches the capture: capture="
                                + config.capture()
                                + "; names are Oracle's, upper case unless created quoted (SHOP.ORDERS)");
            }
            SourceChecks.run(connection, tables);
            ResumePosition start =
                    resumePosition != null
                            ? ResumePosition.parse(resumePosition)
                            : new ResumePosition(
                                    config.start().equals("current")
                                            ? statements.currentScn(connection) + 1
                                            : Long.parseLong(config.start()),
                                    -1);
            SchemaRegistry registry = new SchemaRegistry();
            CaptureRouter router = new CaptureRouter(config.capture(), config.plan(), registry);
            TransactionAssembler assembler =
                    new TransactionAssembler(
                            config.sourceId(),
                            router,
                            registry,
                            // the connection of the moment: a reconnect replaces it
                            name -> new OracleCatalog(current.get()).definition(name),
                            sink,
                            config.maxTransactionBytes(),
                            config.heartbeatInterval(),
                            start);
            for (var table : tables) {
                assembler.bind(catalog.definition(table));
            }
            List<String> owners =
                    tables.stream().map(OracleCatalog.TableName::owner).distinct().toList();
            LOG.info(
                    "logminer fetcher positioned: dialect={}, start={}, tables={}, owners={}",
                    config.dialect(),
                    start,
                    tables.size(),
                    owners);
            return new LogMinerFetcher(
                    config, statements, current, registry, assembler, new ContentsQuery(owners));
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    @Override
    public void run() throws InterruptedException {
        Duration backoff = FIRST_BACKOFF;
        try {
            while (!stopped) {
                try {
                    if (connection.get() == null) {
                        Connection fresh =
                                DriverManager.getConnection(config.url(), config.properties());
                        connection.set(fresh);
                        statements.prepareSession(fresh);
                    }
                    if (!mineOneWindow()) {
                        TimeUnit.MILLISECONDS.sleep(config.pollInterval().toMillis());
                    }
                    backoff = FIRST_BACKOFF;
                } catch (SQLException e) {
                    if (stopped) {
                        break;
                    }
                    closeConnection();
                    assembler.rewind();
                    minedTo = assembler.minedTo();
                    LOG.warn(
                            "mining failed, reconnecting: position={}, in={}ms, cause={}",
                            assembler.accepted(),
                            backoff.toMillis(),
                            e.toString());
                    TimeUnit.MILLISECONDS.sleep(backoff.toMillis());
                    backoff = min(backoff.multipliedBy(2), config.reconnectBackoffMax());
                }
            }
        } finally {
            closeConnection();
            LOG.info("logminer fetcher stopped: position={}", assembler.accepted());
        }
    }

    /**
     * Mines the next window, if the database moved on.
     *
     * @return whether there was a window to mine
     */
    private boolean mineOneWindow() throws SQLException, InterruptedException {
        Connection connection = this.connection.get();
        long current = statements.currentScn(connection);
        currentScn = current;
        long lo = assembler.minedTo();
        if (current <= lo) {
            assembler.endOfWindow(lo); // heartbeats only: nothing was read
            return false;
        }
        // Never past the redo written out: rows still in the log buffer would be missed for good.
        long flushed = RedoFlush.flush(connection, current);
        long hi = Math.min(flushed, lo + config.windowMaxScns());
        statements.startSession(connection, lo + 1, hi);
        try {
            query.read(connection, lo, hi, config.fetchSize(), assembler::row);
        } finally {
            statements.endSession(connection);
        }
        assembler.endOfWindow(hi);
        minedTo = hi;
        return true;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) > 0 ? b : a;
    }

    private void closeConnection() {
        Connection closing = connection.getAndSet(null);
        if (closing == null) {
            return;
        }
        try {
            closing.close();
        } catch (SQLException e) {
            LOG.debug("closing the mining connection failed; it is being dropped anyway", e);
        }
    }

    @Override
    public void stop() {
        stopped = true;
    }

    @Override
    public FetchPosition position() {
        return new FetchPosition(assembler.nextScn(), assembler.accepted().toString());
    }

    /** In Oracle SCNs: how far the database's current SCN is past the last window mined. */
    @Override
    public long lagScn() {
        long current = currentScn;
        return current < 0 ? -1 : Math.max(0, current - minedTo);
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

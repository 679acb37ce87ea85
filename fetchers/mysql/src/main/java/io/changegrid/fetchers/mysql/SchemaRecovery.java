package io.changegrid.fetchers.mysql;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code relay recover-schema} for a MySQL/MariaDB source: finds the DDL statement a relay stopped
 * at, by reading the binlog from the relay's replay point as a restart would (publishing nothing),
 * and records its digest in the state directory ({@link SkippedStatements}). The restarted relay
 * then passes the statement and reads the tables it names from the source's information_schema,
 * into the schema history at that statement's position, as {@code source.ddlSkip} does.
 *
 * <p>Runs while the relay is stopped: it connects as a replica with the relay's server id.
 */
final class SchemaRecovery {

    private static final Logger LOG = LoggerFactory.getLogger(SchemaRecovery.class);
    private static final long POLL_MILLIS = 100;

    private SchemaRecovery() {}

    /**
     * @param resumePosition the relay's replay point, or null if it never published
     * @return what was found and done, for the operator
     */
    static String run(BinlogFetcherConfig config, Path stateDirectory, String resumePosition)
            throws Exception {
        if (resumePosition == null) {
            return "the relay never published: it starts from a schema snapshot of the source, so"
                    + " there is no schema to recover";
        }
        BinlogFetcher fetcher =
                BinlogFetcher.open(
                        config,
                        stateDirectory,
                        resumePosition,
                        (scn, frames, length, events, commitTime, position) -> {});
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread reader =
                new Thread(
                        () -> {
                            try {
                                fetcher.run();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            } catch (RuntimeException | Error e) {
                                failure.set(e);
                            }
                        },
                        "recover-schema");
        LOG.info("reading the binlog from the replay point: position={}", resumePosition);
        reader.start();
        try {
            // The statement lies before the source's end, so the reader stops on it before it
            // can catch up; caught up without stopping means there is nothing to recover.
            while (reader.isAlive() && failure.get() == null && fetcher.lagScn() != 0) {
                reader.join(POLL_MILLIS);
            }
        } finally {
            fetcher.stop();
            reader.join(TimeUnit.SECONDS.toMillis(10));
        }
        Throwable stop = failure.get();
        if (stop instanceof UnreadableDdlException unreadable) {
            SkippedStatements.add(stateDirectory, unreadable.digest());
            return "recorded for skipping in "
                    + stateDirectory.resolve(SkippedStatements.FILE)
                    + ": digest="
                    + unreadable.digest()
                    + "; start the relay: it passes the statement and reads the schemas of the"
                    + " tables it names from the source. The statement: "
                    + unreadable.getMessage();
        }
        if (stop != null) {
            throw new FetchFailedException(
                    "the binlog could not be read from the replay point: position="
                            + resumePosition
                            + ", error="
                            + stop.getMessage(),
                    stop);
        }
        return "no DDL the relay cannot read between its replay point and the source's end:"
                + " position="
                + fetcher.position().resumePosition()
                + "; nothing recorded";
    }
}

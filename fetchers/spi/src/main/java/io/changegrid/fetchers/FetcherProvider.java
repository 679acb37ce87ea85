package io.changegrid.fetchers;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigKey;
import java.util.List;

/**
 * Makes the fetchers of one kind of source; found with {@link java.util.ServiceLoader} by the
 * relay's {@code source.type} setting ({@link FetcherProviders}). A fetcher module registers its
 * provider in {@code META-INF/services/io.changegrid.fetchers.FetcherProvider}.
 *
 * <p>Each provider owns its settings under {@code source.*}, defined once as data: the relay
 * validates them with its own, reports every problem at once, and documents them from these
 * definitions. A key the chosen type does not define is reported as unknown.
 */
public interface FetcherProvider {

    /** The {@code source.type} value that chooses this provider, e.g. {@code mysql}. */
    String type();

    /** This source's settings, every path under {@code source.}, in documentation order. */
    List<ConfigKey<?>> settings();

    /** The source in a few words for logs and status, e.g. {@code db1:3306}; no secrets. */
    String describe(Config settings);

    /**
     * Prepares a fetcher: checks the source, then positions it at {@link
     * FetcherContext#resumePosition()} or, without one, where its settings say to start.
     *
     * @param sink where the fetcher hands whole transactions, on its {@link Fetcher#run} thread
     * @throws SourceUnavailableException if the source cannot be reached now (refused, unknown
     *     host, starting or shutting down): the relay waits and calls again
     * @throws Exception if the source cannot be captured, naming every problem
     */
    Fetcher open(FetcherContext context, TransactionSink sink) throws Exception;

    /**
     * {@code relay recover-schema}: lets a relay stopped by a schema change its fetcher cannot
     * follow continue, with the schemas of the tables concerned read from the source. Runs while
     * the relay is stopped.
     *
     * @param context as for {@link #open}, with the relay's saved resume position
     * @return what was found and done, for the operator
     * @throws UnsupportedOperationException if this kind of source has nothing to recover
     * @throws Exception if the source cannot be read
     */
    default String recoverSchema(FetcherContext context) throws Exception {
        throw new UnsupportedOperationException(
                "source type has no schema to recover: source.type=" + type());
    }

    /**
     * Opens a reader of the source's tables for snapshots (docs/bootstrap.md): its own JDBC
     * connection, read-only. The relay opens it when a consumer first asks for a snapshot.
     *
     * @param context as for {@link #open}
     * @throws UnsupportedOperationException if this kind of source offers no snapshots
     * @throws Exception if the source cannot be reached
     */
    default SnapshotReader openSnapshotReader(FetcherContext context) throws Exception {
        throw new UnsupportedOperationException(
                "source type offers no snapshots: source.type=" + type());
    }
}

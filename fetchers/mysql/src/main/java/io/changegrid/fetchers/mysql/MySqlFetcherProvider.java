package io.changegrid.fetchers.mysql;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigKey;
import io.changegrid.fetchers.Fetcher;
import io.changegrid.fetchers.FetcherContext;
import io.changegrid.fetchers.FetcherProvider;
import io.changegrid.fetchers.SnapshotReader;
import io.changegrid.fetchers.TransactionSink;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Opens {@link BinlogFetcher}s for {@code source.type: mysql} (MySQL and MariaDB), the relay's
 * default; registered in {@code META-INF/services}.
 */
public final class MySqlFetcherProvider implements FetcherProvider {

    /** The {@code source.type} of MySQL and MariaDB sources. */
    public static final String TYPE = "mysql";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public List<ConfigKey<?>> settings() {
        return MySqlSettings.KEYS;
    }

    @Override
    public String describe(Config settings) {
        return settings.get(MySqlSettings.HOST) + ":" + settings.get(MySqlSettings.PORT);
    }

    @Override
    public Fetcher open(FetcherContext context, TransactionSink sink) throws Exception {
        return BinlogFetcher.open(
                config(context), context.stateDirectory(), context.resumePosition(), sink);
    }

    @Override
    public String recoverSchema(FetcherContext context) throws Exception {
        return SchemaRecovery.run(
                config(context), context.stateDirectory(), context.resumePosition());
    }

    @Override
    public SnapshotReader openSnapshotReader(FetcherContext context) {
        return new BinlogSnapshotReader(config(context));
    }

    /**
     * The fetcher's configuration from the relay's settings and what the relay decides; the
     * statements to skip are those of {@code source.ddlSkip} and those {@code recover-schema}
     * recorded in the state directory.
     */
    static BinlogFetcherConfig config(FetcherContext context) {
        Config settings = context.settings();
        return new BinlogFetcherConfig(
                settings.get(MySqlSettings.HOST),
                settings.get(MySqlSettings.PORT),
                settings.get(MySqlSettings.USER),
                settings.get(MySqlSettings.PASSWORD),
                settings.get(MySqlSettings.SERVER_ID),
                context.sourceId(),
                context.capture(),
                context.plan(),
                StartPosition.parse(settings.get(MySqlSettings.START)),
                settings.get(MySqlSettings.HEARTBEAT),
                settings.get(MySqlSettings.CONNECT_TIMEOUT),
                settings.get(MySqlSettings.BACKOFF_MAX),
                context.maxTransactionBytes(),
                skipped(settings, context.stateDirectory()),
                MySqlSettings.TLS.from(settings),
                ResumeMode.parse(settings.get(MySqlSettings.RESUME)),
                settings.get(MySqlSettings.FETCH_PIPELINE));
    }

    private static Set<String> skipped(Config settings, Path stateDirectory) {
        Set<String> digests = new LinkedHashSet<>(settings.get(MySqlSettings.DDL_SKIP));
        digests.addAll(SkippedStatements.load(stateDirectory));
        return digests;
    }
}

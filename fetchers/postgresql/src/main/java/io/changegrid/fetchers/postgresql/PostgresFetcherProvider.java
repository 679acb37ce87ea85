package io.changegrid.fetchers.postgresql;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigKey;
import io.changegrid.fetchers.Fetcher;
import io.changegrid.fetchers.FetcherContext;
import io.changegrid.fetchers.FetcherProvider;
import io.changegrid.fetchers.SnapshotReader;
import io.changegrid.fetchers.TransactionSink;
import java.util.List;

/**
 * Opens {@link PgOutputFetcher}s for {@code source.type: postgresql}; registered in {@code
 * META-INF/services}.
 */
public final class PostgresFetcherProvider implements FetcherProvider {

    /** The {@code source.type} of PostgreSQL sources. */
    public static final String TYPE = "postgresql";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public List<ConfigKey<?>> settings() {
        return PostgresSettings.KEYS;
    }

    @Override
    public String describe(Config settings) {
        return settings.get(PostgresSettings.HOST)
                + ":"
                + settings.get(PostgresSettings.PORT)
                + "/"
                + settings.get(PostgresSettings.DATABASE)
                + " slot="
                + settings.get(PostgresSettings.SLOT);
    }

    @Override
    public Fetcher open(FetcherContext context, TransactionSink sink) throws Exception {
        return PgOutputFetcher.open(
                config(context), context.stateDirectory(), context.resumePosition(), sink);
    }

    @Override
    public SnapshotReader openSnapshotReader(FetcherContext context) {
        return new PgSnapshotReader(config(context));
    }

    static PostgresFetcherConfig config(FetcherContext context) {
        Config settings = context.settings();
        return new PostgresFetcherConfig(
                settings.get(PostgresSettings.HOST),
                settings.get(PostgresSettings.PORT),
                settings.get(PostgresSettings.DATABASE),
                settings.get(PostgresSettings.USER),
                settings.get(PostgresSettings.PASSWORD),
                settings.get(PostgresSettings.SLOT),
                settings.get(PostgresSettings.PUBLICATION),
                settings.get(PostgresSettings.CREATE_PUBLICATION),
                StartPosition.parse(settings.get(PostgresSettings.START)),
                settings.get(PostgresSettings.HEARTBEAT),
                settings.get(PostgresSettings.STATUS_INTERVAL),
                settings.get(PostgresSettings.CONNECT_TIMEOUT),
                settings.get(PostgresSettings.BACKOFF_MAX),
                context.sourceId(),
                context.capture(),
                context.plan(),
                context.maxTransactionBytes(),
                PostgresSettings.TLS.from(settings));
    }
}

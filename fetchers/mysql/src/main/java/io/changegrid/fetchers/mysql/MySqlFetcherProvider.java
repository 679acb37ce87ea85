package io.changegrid.fetchers.mysql;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigKey;
import io.changegrid.fetchers.Fetcher;
import io.changegrid.fetchers.FetcherContext;
import io.changegrid.fetchers.FetcherProvider;
import io.changegrid.fetchers.TransactionSink;
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

    /** The fetcher's configuration from the relay's settings and what the relay decides. */
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
                Set.copyOf(settings.get(MySqlSettings.DDL_SKIP)));
    }
}

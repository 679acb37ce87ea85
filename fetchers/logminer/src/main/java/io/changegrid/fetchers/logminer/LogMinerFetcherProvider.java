package io.changegrid.fetchers.logminer;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigKey;
import io.changegrid.fetchers.Fetcher;
import io.changegrid.fetchers.FetcherContext;
import io.changegrid.fetchers.FetcherProvider;
import io.changegrid.fetchers.TransactionSink;
import java.util.List;

/**
 * Opens {@link LogMinerFetcher}s for {@code source.type: logminer}; registered in {@code
 * META-INF/services}.
 */
public final class LogMinerFetcherProvider implements FetcherProvider {

    /** The {@code source.type} of Oracle LogMiner sources. */
    public static final String TYPE = "logminer";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public List<ConfigKey<?>> settings() {
        return LogMinerSettings.KEYS;
    }

    @Override
    public String describe(Config settings) {
        String url = settings.get(LogMinerSettings.URL);
        String dialect = settings.get(LogMinerSettings.DIALECT);
        return url + (LogMinerSettings.ORACLE.equals(dialect) ? "" : " dialect=" + dialect);
    }

    @Override
    public Fetcher open(FetcherContext context, TransactionSink sink) throws Exception {
        return LogMinerFetcher.open(config(context), context.resumePosition(), sink);
    }

    static LogMinerFetcherConfig config(FetcherContext context) {
        Config settings = context.settings();
        return new LogMinerFetcherConfig(
                settings.get(LogMinerSettings.URL),
                settings.get(LogMinerSettings.USER),
                settings.get(LogMinerSettings.PASSWORD),
                settings.get(LogMinerSettings.START),
                settings.get(LogMinerSettings.DIALECT),
                settings.get(LogMinerSettings.WINDOW_MAX_SCNS),
                settings.get(LogMinerSettings.POLL_INTERVAL),
                settings.get(LogMinerSettings.FETCH_SIZE),
                settings.get(LogMinerSettings.HEARTBEAT),
                settings.get(LogMinerSettings.BACKOFF_MAX),
                context.sourceId(),
                context.capture(),
                context.plan(),
                context.maxTransactionBytes());
    }
}

package io.changegrid.fetchers.goldengate;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigKey;
import io.changegrid.fetchers.Fetcher;
import io.changegrid.fetchers.FetcherContext;
import io.changegrid.fetchers.FetcherProvider;
import io.changegrid.fetchers.TransactionSink;
import java.nio.file.Path;
import java.util.List;

/**
 * Opens {@link GoldenGateFetcher}s for {@code source.type: goldengate}; registered in {@code
 * META-INF/services}.
 */
public final class GoldenGateFetcherProvider implements FetcherProvider {

    /** The {@code source.type} of GoldenGate sources. */
    public static final String TYPE = "goldengate";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public List<ConfigKey<?>> settings() {
        return GoldenGateSettings.KEYS;
    }

    @Override
    public String describe(Config settings) {
        return "goldengate "
                + settings.get(GoldenGateSettings.FORMAT).name().toLowerCase(java.util.Locale.ROOT)
                + " files in "
                + settings.get(GoldenGateSettings.DIRECTORY);
    }

    @Override
    public Fetcher open(FetcherContext context, TransactionSink sink) throws Exception {
        return GoldenGateFetcher.open(config(context), context.resumePosition(), sink);
    }

    static GoldenGateFetcherConfig config(FetcherContext context) {
        Config settings = context.settings();
        String schemas = settings.get(GoldenGateSettings.SCHEMA_DIRECTORY);
        return new GoldenGateFetcherConfig(
                Path.of(settings.get(GoldenGateSettings.DIRECTORY)),
                settings.get(GoldenGateSettings.FORMAT),
                settings.get(GoldenGateSettings.FINALIZED_SUFFIX),
                settings.get(GoldenGateSettings.ACTIVE_SUFFIX),
                settings.get(GoldenGateSettings.TRANSACTION_INDICATOR),
                settings.get(GoldenGateSettings.XID_TOKEN),
                settings.get(GoldenGateSettings.CSN_TOKEN),
                schemas.isEmpty() ? null : Path.of(schemas),
                settings.get(GoldenGateSettings.TABLES),
                settings.get(GoldenGateSettings.HEARTBEAT),
                settings.get(GoldenGateSettings.POLL_INTERVAL),
                context.sourceId(),
                context.capture(),
                context.plan(),
                context.maxTransactionBytes());
    }
}

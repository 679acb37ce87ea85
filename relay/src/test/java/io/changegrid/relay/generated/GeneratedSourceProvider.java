package io.changegrid.relay.generated;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigKey;
import io.changegrid.config.ValueKind;
import io.changegrid.fetchers.Fetcher;
import io.changegrid.fetchers.FetcherContext;
import io.changegrid.fetchers.FetcherProvider;
import io.changegrid.fetchers.TransactionSink;
import java.time.Duration;
import java.util.List;

/**
 * A second kind of source, for tests only ({@code source.type: generated}): proves that a relay
 * starts any fetcher found through the SPI, with its own settings and its own resume position, and
 * that policies reach it through the capture router. Registered in the relay's test resources.
 */
public final class GeneratedSourceProvider implements FetcherProvider {

    public static final String TYPE = "generated";

    static final ConfigKey<Integer> TRANSACTIONS =
            ConfigKey.of(
                            "source.transactions",
                            ValueKind.INT,
                            10,
                            "How many transactions the source has; after them it only sends heartbeats.")
                    .validatedBy(v -> v >= 0, "not negative");

    /** The seam of the fatal-error tests: an {@link Error} on the fetcher thread, on demand. */
    static final ConfigKey<Integer> ERROR_AFTER =
            ConfigKey.of(
                            "source.errorAfter",
                            ValueKind.INT,
                            0,
                            "After publishing this many transactions the fetcher throws an OutOfMemoryError; 0 never.")
                    .validatedBy(v -> v >= 0, "not negative");

    /**
     * The seam of the catching-up tests: a pause before each transaction, so that a relay takes a
     * while to reach the source's end ({@link GeneratedFetcher#reachedEnd}).
     */
    static final ConfigKey<Duration> TRANSACTION_PAUSE =
            ConfigKey.of(
                    "source.transactionPause",
                    ValueKind.DURATION,
                    Duration.ZERO,
                    "How long the fetcher waits before each transaction; 0ms none.");

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public List<ConfigKey<?>> settings() {
        return List.of(TRANSACTIONS, ERROR_AFTER, TRANSACTION_PAUSE);
    }

    @Override
    public String describe(Config settings) {
        return settings.get(TRANSACTIONS) + " generated transactions";
    }

    @Override
    public Fetcher open(FetcherContext context, TransactionSink sink) {
        return new GeneratedFetcher(
                context,
                context.settings().get(TRANSACTIONS),
                context.settings().get(ERROR_AFTER),
                context.settings().get(TRANSACTION_PAUSE).toMillis(),
                sink);
    }
}

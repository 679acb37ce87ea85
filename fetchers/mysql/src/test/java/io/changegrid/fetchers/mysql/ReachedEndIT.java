package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.policy.capture.TableFilter;
import io.changegrid.testkit.MariaDbExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link BinlogFetcher#reachedEnd}: a fetcher resumed behind a backlog says it has not reached the
 * end of the binlog until it has read everything the server had logged when it was first asked.
 */
class ReachedEndIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    private static final int BACKLOG = 2_000;

    @TempDir Path state;

    @Test
    void shouldSayItReachedTheEndOnlyAfterReadingTheBacklogWhenResumedBehindIt() throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE shop",
                        "CREATE TABLE shop.orders (id INT PRIMARY KEY, note VARCHAR(1000))");
        BinlogFetcherConfig config =
                RunningFetcher.config(
                        MARIADB.server(),
                        TableFilter.of(List.of("shop.orders"), List.of()),
                        new StartPosition.Current(),
                        64 << 20);
        String resume;
        try (RunningFetcher running = RunningFetcher.start(config, state, null)) {
            MARIADB.server().execute("INSERT INTO shop.orders VALUES (0, 'first')");
            resume = running.sink.awaitTransaction(t -> !t.rowEvents().isEmpty()).resumePosition();
        }
        try (Connection connection = MARIADB.server().connect();
                Statement statement = connection.createStatement()) {
            for (int id = 1; id <= BACKLOG; id++) {
                statement.execute("INSERT INTO shop.orders VALUES (" + id + ", REPEAT('x', 900))");
            }
        }

        CollectingSink sink = new CollectingSink();
        BinlogFetcher fetcher =
                BinlogFetcher.open(
                        config.withPipeline(RunningFetcher.pipeline()), state, resume, sink);
        sink.decodeWith(fetcher.sourceSchemas());
        assertThat(fetcher.reachedEnd()).as("resumed behind a backlog, nothing read yet").isFalse();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread thread =
                new Thread(
                        () -> {
                            try {
                                fetcher.run();
                            } catch (Throwable e) {
                                failure.set(e);
                            }
                        },
                        "test-fetcher");
        thread.start();
        try {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(5, TimeUnit.MILLISECONDS)
                    .until(() -> fetcher.reachedEnd() || failure.get() != null);
            assertThat(failure.get()).isNull();
            assertThat(sink.transactions().stream().filter(t -> !t.rowEvents().isEmpty()))
                    .as("the whole backlog was read when it said so")
                    .hasSize(BACKLOG);
            MARIADB.server().execute("INSERT INTO shop.orders VALUES (-1, 'later')");
            assertThat(fetcher.reachedEnd()).as("once reached, it stays reached").isTrue();
        } finally {
            fetcher.stop();
            thread.join(TimeUnit.SECONDS.toMillis(10));
        }
    }
}

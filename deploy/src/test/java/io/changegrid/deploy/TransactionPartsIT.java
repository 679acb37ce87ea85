package io.changegrid.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.ConsumerState;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.CheckpointStore;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.api.EventView;
import io.changegrid.consumer.api.TransactionInfo;
import io.changegrid.consumer.config.Subscription;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.MariaDbExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transaction many times larger than the consumer's buffer, published in parts by relays with
 * {@code buffer.transactionParts} (issue 20, section 3), reaches the callback as one transaction:
 * whole, in order, once, with no checkpoint inside it; a failover to another relay in its middle,
 * and a RETRY after some of its parts left the buffer, deliver it again from its start.
 *
 * <p>Scaled for {@code mvn verify}: a 16 MiB transaction through 1 MiB relay segments (256 KiB
 * parts) into a 2 MiB consumer buffer. By hand, e.g. the run: {@code
 * -Dchangegrid.transactionParts.bytes=2g -Dchangegrid.transactionParts.segment=64MiB
 * -Dchangegrid.transactionParts.relayCapacity=3GiB -Dchangegrid.transactionParts.storage=mapped
 * -Dchangegrid.transactionParts.consumerBuffer=64MiB -Dchangegrid.transactionParts.fetch=16MiB}.
 */
class TransactionPartsIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    private static final long TRANSACTION_BYTES = bytes(property("bytes", "16m"));
    private static final String SEGMENT = property("segment", "1MiB");
    private static final String RELAY_CAPACITY = property("relayCapacity", "48MiB");
    private static final String STORAGE = property("storage", "direct");
    private static final long CONSUMER_BUFFER = bytes(property("consumerBuffer", "2m"));
    private static final long FETCH_BYTES = bytes(property("fetch", "512k"));
    private static final int ROW_BYTES = 8_000;
    private static final int ROWS = (int) (TRANSACTION_BYTES / ROW_BYTES);

    @TempDir Path work;

    @Test
    void shouldDeliverATransactionLargerThanTheBufferWholeOnceWithItsCheckpointAfterTheEnd()
            throws Exception {
        MARIADB.server().execute(schema("whole"));
        try (Relay relay = startRelay("relay", 9_601)) {
            Recorder recorder = new Recorder();
            Consumer consumer = consumer("whole", recorder, RelayFixture.url(relay));
            try {
                consumer.start();
                long started = System.nanoTime();
                load("whole");
                awaitEnds(consumer, recorder, 3);
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                Runtime runtime = Runtime.getRuntime();
                System.out.printf(
                        Locale.ROOT,
                        "TransactionPartsIT bytes=%d, rows=%d, segment=%s, consumerBuffer=%d,"
                                + " millis=%d, heapUsedBytes=%d%n",
                        TRANSACTION_BYTES,
                        ROWS,
                        SEGMENT,
                        CONSUMER_BUFFER,
                        millis,
                        runtime.totalMemory() - runtime.freeMemory());
            } finally {
                consumer.close();
            }
            assertThat(recorder.rollbacks.get()).isZero();
            recorder.assertWhole(1);
        }
    }

    @Test
    void shouldDeliverTheTransactionAgainFromItsStartWhenTheRelayChangesInItsMiddle()
            throws Exception {
        MARIADB.server().execute(schema("failover"));
        Relay first = startRelay("relay1", 9_602);
        try (Relay second = startRelay("relay2", 9_603)) {
            CountDownLatch midway = new CountDownLatch(1);
            CountDownLatch relayGone = new CountDownLatch(1);
            Recorder recorder =
                    new Recorder() {
                        @Override
                        CallbackResult atRow(int index) throws InterruptedException {
                            if (index == ROWS / 2 && midway.getCount() > 0) {
                                // Holds the consumer inside the transaction until the relay it
                                // reads from is gone; its buffer holds a few parts at most.
                                midway.countDown();
                                assertThat(relayGone.await(30, TimeUnit.SECONDS)).isTrue();
                            }
                            return CallbackResult.SUCCESS;
                        }
                    };
            Consumer consumer =
                    consumer(
                            "failover",
                            recorder,
                            RelayFixture.url(first),
                            RelayFixture.url(second));
            try {
                consumer.start();
                load("failover");
                assertThat(midway.await(60, TimeUnit.SECONDS)).isTrue();
                first.close();
                relayGone.countDown();
                awaitEnds(consumer, recorder, 3);
                assertThat(consumer.status().relay()).isEqualTo(RelayFixture.url(second) + "/");
            } finally {
                consumer.close();
                first.close();
            }
            assertThat(recorder.rollbacks.get())
                    .as("the delivery in the middle rolled back")
                    .isOne();
            recorder.assertWhole(2);
        }
    }

    @Test
    void shouldDeliverTheTransactionAgainFromItsStartWhenTheCallbackRetriesInItsMiddle()
            throws Exception {
        MARIADB.server().execute(schema("retry"));
        try (Relay relay = startRelay("relay", 9_604)) {
            Recorder recorder =
                    new Recorder() {
                        boolean retried;

                        @Override
                        CallbackResult atRow(int index) {
                            // Far enough in that the first parts left the buffer.
                            if (index == ROWS * 3 / 4 && !retried) {
                                retried = true;
                                return CallbackResult.RETRY;
                            }
                            return CallbackResult.SUCCESS;
                        }
                    };
            Consumer consumer = consumer("retry", recorder, RelayFixture.url(relay));
            try {
                consumer.start();
                load("retry");
                awaitEnds(consumer, recorder, 3);
            } finally {
                consumer.close();
            }
            assertThat(recorder.rollbacks.get()).isOne();
            recorder.assertWhole(2);
        }
    }

    private Relay startRelay(String name, long serverId) throws Exception {
        Map<String, String> settings =
                new java.util.HashMap<>(
                        Map.of(
                                "buffer.transactionParts", "true",
                                "buffer.segmentSize", SEGMENT,
                                "buffer.capacity", RELAY_CAPACITY,
                                "buffer.storage", STORAGE));
        if (STORAGE.equals("mapped")) {
            Path directory = work.resolve(name + "-buffer");
            java.nio.file.Files.createDirectories(directory);
            settings.put("buffer.directory", directory.toString());
        }
        return RelayFixture.start(MARIADB.server(), work.resolve(name), serverId, settings);
    }

    private Consumer consumer(String database, ConsumerCallback callback, String... relays) {
        return Consumer.builder()
                .name("parts-" + database)
                .relays(relays)
                .subscription(Subscription.tables(database + ".*"))
                .bufferCapacity(CONSUMER_BUFFER)
                .fetchMaxBytes(FETCH_BYTES)
                .pollTimeout(Duration.ofSeconds(2))
                .fetchBackoff(Duration.ofMillis(50), Duration.ofMillis(200))
                .retryBackoff(Duration.ofMillis(20), Duration.ofMillis(100))
                .batching(100, Duration.ZERO)
                .callback(callback)
                .checkpointStore((CheckpointStore) callback)
                .build();
    }

    private static String[] schema(String database) {
        return new String[] {
            "CREATE DATABASE " + database,
            "CREATE TABLE " + database + ".blobs (id INT PRIMARY KEY, data MEDIUMBLOB)"
        };
    }

    /**
     * A small transaction (row 0), the large one (rows 1..ROWS), another small one (ROWS + 1); each
     * row's data is its id's bytes repeated, for the callback to check.
     */
    private static void load(String database) throws Exception {
        try (Connection connection = MARIADB.server().connect(database);
                Statement statement = connection.createStatement();
                PreparedStatement insert =
                        connection.prepareStatement("INSERT INTO blobs VALUES (?, ?)")) {
            statement.execute("INSERT INTO blobs VALUES (0, 'small')");
            connection.setAutoCommit(false);
            for (int id = 1; id <= ROWS; id++) {
                insert.setInt(1, id);
                insert.setBytes(2, data(id));
                insert.addBatch();
                if (id % 100 == 0) {
                    insert.executeBatch();
                }
            }
            insert.executeBatch();
            connection.commit();
            connection.setAutoCommit(true);
            statement.execute("INSERT INTO blobs VALUES (" + (ROWS + 1) + ", 'small')");
        }
    }

    private static byte[] data(int id) {
        byte[] data = new byte[ROW_BYTES];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (id * 31 + i);
        }
        return data;
    }

    private static void awaitEnds(Consumer consumer, Recorder recorder, int transactions) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(Math.max(60, TRANSACTION_BYTES >> 23)))
                .pollInterval(Duration.ofMillis(50))
                .until(
                        () ->
                                recorder.checkpointedEnds() >= transactions
                                        || consumer.state() == ConsumerState.FAILED);
        assertThat(consumer.failure()).isEmpty();
    }

    /**
     * The callback and the checkpoint store in one, so that the order of the callback's calls and
     * the checkpoints saved is recorded as it happened: {@code start scn}, {@code end scn}, {@code
     * rollback}, {@code checkpoint scn}. Checks each row's data as it comes (a CRC of the
     * transaction's rows) and the event indexes 0, 1, ... within the transaction.
     */
    private static class Recorder implements ConsumerCallback, CheckpointStore {
        final List<String> calls = new CopyOnWriteArrayList<>();
        final AtomicLong rollbacks = new AtomicLong();
        private final List<Integer> ids = new ArrayList<>();
        private final CRC32C crc = new CRC32C();
        private int nextIndex;
        private volatile long checkpoint = -1;
        private volatile int checkpointedEnds;
        private final List<Long> ended = new CopyOnWriteArrayList<>();
        private final List<long[]> largeEnds = new CopyOnWriteArrayList<>();

        /** The result for the row event of {@code index} in the large transaction. */
        CallbackResult atRow(int index) throws InterruptedException {
            return CallbackResult.SUCCESS;
        }

        @Override
        public CallbackResult onStartTransaction(TransactionInfo transaction) {
            calls.add("start " + transaction.scn());
            ids.clear();
            crc.reset();
            nextIndex = 0;
            return CallbackResult.SUCCESS;
        }

        @Override
        public CallbackResult onEvent(EventView event) {
            assertThat(event.index()).as("event index").isEqualTo(nextIndex);
            nextIndex++;
            int id = ((Number) event.get("id")).intValue();
            ids.add(id);
            byte[] data = (byte[]) event.get("data");
            if (id >= 1 && id <= ROWS) {
                assertThat(data).as("row %d", id).isEqualTo(data(id));
                crc.update(data);
                try {
                    return atRow(event.index());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return CallbackResult.FAIL;
                }
            }
            return CallbackResult.SUCCESS;
        }

        @Override
        public CallbackResult onEndTransaction(TransactionInfo transaction) {
            calls.add("end " + transaction.scn());
            assertThat(transaction.eventCount()).isEqualTo(ids.size());
            assertThat(transaction.deliveredCount()).isEqualTo(ids.size());
            if (ids.size() > 1) {
                List<Integer> expected = new ArrayList<>();
                for (int id = 1; id <= ROWS; id++) {
                    expected.add(id);
                }
                assertThat(ids).as("rows of the large transaction in order").isEqualTo(expected);
                CRC32C whole = new CRC32C();
                for (int id = 1; id <= ROWS; id++) {
                    whole.update(data(id));
                }
                largeEnds.add(new long[] {transaction.scn(), crc.getValue(), whole.getValue()});
            }
            ended.add(transaction.scn());
            return CallbackResult.SUCCESS;
        }

        @Override
        public void onRollback(long checkpointScn) {
            calls.add("rollback " + checkpointScn);
            rollbacks.incrementAndGet();
        }

        @Override
        public OptionalLong load() {
            return checkpoint < 0 ? OptionalLong.empty() : OptionalLong.of(checkpoint);
        }

        @Override
        public void save(long scn) {
            calls.add("checkpoint " + scn);
            checkpoint = scn;
            checkpointedEnds = (int) ended.stream().filter(s -> s <= scn).distinct().count();
        }

        int checkpointedEnds() {
            return checkpointedEnds;
        }

        /**
         * The large transaction was delivered whole, checked, {@code starts} times (the last
         * complete), in order between the small ones, and no checkpoint fell inside it.
         */
        void assertWhole(int starts) {
            assertThat(largeEnds).as("the large transaction ended once").hasSize(1);
            long[] large = largeEnds.get(0);
            assertThat(large[1]).as("CRC of the rows delivered").isEqualTo(large[2]);
            long scn = large[0];
            assertThat(calls.stream().filter(c -> c.equals("start " + scn)).count())
                    .as("starts of the large transaction: %s", calls)
                    .isEqualTo(starts);
            boolean inside = false;
            boolean ended = false;
            for (String call : calls) {
                if (call.equals("start " + scn)) {
                    inside = true;
                } else if (call.equals("end " + scn)) {
                    inside = false;
                    ended = true;
                } else if (call.startsWith("rollback")) {
                    inside = false;
                } else if (call.startsWith("checkpoint ")) {
                    long at = Long.parseLong(call.substring("checkpoint ".length()));
                    assertThat(inside).as("checkpoint inside the transaction: %s", call).isFalse();
                    if (!ended) {
                        assertThat(at).as("checkpoint before the end").isLessThan(scn);
                    }
                }
            }
            assertThat(checkpoint).isGreaterThan(scn);
        }
    }

    private static String property(String name, String fallback) {
        return System.getProperty("changegrid.transactionParts." + name, fallback);
    }

    /** "16m", "2g", "512k" as bytes (binary units). */
    private static long bytes(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT).replace("ib", "");
        long unit = 1;
        if (t.endsWith("g")) {
            unit = 1L << 30;
        } else if (t.endsWith("m")) {
            unit = 1L << 20;
        } else if (t.endsWith("k")) {
            unit = 1L << 10;
        }
        return Long.parseLong(unit == 1 ? t : t.substring(0, t.length() - 1)) * unit;
    }
}

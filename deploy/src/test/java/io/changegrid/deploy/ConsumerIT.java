package io.changegrid.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.ConsumerState;
import io.changegrid.consumer.api.BootstrapRequiredException;
import io.changegrid.consumer.api.CallbackFailedException;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.CheckpointStore;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.checkpoint.FileCheckpointStore;
import io.changegrid.consumer.config.Subscription;
import io.changegrid.consumer.example.OrderTotalsCallback;
import io.changegrid.consumer.group.ConsumerMain;
import io.changegrid.consumer.sink.JsonLinesFileCallback;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.MariaDbExtension;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Consumers against a real relay in-process on a private mariadbd: whole transactions in commit
 * order, restarts at the checkpoint, RETRY and FAIL, 410, the JSON-lines sink and the example
 * callback. Each test works in its own database and subscribes to it, so tests share the relay
 * without seeing each other's changes.
 */
class ConsumerIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @TempDir static Path relayState;
    @TempDir Path work;

    private static Relay relay;
    private final List<Consumer> consumers = new ArrayList<>();

    @BeforeAll
    static void startRelay() throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE w",
                        "CREATE TABLE w.customers (id INT PRIMARY KEY, balance DECIMAL(12,2))",
                        "CREATE TABLE w.orders (id INT PRIMARY KEY, customer_id INT, total DECIMAL(10,2))",
                        "CREATE TABLE w.items (id INT PRIMARY KEY, order_id INT, sku VARCHAR(20))",
                        "INSERT INTO w.customers VALUES (1, 0), (2, 0), (3, 0), (4, 0), (5, 0)",
                        "CREATE DATABASE r",
                        "CREATE TABLE r.orders (id INT PRIMARY KEY, note VARCHAR(40))",
                        "CREATE DATABASE rt",
                        "CREATE TABLE rt.orders (id INT PRIMARY KEY, note VARCHAR(40))",
                        "CREATE DATABASE f",
                        "CREATE TABLE f.orders (id INT PRIMARY KEY, note VARCHAR(40))",
                        "CREATE DATABASE j",
                        "CREATE TABLE j.orders (id INT PRIMARY KEY, customer VARCHAR(40), total DECIMAL(10,2))",
                        "CREATE DATABASE ddl",
                        "CREATE TABLE ddl.orders (id INT PRIMARY KEY, note VARCHAR(40))",
                        "CREATE DATABASE big",
                        "CREATE TABLE big.orders (id INT PRIMARY KEY, note VARCHAR(2000))",
                        "CREATE DATABASE huge",
                        "CREATE TABLE huge.orders (id INT PRIMARY KEY, note VARCHAR(2000))",
                        "CREATE DATABASE shop",
                        "CREATE TABLE shop.orders (id INT PRIMARY KEY, customer VARCHAR(40), total DECIMAL(10,2))");
        relay = RelayFixture.start(MARIADB.server(), relayState, 9_401);
    }

    @AfterAll
    static void stopRelay() {
        if (relay != null) {
            relay.close();
        }
    }

    @AfterEach
    void stopConsumers() {
        consumers.forEach(Consumer::close);
    }

    private Consumer start(
            String database, ConsumerCallback callback, CheckpointStore store, int batch)
            throws Exception {
        Consumer consumer =
                Consumer.builder()
                        .name("consumer-" + database)
                        .relays(RelayFixture.url(relay))
                        .subscription(Subscription.tables(database + ".*"))
                        .bufferCapacity(64 << 10)
                        .fetchMaxBytes(4 << 10)
                        .pollTimeout(Duration.ofSeconds(5))
                        .batching(batch, Duration.ZERO)
                        .retryBackoff(Duration.ofMillis(20), Duration.ofMillis(100))
                        .callback(callback)
                        .checkpointStore(store)
                        .build();
        consumers.add(consumer);
        consumer.start();
        return consumer;
    }

    private static void awaitUntil(Consumer consumer, BooleanSupplier condition) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> condition.getAsBoolean() || consumer.state() == ConsumerState.FAILED);
        assertThat(consumer.failure()).isEmpty();
    }

    private static void insertRows(String table, int from, int to) throws SQLException {
        try (Connection connection = MARIADB.server().connect();
                Statement statement = connection.createStatement()) {
            for (int id = from; id <= to; id++) {
                statement.execute(
                        "INSERT INTO " + table + " VALUES (" + id + ", 'row " + id + "')");
            }
        }
    }

    private static List<String> rowEvents(String table, int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(id -> "orders INSERT " + id).toList();
    }

    @Test
    void shouldDeliverEveryTransactionWholeAndInCommitOrderWhenTablesChangeTogether()
            throws Exception {
        long seed = Long.getLong("changegrid.seed", System.nanoTime());
        Random random = new Random(seed);
        List<List<String>> expected = new ArrayList<>();
        try (Connection connection = MARIADB.server().connect("w");
                Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            int item = 0;
            for (int order = 1; order <= 150; order++) {
                List<String> events = new ArrayList<>();
                int customer = 1 + random.nextInt(5);
                statement.execute(
                        "INSERT INTO orders VALUES ("
                                + order
                                + ", "
                                + customer
                                + ", "
                                + order
                                + ".50)");
                events.add("orders INSERT " + order);
                for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
                    item++;
                    statement.execute(
                            "INSERT INTO items VALUES ("
                                    + item
                                    + ", "
                                    + order
                                    + ", 'sku-"
                                    + item
                                    + "')");
                    events.add("items INSERT " + item);
                }
                if (random.nextInt(3) == 0) {
                    statement.execute(
                            "UPDATE customers SET balance = balance + "
                                    + order
                                    + " WHERE id = "
                                    + customer);
                    events.add("customers UPDATE " + customer);
                }
                if (item > 5 && random.nextInt(10) == 0) {
                    int gone = item - 5;
                    if (statement.executeUpdate("DELETE FROM items WHERE id = " + gone) == 1) {
                        events.add("items DELETE " + gone);
                    }
                }
                connection.commit();
                expected.add(events);
            }
        }
        TransactionLog log = new TransactionLog();
        Consumer consumer = start("w", log, new FileCheckpointStore(work.resolve("w.cp")), 20);

        awaitUntil(consumer, () -> log.transactions.size() >= expected.size());
        awaitUntil(
                consumer, () -> consumer.status().checkpointScn() >= consumer.status().pulledScn());

        assertThat(log.transactions)
                .as("seed=%d", seed)
                .extracting(TransactionLog.Delivered::events)
                .containsExactlyElementsOf(expected);
        for (int i = 0; i < log.transactions.size(); i++) {
            TransactionLog.Delivered transaction = log.transactions.get(i);
            assertThat(transaction.eventCount()).isEqualTo(transaction.events().size());
            assertThat(transaction.deliveredCount()).isEqualTo(transaction.events().size());
            if (i > 0) {
                assertThat(transaction.scn()).isGreaterThan(log.transactions.get(i - 1).scn());
            }
        }
        assertThat(consumer.status().batches())
                .as("small transactions are batched")
                .isBetween(8L, 149L);
        assertThat(consumer.status().eventsDelivered()).isEqualTo(log.events().size());
        assertThat(new FileCheckpointStore(work.resolve("w.cp")).load())
                .hasValue(consumer.status().checkpointScn());
        // Caught up with a source gone idle: nothing waits, however old its last commit grows.
        long idleSince = System.currentTimeMillis();
        awaitUntil(
                consumer,
                () ->
                        System.currentTimeMillis() - idleSince > 2_500
                                && consumer.status().lagMillis() == 0);
    }

    @Test
    void shouldResumeAfterItsCheckpointWhenRestarted() throws Exception {
        FileCheckpointStore store = new FileCheckpointStore(work.resolve("r.cp"));
        insertRows("r.orders", 1, 50);
        TransactionLog first = new TransactionLog();
        Consumer consumer = start("r", first, store, 7);
        awaitUntil(consumer, () -> first.events().size() >= 50);
        awaitUntil(
                consumer,
                () -> consumer.status().checkpointScn() >= first.scnOf("orders INSERT 50"));
        consumer.stop();
        assertThat(consumer.awaitTermination(Duration.ofSeconds(10))).isTrue();
        assertThat(consumer.state()).isEqualTo(ConsumerState.STOPPED);
        long saved = store.load().orElseThrow();
        assertThat(saved).isGreaterThanOrEqualTo(first.scnOf("orders INSERT 50"));

        insertRows("r.orders", 51, 100);
        TransactionLog second = new TransactionLog();
        Consumer restarted = start("r", second, store, 7);
        awaitUntil(restarted, () -> second.events().size() >= 50);

        assertThat(first.events()).containsExactlyElementsOf(rowEvents("r.orders", 1, 50));
        assertThat(second.events())
                .as("continues right after the checkpoint, nothing lost, nothing repeated")
                .containsExactlyElementsOf(rowEvents("r.orders", 51, 100));
        assertThat(second.transactions.get(0).scn()).isGreaterThan(saved);
    }

    @Test
    void shouldDeliverAgainFromTheCheckpointWhenTheCallbackAsksToRetry() throws Exception {
        insertRows("rt.orders", 1, 20);
        AtomicInteger deliveriesOfTen = new AtomicInteger();
        TransactionLog log =
                new TransactionLog() {
                    @Override
                    CallbackResult answer(String event) {
                        if (event.equals("orders INSERT 10")
                                && deliveriesOfTen.incrementAndGet() == 1) {
                            return CallbackResult.RETRY;
                        }
                        return CallbackResult.SUCCESS;
                    }
                };
        Consumer consumer = start("rt", log, new FileCheckpointStore(work.resolve("rt.cp")), 4);

        awaitUntil(consumer, () -> log.events().contains("orders INSERT 20"));

        assertThat(deliveriesOfTen).hasValue(2);
        assertThat(log.rollbacks).hasSize(1);
        assertThat(log.rollbacks.get(0))
                .as("rolled back to a checkpoint before the retried transaction")
                .isLessThan(log.scnOf("orders INSERT 10"));
        assertThat(consumer.status().retries()).isEqualTo(1);
        assertThat(log.events()).containsAll(rowEvents("rt.orders", 1, 20));
        List<String> firstDeliveries = log.events().stream().distinct().toList();
        assertThat(firstDeliveries)
                .as("commit order, each row at least once")
                .containsExactlyElementsOf(rowEvents("rt.orders", 1, 20));
    }

    @Test
    void shouldStopWithTheErrorAndKeepTheCheckpointBeforeTheTransactionWhenTheCallbackFails()
            throws Exception {
        insertRows("f.orders", 1, 10);
        FileCheckpointStore store = new FileCheckpointStore(work.resolve("f.cp"));
        TransactionLog log =
                new TransactionLog() {
                    @Override
                    CallbackResult answer(String event) {
                        return event.equals("orders INSERT 7")
                                ? CallbackResult.FAIL
                                : CallbackResult.SUCCESS;
                    }
                };
        Consumer consumer = start("f", log, store, 1);

        assertThat(consumer.awaitTermination(Duration.ofSeconds(30))).isTrue();

        assertThat(consumer.state()).isEqualTo(ConsumerState.FAILED);
        assertThat(consumer.failure()).get().isInstanceOf(CallbackFailedException.class);
        CallbackFailedException failure = (CallbackFailedException) consumer.failure().get();
        assertThat(failure.getMessage())
                .startsWith("callback failed: method=onEvent, scn=" + failure.scn());
        assertThat(log.events()).containsExactlyElementsOf(rowEvents("f.orders", 1, 6));
        long saved = store.load().orElseThrow();
        assertThat(saved)
                .isGreaterThanOrEqualTo(log.scnOf("orders INSERT 6"))
                .isLessThan(failure.scn());

        TransactionLog fixed = new TransactionLog();
        Consumer restarted = start("f", fixed, store, 1);
        awaitUntil(restarted, () -> fixed.events().size() >= 4);
        assertThat(fixed.events())
                .as("the failed transaction is delivered again after a restart, nothing skipped")
                .containsExactlyElementsOf(rowEvents("f.orders", 7, 10));
    }

    @Test
    void shouldStopWithBootstrapRequiredWhenTheRelayNoLongerHoldsTheCheckpoint() throws Exception {
        FileCheckpointStore store = new FileCheckpointStore(work.resolve("old.cp"));
        store.save(1);
        Consumer consumer = start("r", new TransactionLog(), store, 10);

        assertThat(consumer.awaitTermination(Duration.ofSeconds(30))).isTrue();

        assertThat(consumer.state()).isEqualTo(ConsumerState.FAILED);
        assertThat(consumer.failure()).get().isInstanceOf(BootstrapRequiredException.class);
        BootstrapRequiredException failure = (BootstrapRequiredException) consumer.failure().get();
        assertThat(failure.checkpointScn()).isEqualTo(1);
        assertThat(failure.oldestScn()).isGreaterThan(1);
        assertThat(failure.getMessage())
                .isEqualTo(
                        "checkpoint older than every relay's buffer, the consumer must bootstrap:"
                                + " checkpoint=1, oldestScn="
                                + failure.oldestScn()
                                + ", relays="
                                + RelayFixture.url(relay)
                                + "/");
        assertThat(store.load()).as("checkpoint untouched").hasValue(1);
    }

    @Test
    void shouldDecodeEachRowWithItsOwnSchemaVersionWhenTheTableChangesMidStream() throws Exception {
        MARIADB.server()
                .execute(
                        "INSERT INTO ddl.orders VALUES (1, 'before')",
                        "ALTER TABLE ddl.orders ADD COLUMN extra VARCHAR(10)",
                        "INSERT INTO ddl.orders VALUES (2, 'after', 'new column')");
        List<String> seen = new CopyOnWriteArrayList<>();
        ConsumerCallback callback =
                event -> {
                    seen.add(
                            event.operation()
                                    + " v"
                                    + event.schemaVersion()
                                    + (event.operation().isRowChange()
                                            ? " " + Arrays.toString(event.after())
                                            : " " + event.ddl()));
                    return CallbackResult.SUCCESS;
                };
        Consumer consumer =
                start("ddl", callback, new FileCheckpointStore(work.resolve("ddl.cp")), 10);

        awaitUntil(consumer, () -> seen.size() >= 3);

        assertThat(seen)
                .containsExactly(
                        "INSERT v1 [1, before]",
                        "SCHEMA_CHANGE v2 ALTER TABLE ddl.orders ADD COLUMN extra VARCHAR(10)",
                        "INSERT v2 [2, after, new column]");
    }

    @Test
    void shouldRunFromAConfigurationFileAndExitWithOneWhenTheConsumerFails() throws Exception {
        Path checkpoint = work.resolve("main.cp");
        new FileCheckpointStore(checkpoint).save(1); // older than the relay holds: 410
        Path file = work.resolve("consumer.yaml");
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "relays: [" + RelayFixture.url(relay) + "]",
                        "subscription:",
                        "  tables: [r.*]",
                        "callback:",
                        "  type: count",
                        "checkpoint:",
                        "  file: " + checkpoint,
                        ""));

        int status =
                new CommandLine(new ConsumerMain())
                        .execute("--config", file.toString(), "--set", "buffer.capacity=1MiB");

        assertThat(status).isEqualTo(1);
        assertThat(new FileCheckpointStore(checkpoint).load()).hasValue(1);
    }

    @Test
    void shouldDeliverATransactionLargerThanOneResponseWholeWhenItFitsTheBuffer() throws Exception {
        insertLargeTransaction("big.orders", 30); // ~30 KiB: larger than fetch.maxBytes (4 KiB)
        insertRows("big.orders", 100, 102);
        TransactionLog log = new TransactionLog();
        Consumer consumer = start("big", log, new FileCheckpointStore(work.resolve("big.cp")), 10);

        awaitUntil(consumer, () -> log.transactions.size() >= 4);

        assertThat(log.transactions.get(0).events())
                .containsExactlyElementsOf(rowEvents("big.orders", 1, 30));
        assertThat(log.events().subList(30, 33))
                .containsExactlyElementsOf(rowEvents("big.orders", 100, 102));
    }

    @Test
    void shouldStopNamingBufferCapacityWhenATransactionIsLargerThanTheBuffer() throws Exception {
        insertLargeTransaction("huge.orders", 100); // ~100 KiB: larger than the 64 KiB buffer
        Consumer consumer =
                start(
                        "huge",
                        new TransactionLog(),
                        new FileCheckpointStore(work.resolve("huge.cp")),
                        10);

        assertThat(consumer.awaitTermination(Duration.ofSeconds(30))).isTrue();

        assertThat(consumer.state()).isEqualTo(ConsumerState.FAILED);
        assertThat(consumer.failure().orElseThrow().getMessage())
                .startsWith(
                        "relay response larger than the consumer buffer, raise buffer.capacity:")
                .contains("capacity=65536");
    }

    private static void insertLargeTransaction(String table, int rows) throws SQLException {
        try (Connection connection = MARIADB.server().connect();
                Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            for (int id = 1; id <= rows; id++) {
                statement.execute(
                        "INSERT INTO " + table + " VALUES (" + id + ", REPEAT('x', 1000))");
            }
            connection.commit();
        }
    }

    @Test
    void shouldWriteEveryEventAsAJsonLineWhenUsingTheJsonLinesSink() throws Exception {
        MARIADB.server()
                .execute(
                        "INSERT INTO j.orders VALUES (1, 'ann', 10.00), (2, 'bob', 20.00), (3, 'cy', 30.00)",
                        "UPDATE j.orders SET total = 12.50 WHERE id = 1",
                        "DELETE FROM j.orders WHERE id = 2");
        Path file = work.resolve("sink/j.jsonl");
        List<String> lines;
        try (JsonLinesFileCallback sink = new JsonLinesFileCallback(file)) {
            Consumer consumer = start("j", sink, new FileCheckpointStore(work.resolve("j.cp")), 10);
            awaitUntil(consumer, () -> consumer.status().transactionsDelivered() >= 3);
            awaitUntil(
                    consumer,
                    () -> consumer.status().checkpointScn() >= consumer.status().pulledScn());
            lines = Files.readAllLines(file);
            consumer.close();
        }

        assertThat(lines).hasSize(5);
        assertThat(lines.get(0))
                .contains("\"op\":\"INSERT\"")
                .contains("\"db\":\"j\",\"table\":\"orders\"")
                .contains("\"key\":{\"id\":1}")
                .contains("\"after\":{\"id\":1,\"customer\":\"ann\",\"total\":\"10.00\"}");
        assertThat(lines.get(3))
                .contains("\"op\":\"UPDATE\"")
                .contains("\"before\":{\"id\":1,\"customer\":\"ann\",\"total\":\"10.00\"}")
                .contains("\"after\":{\"id\":1,\"customer\":\"ann\",\"total\":\"12.50\"}");
        assertThat(lines.get(4))
                .contains("\"op\":\"DELETE\"")
                .contains("\"before\":{\"id\":2,\"customer\":\"bob\",\"total\":\"20.00\"}")
                .doesNotContain("\"after\"");
    }

    @Test
    void shouldKeepTotalsEqualToTheDatabaseWhenRunningTheExampleCallback() throws Exception {
        try (Connection connection = MARIADB.server().connect("shop");
                Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            for (int id = 1; id <= 40; id++) {
                statement.execute(
                        "INSERT INTO orders VALUES ("
                                + id
                                + ", 'customer "
                                + id % 6
                                + "', "
                                + id
                                + ".25)");
                if (id % 4 == 0) {
                    connection.commit();
                }
            }
            statement.execute("UPDATE orders SET total = total * 2 WHERE id % 5 = 0");
            statement.execute("UPDATE orders SET customer = 'customer 9' WHERE id = 7");
            connection.commit();
            statement.execute("DELETE FROM orders WHERE id % 6 = 1");
            connection.commit();
        }
        OrderTotalsCallback totals = new OrderTotalsCallback();
        Consumer consumer =
                start("shop", totals, new FileCheckpointStore(work.resolve("shop.cp")), 3);

        Map<String, BigDecimal> expected = databaseTotals();
        awaitUntil(consumer, () -> nonZero(totals.totals()).equals(expected));

        assertThat(nonZero(totals.totals())).isEqualTo(expected);
        assertThat(totals.appliedScn()).isPositive();
    }

    private static Map<String, BigDecimal> databaseTotals() throws SQLException {
        Map<String, BigDecimal> totals = new HashMap<>();
        try (Connection connection = MARIADB.server().connect("shop");
                Statement statement = connection.createStatement();
                ResultSet rows =
                        statement.executeQuery(
                                "SELECT customer, SUM(total) FROM orders GROUP BY customer")) {
            while (rows.next()) {
                totals.put(rows.getString(1), rows.getBigDecimal(2));
            }
        }
        return nonZero(totals);
    }

    private static Map<String, BigDecimal> nonZero(Map<String, BigDecimal> totals) {
        Map<String, BigDecimal> kept = new HashMap<>();
        totals.forEach(
                (customer, total) -> {
                    if (total.signum() != 0) {
                        kept.put(customer, total.setScale(2));
                    }
                });
        return kept;
    }
}

package io.changegrid.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.config.YamlConfigFile;
import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.ConsumerState;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.api.EventView;
import io.changegrid.consumer.checkpoint.FileCheckpointStore;
import io.changegrid.consumer.config.Subscription;
import io.changegrid.relay.Relay;
import io.changegrid.relay.config.RelayConfiguration;
import io.changegrid.testkit.MariaDbExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Partitioning with policies end to end: two relays splitting one MariaDB source (by table, by key
 * hash), and consumers splitting one relay's stream; across the partitions every source row change
 * reaches the consumer set exactly once.
 */
class PolicySplitIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    private static final int TABLES = 4;

    @TempDir Path work;

    private final List<AutoCloseable> running = new ArrayList<>();
    private final Queue<String> received = new ConcurrentLinkedQueue<>();
    private final List<Consumer> consumers = new ArrayList<>();
    private final Map<String, AtomicInteger> receivedBy = new ConcurrentHashMap<>();

    @AfterEach
    void stop() throws Exception {
        for (int i = running.size() - 1; i >= 0; i--) {
            running.get(i).close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"byTable", "byKeyHash"})
    void shouldDeliverEveryChangeOnceWhenTwoRelaysSplitTheSource(String partitioner)
            throws Exception {
        String db = "split_" + partitioner.toLowerCase();
        createTables(db);
        String policies =
                """
                policies:
                  - include: [%s.*]
                    partition: {%s: {partitions: 2}}
                """
                        .formatted(db, partitioner);
        for (int relay = 0; relay < 2; relay++) {
            Relay started =
                    startRelay(
                            policies,
                            relay,
                            9_500 + relay + (partitioner.equals("byTable") ? 0 : 10));
            startConsumer("relay-" + relay, started, Subscription.all());
        }

        List<String> expected = load(db, 150, new Random(42));

        awaitReceived(expected.size());
        assertExactlyOnce(expected);
    }

    @Test
    void shouldDeliverEveryChangeOnceWhenConsumersSplitAStreamWithPolicies() throws Exception {
        String db = "consumers";
        createTables(db);
        Relay relay = startRelay("{}", -1, 9_520);
        Subscription subscription =
                Subscription.policies(
                        """
                        policies:
                          - include: [%s.*]
                            where: tenant <> 99 OR tenant IS NULL
                            partition: {byKeyHash: {partitions: 3}}
                        """
                                .formatted(db));
        for (int p = 0; p < 3; p++) {
            startConsumer("consumer-" + p, relay, subscription.partition(p, 3));
        }

        List<String> expected = load(db, 150, new Random(7));
        try (Connection connection = MARIADB.server().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO " + db + ".t0 VALUES (100000, 99, 'filtered out')");
        }

        awaitReceived(expected.size());
        assertExactlyOnce(expected);
        assertThat(received).noneMatch(change -> change.contains(":100000:"));
    }

    @Test
    void shouldStopTheConsumerWhenItsRelayRestartsWithOtherTransforms() throws Exception {
        String db = "reconfigured";
        createTables(db);
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String masking =
                """
                policies:
                  - include: [%s.*]
                    transform: {mask: {note: {fixed: '*'}}}
                """
                        .formatted(db);
        Relay relay = startRelay(masking, -1, 9_530, port);
        startConsumer("reconfigured", relay, Subscription.all());
        List<String> first = load(db, 10, new Random(3));
        awaitReceived(first.size());

        relay.close();
        running.remove(relay);
        String dropping =
                """
                policies:
                  - include: [%s.*]
                    transform: {drop: [note]}
                """
                        .formatted(db);
        startRelay(dropping, -1, 9_530, port);
        MARIADB.server().execute("INSERT INTO " + db + ".t0 VALUES (1000, 1, 'after')");

        Consumer consumer = consumers.get(0);
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> consumer.state() == ConsumerState.FAILED);
        assertThat(consumer.failure().orElseThrow().getMessage())
                .contains("relay serves other schemas than before")
                .contains("restart the consumer");
    }

    private static void createTables(String db) throws Exception {
        List<String> statements = new ArrayList<>(List.of("CREATE DATABASE " + db));
        for (int t = 0; t < TABLES; t++) {
            statements.add(
                    "CREATE TABLE "
                            + db
                            + ".t"
                            + t
                            + " (id INT PRIMARY KEY, tenant INT, note VARCHAR(40))");
        }
        MARIADB.server().execute(statements.toArray(new String[0]));
    }

    /**
     * Transactions of inserts, updates and deletes over several tables; returns every row change as
     * {@code table:id:op}, each unique.
     */
    private static List<String> load(String db, int transactions, Random random) throws Exception {
        List<String> changes = new ArrayList<>();
        Map<String, Integer> nextId = new HashMap<>();
        Map<String, List<Integer>> live = new HashMap<>();
        try (Connection connection = MARIADB.server().connect();
                Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            for (int txn = 0; txn < transactions; txn++) {
                for (int change = 0; change < 1 + random.nextInt(4); change++) {
                    String table = "t" + random.nextInt(TABLES);
                    List<Integer> rows = live.computeIfAbsent(table, k -> new ArrayList<>());
                    int kind = rows.isEmpty() ? 0 : random.nextInt(3);
                    if (kind == 0) {
                        int id = nextId.merge(table, 1, Integer::sum);
                        statement.execute(
                                "INSERT INTO "
                                        + db
                                        + "."
                                        + table
                                        + " VALUES ("
                                        + id
                                        + ", "
                                        + random.nextInt(10)
                                        + ", 'n"
                                        + id
                                        + "')");
                        rows.add(id);
                        changes.add(table + ":" + id + ":INSERT");
                    } else {
                        // each row is updated at most once and deleted at most once: unique names
                        int id = rows.remove(random.nextInt(rows.size()));
                        String op = kind == 1 ? "UPDATE" : "DELETE";
                        statement.execute(
                                kind == 1
                                        ? "UPDATE "
                                                + db
                                                + "."
                                                + table
                                                + " SET note = 'u' WHERE id = "
                                                + id
                                        : "DELETE FROM " + db + "." + table + " WHERE id = " + id);
                        changes.add(table + ":" + id + ":" + op);
                    }
                }
                connection.commit();
            }
        }
        return changes;
    }

    private Relay startRelay(String policiesYaml, int partition, long serverId) throws Exception {
        return startRelay(policiesYaml, partition, serverId, 0);
    }

    private Relay startRelay(String policiesYaml, int partition, long serverId, int port)
            throws Exception {
        Map<String, Object> tree = new LinkedHashMap<>(YamlConfigFile.parse(policiesYaml, "test"));
        Relay relay =
                Relay.start(
                        RelayConfiguration.load(
                                tree,
                                Map.ofEntries(
                                        Map.entry("source.host", MARIADB.server().host()),
                                        Map.entry(
                                                "source.port",
                                                Integer.toString(MARIADB.server().port())),
                                        Map.entry("source.user", MARIADB.server().user()),
                                        Map.entry("source.password", MARIADB.server().password()),
                                        Map.entry("source.serverId", Long.toString(serverId)),
                                        Map.entry("source.heartbeatInterval", "200ms"),
                                        Map.entry("buffer.capacity", "16MiB"),
                                        Map.entry("buffer.segmentSize", "1MiB"),
                                        Map.entry("capture.partition", Integer.toString(partition)),
                                        Map.entry(
                                                "state.directory",
                                                work.resolve("relay-" + serverId).toString()),
                                        Map.entry("http.port", Integer.toString(port)))));
        running.add(relay);
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(() -> relay.buffer().newestScn() >= 0);
        return relay;
    }

    private void startConsumer(String name, Relay relay, Subscription subscription)
            throws Exception {
        ConsumerCallback collect =
                new ConsumerCallback() {
                    @Override
                    public CallbackResult onEvent(EventView event) {
                        if (event.operation().isRowChange()) {
                            receivedBy
                                    .computeIfAbsent(name, k -> new AtomicInteger())
                                    .incrementAndGet();
                            received.add(
                                    event.table() + ":" + event.key()[0] + ":" + event.operation());
                        }
                        return CallbackResult.SUCCESS;
                    }
                };
        Consumer consumer =
                Consumer.builder()
                        .name(name)
                        .relays(RelayFixture.url(relay))
                        .subscription(subscription)
                        .pollTimeout(Duration.ofSeconds(2))
                        .callback(collect)
                        .checkpointStore(new FileCheckpointStore(work.resolve(name + ".cp")))
                        .build();
        running.add(consumer::close);
        consumer.start();
        consumers.add(consumer);
    }

    private void awaitReceived(int count) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(
                        () ->
                                received.size() >= count
                                        || consumers.stream()
                                                .anyMatch(c -> c.state() == ConsumerState.FAILED));
        consumers.forEach(c -> assertThat(c.failure()).isEmpty());
        // whatever else would arrive (a duplicate) arrives within a few polls
        Awaitility.await().pollDelay(Duration.ofSeconds(1)).until(() -> true);
    }

    private void assertExactlyOnce(List<String> expected) {
        Map<String, Long> counts =
                received.stream()
                        .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        assertThat(counts.keySet()).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(counts.values()).allMatch(count -> count == 1);
        assertThat(receivedBy.keySet()).as("every partition had a share").hasSize(consumers.size());
    }
}

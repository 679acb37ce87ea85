package io.changegrid.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.gridkit.process.JavaProcess;
import io.changegrid.gridkit.server.FreePort;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;

/**
 * The relay crash scenario every source must pass: {@code kill -9} of a relay process in the middle
 * of a load, then a restart; a consumer that was lagging behind at the moment of the crash still
 * receives every transaction exactly once, in SCN order, with no gap. A source's IT supplies the
 * {@code source:} block of the relay's configuration and a way to insert rows into its {@code
 * shop.orders (id INT PRIMARY KEY, note VARCHAR(200))}, one transaction per row.
 */
final class RelayCrashCheck {

    /** Inserts the rows {@code from..to} (inclusive) into the source's {@code shop.orders}. */
    @FunctionalInterface
    interface OrderWriter {
        void insert(int from, int to) throws Exception;
    }

    private RelayCrashCheck() {}

    /**
     * Runs the scenario and asserts its outcome.
     *
     * @param work a directory of the test's own
     * @param sourceLines the relay's {@code source:} settings, one YAML line each, indented
     * @param logName the file name, in the temporary directory, of the relays' output
     */
    static void run(Path work, List<String> sourceLines, String logName, OrderWriter orders)
            throws Exception {
        int port = FreePort.pick();
        Path config = work.resolve("relay.yaml");
        List<String> yaml = new ArrayList<>();
        yaml.add("source:");
        yaml.addAll(sourceLines);
        yaml.addAll(
                List.of(
                        "capture:",
                        "  include: [shop.orders]",
                        "buffer:",
                        "  capacity: 64MiB",
                        "  segmentSize: 1MiB",
                        "state:",
                        "  directory: " + work.resolve("state"),
                        "http:",
                        "  port: " + port,
                        ""));
        Files.writeString(config, String.join("\n", yaml));
        Path log = Path.of(System.getProperty("java.io.tmpdir"), logName);
        Files.deleteIfExists(log);
        StreamClient client = new StreamClient(port);
        Consumer consumer = new Consumer(client);

        JavaProcess first = RelayJvm.start(config, log);
        try {
            awaitHealthy(client, first);
            orders.insert(1, 300);
            consumer.readUntilRows(300);
            orders.insert(301, 700); // published, but the consumer has not read these yet
            awaitNewest(client, 700 + 300);
            first.kill();
        } finally {
            first.close();
        }
        orders.insert(701, 900); // committed while the relay is down

        try (JavaProcess second = RelayJvm.start(config, log)) {
            awaitHealthy(client, second);
            orders.insert(901, 1200);
            consumer.readUntilRows(1200);
            assertThat(second.isAlive()).as(second.logTail()).isTrue();
            stopAsRequested(second);
        }
        orders.insert(1201, 1300); // committed while the relay is stopped

        try (JavaProcess third = RelayJvm.start(config, log)) {
            awaitHealthy(client, third);
            consumer.readUntilRows(1300);
        }

        assertThat(consumer.tooOld).as("no 410 after the restart").isZero();
        assertThat(consumer.rows.keySet()).containsExactlyInAnyOrderElementsOf(range(1, 1300));
        assertThat(consumer.rows.values()).as("every row exactly once").containsOnly(1);
        for (int i = 1; i < consumer.transactionScns.size(); i++) {
            assertThat(consumer.transactionScns.get(i))
                    .isGreaterThan(consumer.transactionScns.get(i - 1));
        }
    }

    /**
     * Sends SIGTERM, as a service manager does: the relay ends after its final position with exit
     * status 0 and says so in its last line.
     */
    private static void stopAsRequested(JavaProcess relay) throws Exception {
        relay.process().destroy();
        assertThat(relay.process().waitFor(60, TimeUnit.SECONDS)).as(relay.logTail()).isTrue();
        assertThat(relay.process().exitValue()).as(relay.logTail()).isZero();
        List<String> lines = Files.readAllLines(relay.log());
        assertThat(lines).last().asString().contains("relay stopped: position=");
    }

    private static List<Integer> range(int from, int to) {
        List<Integer> ids = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            ids.add(i);
        }
        return ids;
    }

    private static void awaitHealthy(StreamClient client, JavaProcess relay) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(100, TimeUnit.MILLISECONDS)
                .ignoreExceptions()
                .until(
                        () -> {
                            assertThat(relay.isAlive()).as(relay.logTail()).isTrue();
                            return client.getText("/v1/health").statusCode() == 200;
                        });
    }

    /** Waits until the relay has published at least {@code transactions} row transactions. */
    private static void awaitNewest(StreamClient client, int transactions) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(50, TimeUnit.MILLISECONDS)
                .until(
                        () ->
                                client.getText("/metrics")
                                                .body()
                                                .lines()
                                                .filter(
                                                        l ->
                                                                l.startsWith(
                                                                        "changegrid_relay_published_events_total"))
                                                .mapToDouble(
                                                        l ->
                                                                Double.parseDouble(
                                                                        l.substring(
                                                                                l.lastIndexOf(' ')
                                                                                        + 1)))
                                                .sum()
                                        >= transactions - 300);
    }

    /** A consumer that long-polls the relay, retrying the same checkpoint while it is down. */
    private static final class Consumer {
        static final Pattern SCN = Pattern.compile("\"scn\":(\\d+)");
        static final Pattern KEY = Pattern.compile("\"key\":\\{\"id\":(\\d+)}");
        final StreamClient client;
        final Map<Integer, Integer> rows = new HashMap<>();
        final List<Long> transactionScns = new ArrayList<>();
        int tooOld;
        long checkpoint = -1;

        Consumer(StreamClient client) {
            this.client = client;
        }

        void readUntilRows(int id) {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ZERO)
                    .ignoreExceptions()
                    .until(
                            () -> {
                                poll();
                                return rows.containsKey(id);
                            });
        }

        private void poll() throws Exception {
            HttpResponse<String> response =
                    client.getText(
                            "/v1/stream?from="
                                    + checkpoint
                                    + "&timeoutMs=500&maxBytes=4096&format=json");
            if (response.statusCode() == 410) {
                tooOld++;
                return;
            }
            assertThat(response.statusCode()).isEqualTo(200);
            for (String line : response.body().lines().toList()) {
                Matcher scn = SCN.matcher(line);
                assertThat(scn.find()).as(line).isTrue();
                if (line.contains("\"op\":\"END_OF_TRANSACTION\"")) {
                    transactionScns.add(Long.parseLong(scn.group(1)));
                } else if (line.contains("\"op\":\"INSERT\"")) {
                    Matcher key = KEY.matcher(line);
                    assertThat(key.find()).as(line).isTrue();
                    rows.merge(Integer.parseInt(key.group(1)), 1, Integer::sum);
                }
            }
            checkpoint = StreamClient.lastScn(response);
        }
    }
}

package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.changegrid.appliers.config.ApplierSettings;
import io.changegrid.appliers.group.PartitionAppliers;
import io.changegrid.consumer.group.GroupConsumer;
import io.changegrid.consumer.group.PartitionConfigs;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.EmbeddedZooKeeperExtension;
import io.changegrid.testkit.MariaDbExtension;
import io.changegrid.testkit.PostgresDatabaseExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Grafana dashboard ({@code deploy/grafana/changegrid.json}) against what the components really
 * export: a relay on a private mariadbd and a JDBC applier group member (in-process ZooKeeper,
 * local PostgreSQL) apply a few rows, both {@code GET /metrics} are scraped, and every metric named
 * in a dashboard query must be among the scraped ones. The member's own meters are checked to count
 * what happened.
 */
class DashboardMetricsIT {

    private static final Path DASHBOARD = Path.of("..", "deploy", "grafana", "changegrid.json");
    private static final int ROWS = 12;

    @RegisterExtension static final MariaDbExtension SOURCE = new MariaDbExtension();

    @RegisterExtension
    static final PostgresDatabaseExtension POSTGRES = new PostgresDatabaseExtension();

    @RegisterExtension
    static final EmbeddedZooKeeperExtension ZOOKEEPER = new EmbeddedZooKeeperExtension();

    @TempDir Path relayState;

    @Test
    void shouldExportEveryMetricTheDashboardQueriesWhenRelayAndApplierMemberRun() throws Exception {
        Target target = Target.of(POSTGRES.database());
        SOURCE.server()
                .execute(
                        "CREATE DATABASE dash",
                        "CREATE TABLE dash.orders (id INT PRIMARY KEY, note VARCHAR(40))");
        target.execute(
                "CREATE SCHEMA dash",
                "CREATE TABLE dash.orders (id integer PRIMARY KEY, note varchar(40))");
        try (Relay relay = Pipeline.startRelay(SOURCE.server(), relayState, 9_807);
                GroupConsumer member = member(relay, target)) {
            for (int i = 1; i <= ROWS; i++) {
                SOURCE.server()
                        .execute("INSERT INTO dash.orders VALUES (" + i + ", 'order " + i + "')");
            }
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> count(target) == ROWS);

            String relayMetrics = get(Pipeline.url(relay) + "/metrics");
            String memberMetrics = get(member.statusUrl() + "/metrics");
            assertThat(sample(memberMetrics, "changegrid_applier_rows_applied_total"))
                    .as("rows applied, as the target holds them")
                    .isGreaterThanOrEqualTo(ROWS);
            assertThat(sample(memberMetrics, "changegrid_consumer_events_delivered_total"))
                    .isGreaterThanOrEqualTo(ROWS);
            assertThat(sample(memberMetrics, "changegrid_consumer_partitions_owned")).isEqualTo(1);
            assertThat(memberMetrics).contains("jvm_memory_used_bytes");

            Set<String> exported = new TreeSet<>(PromQlMetricNames.exported(relayMetrics));
            exported.addAll(PromQlMetricNames.exported(memberMetrics));
            List<String> expressions = expressions();
            assertThat(expressions).hasSizeGreaterThanOrEqualTo(15);
            List<String> missing = new ArrayList<>();
            Set<String> queried = new TreeSet<>();
            for (String expression : expressions) {
                for (String name : PromQlMetricNames.of(expression)) {
                    queried.add(name);
                    if (!exported.contains(name)) {
                        missing.add(name + " in: " + expression);
                    }
                }
            }
            System.out.println("dashboard metrics checked: " + queried);
            assertThat(queried).hasSizeGreaterThanOrEqualTo(15);
            assertThat(missing).as("dashboard metrics nobody exports").isEmpty();
        }
    }

    private GroupConsumer member(Relay relay, Target target) throws Exception {
        Map<String, Object> settings = new HashMap<>();
        settings.put("cluster.zookeeper", ZOOKEEPER.zooKeeper().connectString());
        settings.put("cluster.group", "dash");
        settings.put("cluster.instance", "m1");
        settings.put("cluster.sessionTimeout", "5s");
        settings.put("cluster.status.port", "0");
        settings.put("subscription.tables", "dash.*");
        settings.put("subscription.partitions", "1");
        settings.put("relays", Pipeline.url(relay));
        settings.put("fetch.pollTimeout", "1s");
        settings.put("target.url", target.url());
        settings.put("target.user", target.user());
        PartitionConfigs configs =
                PartitionConfigs.of(ApplierSettings.SCHEMA, settings, Map.of(), List.of());
        return GroupConsumer.start(configs, PartitionAppliers.from(configs.config()));
    }

    /** Every {@code expr} of the dashboard's panels, rows included. */
    private static List<String> expressions() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(Files.readString(DASHBOARD));
        List<String> found = new ArrayList<>();
        for (JsonNode expr : dashboard.findValues("expr")) {
            found.add(expr.asText());
        }
        return found;
    }

    /** The sum of a metric's samples in an exposition. */
    private static double sample(String exposition, String name) {
        Matcher line =
                Pattern.compile("(?m)^" + Pattern.quote(name) + "(?:\\{[^}]*})? (\\S+)$")
                        .matcher(exposition);
        double sum = 0;
        boolean any = false;
        while (line.find()) {
            sum += Double.parseDouble(line.group(1));
            any = true;
        }
        assertThat(any).as("exported: %s", name).isTrue();
        return sum;
    }

    private static String get(String url) throws Exception {
        HttpResponse<String> response =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(URI.create(url))
                                        .timeout(Duration.ofSeconds(10))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s", url).isEqualTo(200);
        return response.body();
    }

    private static long count(Target target) {
        try {
            return target.count("SELECT count(*) FROM dash.orders");
        } catch (SQLException e) {
            return -1;
        }
    }
}

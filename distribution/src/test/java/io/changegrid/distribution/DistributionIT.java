package io.changegrid.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.changegrid.gridkit.server.FreePort;
import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.gridkit.server.PostgresDatabase;
import io.changegrid.testkit.MariaDbExtension;
import io.changegrid.testkit.PostgresDatabaseExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution archive as an operator installs it: unpacked, its launchers, its example
 * configuration and its systemd units are what run a grid. Nothing here uses the build's class path
 * but for the test's own servers and checks.
 */
class DistributionIT {

    @RegisterExtension static final MariaDbExtension SOURCE = new MariaDbExtension();

    @RegisterExtension
    static final PostgresDatabaseExtension TARGET = new PostgresDatabaseExtension();

    @TempDir static Path work;
    static Distribution distribution;

    @BeforeAll
    static void unpack() throws Exception {
        distribution = Distribution.unpack(Files.createDirectories(work.resolve("opt")));
    }

    @Test
    void shouldPrintEachComponentsUsageWhenAskedForHelp() throws Exception {
        for (String launcher :
                List.of(
                        "changegrid-relay",
                        "changegrid-consumer",
                        "changegrid-applier",
                        "changegrid-console")) {
            Path log = work.resolve(launcher + "-help.log");
            Process process = distribution.start(launcher, log, List.of("--help"));
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            String output = Files.readString(log);
            assertThat(process.exitValue()).as(output).isZero();
            assertThat(output).as(launcher).contains("Usage:").contains("--config");
        }
    }

    @Test
    void shouldPassSystemdVerificationWhenInstalledWhereTheUnitsSay() throws Exception {
        assumeTrue(
                Files.isExecutable(Path.of("/usr/bin/systemd-analyze")),
                "systemd-analyze is not installed");
        Path units = Files.createDirectories(work.resolve("units"));
        try (var files = Files.list(distribution.home().resolve("systemd"))) {
            for (Path unit : files.toList()) {
                String name = unit.getFileName().toString().replace("@.", "@main.");
                String text =
                        Files.readString(unit)
                                .replace("/opt/changegrid", distribution.home().toString());
                Path installed = units.resolve(name);
                Files.writeString(installed, text);
                Process verify =
                        new ProcessBuilder("systemd-analyze", "verify", installed.toString())
                                .redirectErrorStream(true)
                                .start();
                String output =
                        new String(verify.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(verify.waitFor(60, TimeUnit.SECONDS)).isTrue();
                assertThat(verify.exitValue()).as(name + ": " + output).isZero();
                assertThat(output).as(name + ": no warning").isBlank();
            }
        }
    }

    /**
     * ZooKeeper, a relay and an applier group member, each started by its launcher with the example
     * configuration (only addresses, ports and directories overridden), replicate a MariaDB table
     * into PostgreSQL; a requested stop ends the relay and the applier with exit status 0.
     */
    @Test
    void shouldReplicateWhenAGridRunsFromTheLaunchersAndExampleConfiguration() throws Exception {
        MariaDbServer source = SOURCE.server();
        PostgresDatabase target = TARGET.database();
        source.execute(
                "CREATE DATABASE shop",
                "CREATE TABLE shop.orders (id INT PRIMARY KEY, note VARCHAR(100))");

        int zkPort = FreePort.pick();
        Path zkConfig = work.resolve("zookeeper.properties");
        Files.writeString(
                zkConfig,
                Files.readString(distribution.config("zookeeper.properties"))
                        .replace("clientPort=2181", "clientPort=" + zkPort)
                        .replace(
                                "dataDir=/var/lib/changegrid/zookeeper",
                                "dataDir=" + work.resolve("zookeeper-data")));
        String zookeeper = "127.0.0.1:" + zkPort + "/changegrid";
        int relayPort = FreePort.pick();
        List<Process> started = new ArrayList<>();
        try {
            Process zk =
                    distribution.start(
                            "changegrid-zookeeper",
                            work.resolve("zookeeper.log"),
                            List.of(zkConfig.toString()));
            started.add(zk);
            Process relay =
                    distribution.start(
                            "changegrid-relay",
                            work.resolve("relay.log"),
                            List.of(
                                    "--config", distribution.config("relay.yaml").toString(),
                                    "--set", "source.host=" + source.host(),
                                    "--set", "source.port=" + source.port(),
                                    "--set", "source.user=" + source.user(),
                                    "--set", "source.password=" + source.password(),
                                    "--set", "state.directory=" + work.resolve("relay-state"),
                                    "--set", "http.host=127.0.0.1",
                                    "--set", "http.port=" + relayPort,
                                    "--set", "cluster.zookeeper=" + zookeeper,
                                    "--set",
                                            "cluster.advertisedUrl=http://127.0.0.1:" + relayPort));
            started.add(relay);
            Process applier =
                    distribution.start(
                            "changegrid-applier",
                            work.resolve("applier.log"),
                            List.of(
                                    "--config", distribution.config("applier.yaml").toString(),
                                    "--set", "cluster.zookeeper=" + zookeeper,
                                    "--set", "subscription.partitions=2",
                                    "--set", "target.url=" + target.jdbcUrl(),
                                    "--set", "target.user=" + target.user(),
                                    "--set", "target.password=" + target.password()));
            started.add(applier);

            awaitHealthy(relay, relayPort); // source.start is current: rows before it are not read
            for (int i = 1; i <= 200; i++) {
                source.execute("INSERT INTO shop.orders VALUES (" + i + ", 'order " + i + "')");
            }
            Awaitility.await()
                    .atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(250))
                    .ignoreExceptions()
                    .until(
                            () -> {
                                assertThat(relay.isAlive()).as(tail("relay.log")).isTrue();
                                assertThat(applier.isAlive()).as(tail("applier.log")).isTrue();
                                return count(target, "SELECT count(*) FROM shop.orders") == 200;
                            });

            int consolePort = FreePort.pick();
            Process console =
                    distribution.start(
                            "changegrid-console",
                            work.resolve("console.log"),
                            List.of(
                                    "--config", distribution.config("console.yaml").toString(),
                                    "--set", "cluster.zookeeper=" + zookeeper,
                                    "--set", "http.port=" + consolePort));
            started.add(console);
            HttpRequest grid =
                    HttpRequest.newBuilder(
                                    URI.create("http://127.0.0.1:" + consolePort + "/api/grid"))
                            .build();
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .ignoreExceptions()
                    .until(
                            () -> {
                                assertThat(console.isAlive()).as(tail("console.log")).isTrue();
                                String body =
                                        HttpClient.newHttpClient()
                                                .send(grid, BodyHandlers.ofString())
                                                .body();
                                return body.contains("127.0.0.1:" + relayPort)
                                        && body.contains("\"replica\"");
                            });

            stopAsRequested(console, "console.log", "console ended on request");
            stopAsRequested(applier, "applier.log", "group member stopped: group=replica");
            stopAsRequested(relay, "relay.log", "relay stopped: position=");
        } finally {
            for (Process process : started) {
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    private static void stopAsRequested(Process process, String log, String lastLine)
            throws Exception {
        process.toHandle().destroy(); // SIGTERM, as systemd sends
        assertThat(process.waitFor(90, TimeUnit.SECONDS)).as(tail(log)).isTrue();
        assertThat(process.exitValue()).as(tail(log)).isZero();
        assertThat(Files.readAllLines(work.resolve(log))).last().asString().contains(lastLine);
    }

    private static void awaitHealthy(Process relay, int port) {
        HttpClient client = HttpClient.newHttpClient();
        HttpRequest health =
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/health"))
                        .build();
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .ignoreExceptions()
                .until(
                        () -> {
                            assertThat(relay.isAlive()).as(tail("relay.log")).isTrue();
                            return client.send(health, BodyHandlers.discarding()).statusCode()
                                    == 200;
                        });
    }

    private static long count(PostgresDatabase database, String sql) throws Exception {
        try (Connection connection = database.connect();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static String tail(String log) throws Exception {
        List<String> lines = Files.readAllLines(work.resolve(log));
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}

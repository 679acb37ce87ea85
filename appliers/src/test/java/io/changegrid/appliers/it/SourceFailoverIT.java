package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.appliers.it.TableContents.Spec;
import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.JdbcApplier;
import io.changegrid.consumer.Consumer;
import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.protocol.StreamResponse;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.PostgresDatabaseExtension;
import io.changegrid.testkit.SwitchableTcpProxy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A MariaDB primary and its GTID replica, a steady load, two relays with {@code source.resume:
 * gtid} reading the primary through addresses the test moves (a VIP), and a PostgreSQL applier on
 * the first relay. The replica is promoted, after a planned switch or after the primary was killed
 * with SIGKILL, and each relay's address is moved to it at a different moment. The target ends
 * equal to the promoted server by checksum, nothing applied twice (target triggers record every
 * replay), and both relays gave every transaction they both hold the same SCN, before and after the
 * switch.
 */
class SourceFailoverIT {

    @RegisterExtension
    static final PostgresDatabaseExtension POSTGRES = new PostgresDatabaseExtension();

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Pattern SCN = Pattern.compile("\"scn\":(\\d+)");
    private static final Pattern TXN = Pattern.compile("\"txn\":\"([^\"]*)\"");
    private static final Pattern OP = Pattern.compile("\"op\":\"([A-Z_]+)\"");

    /** How the primary goes away. */
    enum Switch {
        /** Writes stop, the replica catches up, then it is promoted; the old primary lives on. */
        PLANNED,
        /** The primary is killed with SIGKILL under load; the replica is promoted. */
        KILL
    }

    @TempDir Path work;
    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    @ParameterizedTest(name = "switch={0}")
    @EnumSource(Switch.class)
    void shouldApplyEveryTransactionOnceWhenTheReplicaIsPromoted(Switch kind) throws Exception {
        long seed = Long.getLong("changegrid.seed", System.nanoTime());
        System.out.println("seed=" + seed + " (rerun with -Dchangegrid.seed=" + seed + ")");
        String db = "failover_" + kind.name().toLowerCase(java.util.Locale.ROOT);
        GtidReplicaPair pair = GtidReplicaPair.start();
        closing.add(pair);
        pair.primary.execute(AccountLoad.schema(db));
        pair.awaitReplicaCaughtUp();
        Target target = Target.of(POSTGRES.database());
        createTarget(target, db);

        SwitchableTcpProxy addressA = proxy(pair.primary);
        SwitchableTcpProxy addressB = proxy(pair.primary);
        Relay relayA = relay(pair.primary, addressA, "a", 9_821);
        Relay relayB = relay(pair.primary, addressB, "b", 9_822);
        JdbcApplier applier =
                JdbcApplier.open(
                        ApplierOptions.builder(target.url())
                                .credentials(target.user(), target.password())
                                .consumerGroup(db)
                                .build());
        closing.add(applier);
        Consumer consumer = Pipeline.consume(relayA, db, applier, applier.checkpointStore(), 20);
        closing.add(consumer);
        AccountLoad load = new AccountLoad(db, seed);
        closing.add(load);
        load.writeTo(pair.primary);
        awaitMore(load::committed, 150);

        if (kind == Switch.PLANNED) {
            load.writeTo(null);
            load.awaitPaused();
            pair.primary.execute("SET GLOBAL read_only = ON");
            pair.awaitReplicaCaughtUp();
            pair.promote();
        } else {
            // Each relay stops hearing the primary at another moment; the replica then has every
            // transaction they read (a relay that read past what the replica received would
            // rightly refuse the promoted server: docs/relay.md).
            addressB.freeze();
            awaitMore(load::committed, 60);
            addressA.freeze();
            pair.awaitReplicaCaughtUp();
            awaitMore(load::committed, 60);
            pair.primary.kill();
            load.writeTo(null);
            pair.promoteReplicaAfterCrash();
        }
        addressA.switchTo(pair.replica.host(), pair.replica.port());
        load.writeTo(pair.replica);
        awaitMore(load::committed, 100);
        addressB.switchTo(pair.replica.host(), pair.replica.port());
        awaitMore(load::committed, 100);
        load.close();
        String end = GtidReplicaPair.gtidBinlogPos(pair.replica);
        System.out.println(
                "switch="
                        + kind
                        + ", committed="
                        + load.committed()
                        + ", failedAttempts="
                        + load.failed()
                        + ", promotedServerAt="
                        + end);

        assertTargetEqualsSource(consumer, target, pair.replica, db);
        assertThat(replays(target, db)).as("changes applied twice").isEmpty();
        assertThat(relayA.failure()).isNull();
        assertThat(relayB.failure()).isNull();
        long endSequence = GtidReplicaPair.GtidPositions.sequence(end);
        Map<String, Long> scnsA = transactions(relayA, endSequence);
        Map<String, Long> scnsB = transactions(relayB, endSequence);
        List<String> both = new ArrayList<>(scnsA.keySet());
        both.retainAll(scnsB.keySet());
        assertThat(both)
                .as("both relays hold transactions of the old and of the new primary")
                .anyMatch(gtid -> gtid.startsWith("0-1-"))
                .anyMatch(gtid -> gtid.startsWith("0-2-"));
        for (String gtid : both) {
            assertThat(scnsB.get(gtid))
                    .as("SCN of %s on both relays", gtid)
                    .isEqualTo(scnsA.get(gtid));
        }
        assertThat(timeline(relayA)).isEqualTo("mariadb-gtid:domain=0").isEqualTo(timeline(relayB));
        System.out.println(
                "transactions on both relays with equal SCNs: "
                        + both.size()
                        + ", relayA="
                        + scnsA.size()
                        + ", relayB="
                        + scnsB.size());
    }

    private SwitchableTcpProxy proxy(MariaDbServer server) throws Exception {
        SwitchableTcpProxy proxy = new SwitchableTcpProxy(server.host(), server.port());
        closing.add(proxy);
        return proxy;
    }

    /** A relay reading whatever server {@code address} leads to, with {@code server}'s user. */
    private Relay relay(
            MariaDbServer server, SwitchableTcpProxy address, String name, long serverId)
            throws Exception {
        Relay relay =
                Pipeline.startRelay(
                        server,
                        work.resolve("relay-" + name),
                        serverId,
                        Map.of(
                                "source.host", "127.0.0.1",
                                "source.port", Integer.toString(address.port()),
                                "source.resume", "gtid",
                                "source.reconnectBackoffMax", "500ms"));
        closing.add(relay);
        return relay;
    }

    private static void awaitMore(IntSupplier committed, int more) {
        int goal = committed.getAsInt() + more;
        Awaitility.await()
                .atMost(WAIT)
                .pollInterval(Duration.ofMillis(20))
                .until(() -> committed.getAsInt() >= goal);
    }

    private static void createTarget(Target target, String db) throws SQLException {
        target.execute(
                "CREATE SCHEMA " + db,
                "CREATE TABLE "
                        + db
                        + ".accounts (id integer PRIMARY KEY, balance bigint, version integer)",
                "CREATE TABLE "
                        + db
                        + ".audit (id integer PRIMARY KEY, account integer, delta integer)",
                "CREATE TABLE " + db + ".replays (what text)",
                "CREATE FUNCTION "
                        + db
                        + ".audit_twice() RETURNS trigger AS $$ BEGIN INSERT INTO "
                        + db
                        + ".replays VALUES ('audit ' || OLD.id); RETURN NEW; END $$ LANGUAGE plpgsql",
                "CREATE TRIGGER twice BEFORE UPDATE ON "
                        + db
                        + ".audit FOR EACH ROW EXECUTE FUNCTION "
                        + db
                        + ".audit_twice()",
                "CREATE FUNCTION "
                        + db
                        + ".not_newer() RETURNS trigger AS $$ BEGIN IF NEW.version <= OLD.version"
                        + " THEN INSERT INTO "
                        + db
                        + ".replays VALUES ('account ' || OLD.id || ' version ' || OLD.version"
                        + " || ' -> ' || NEW.version); END IF; RETURN NEW; END $$ LANGUAGE plpgsql",
                "CREATE TRIGGER not_newer BEFORE UPDATE ON "
                        + db
                        + ".accounts FOR EACH ROW EXECUTE FUNCTION "
                        + db
                        + ".not_newer()");
    }

    private static void assertTargetEqualsSource(
            Consumer consumer, Target target, MariaDbServer source, String db) throws Exception {
        List<Spec> accounts =
                List.of(
                        Spec.of("id", Canon.TEXT),
                        Spec.of("balance", Canon.TEXT),
                        Spec.of("version", Canon.TEXT));
        List<Spec> audit =
                List.of(
                        Spec.of("id", Canon.TEXT),
                        Spec.of("account", Canon.TEXT),
                        Spec.of("delta", Canon.TEXT));
        List<String> sourceAccounts;
        List<String> sourceAudit;
        try (Connection connection = source.connect()) {
            sourceAccounts = TableContents.rows(connection, db + ".accounts", accounts, false);
            sourceAudit = TableContents.rows(connection, db + ".audit", audit, false);
        }
        Pipeline.awaitUntil(
                consumer,
                () -> {
                    try (Connection connection = target.connect()) {
                        return TableContents.rows(connection, db + ".audit", audit, true)
                                        .equals(sourceAudit)
                                && TableContents.rows(connection, db + ".accounts", accounts, true)
                                        .equals(sourceAccounts);
                    } catch (SQLException e) {
                        return false;
                    }
                },
                WAIT);
        try (Connection connection = target.connect()) {
            assertThat(
                            TableContents.checksum(
                                    TableContents.rows(
                                            connection, db + ".accounts", accounts, true)))
                    .isEqualTo(TableContents.checksum(sourceAccounts));
            assertThat(
                            TableContents.checksum(
                                    TableContents.rows(connection, db + ".audit", audit, true)))
                    .isEqualTo(TableContents.checksum(sourceAudit));
        }
        System.out.println(
                "target equals the promoted server: audit rows="
                        + sourceAudit.size()
                        + ", checksum="
                        + TableContents.checksum(sourceAudit));
    }

    private static List<String> replays(Target target, String db) throws SQLException {
        List<String> replays = new ArrayList<>();
        try (Connection connection = target.connect();
                var statement = connection.createStatement();
                var rows = statement.executeQuery("SELECT what FROM " + db + ".replays")) {
            while (rows.next()) {
                replays.add(rows.getString(1));
            }
        }
        return replays;
    }

    /**
     * Every transaction a relay holds, GTID to SCN, read from its JSON stream once it has read up
     * to {@code endSequence}; checks on the way that SCNs grow transaction by transaction.
     */
    private static Map<String, Long> transactions(Relay relay, long endSequence) throws Exception {
        Map<String, Long> scns = new LinkedHashMap<>();
        Awaitility.await()
                .atMost(WAIT)
                .pollInterval(Duration.ofMillis(100))
                .until(
                        () -> {
                            String position = relay.status().fetchPosition();
                            int at = position.indexOf(" gtid=");
                            if (at < 0) {
                                return false;
                            }
                            String gtid = position.substring(at + 6).split(" ")[0];
                            return GtidReplicaPair.GtidPositions.sequence(gtid) >= endSequence;
                        });
        HttpClient http = HttpClient.newHttpClient();
        long from = -1;
        long previous = Long.MIN_VALUE;
        while (true) {
            HttpResponse<String> answer =
                    http.send(
                            HttpRequest.newBuilder(
                                            URI.create(
                                                    Pipeline.url(relay)
                                                            + "/v1/stream?format=json&timeoutMs=0"
                                                            + "&maxBytes=4194304&from="
                                                            + from))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            for (String line : answer.body().split("\n")) {
                Matcher op = OP.matcher(line);
                Matcher txn = TXN.matcher(line);
                Matcher scn = SCN.matcher(line);
                if (!op.find() || !scn.find() || !txn.find() || "HEARTBEAT".equals(op.group(1))) {
                    continue;
                }
                long value = Long.parseLong(scn.group(1));
                Long known = scns.putIfAbsent(txn.group(1), value);
                if (known == null) {
                    assertThat(value)
                            .as("SCN of %s after the previous", txn.group(1))
                            .isGreaterThan(previous);
                    previous = value;
                } else {
                    assertThat(value).as("one SCN per transaction").isEqualTo(known);
                }
            }
            long last =
                    Long.parseLong(
                            answer.headers().firstValue(StreamResponse.LAST_SCN).orElseThrow());
            if (last <= from) {
                return scns;
            }
            from = last;
        }
    }

    private static String timeline(Relay relay) throws Exception {
        HttpResponse<String> answer =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(
                                                URI.create(
                                                        Pipeline.url(relay)
                                                                + "/v1/stream?timeoutMs=0&from="
                                                                + relay.buffer().newestScn()))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        return answer.headers().firstValue(StreamResponse.TIMELINE).orElse("");
    }
}

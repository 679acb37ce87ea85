package io.changegrid.deploy.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Relay discovery and failover: the group's partitions spread over the two relays they found in
 * ZooKeeper; {@code kill -9} of one mid-stream moves its partitions to the replica at the same SCN,
 * with no row lost or repeated, and its registration goes away.
 */
class ConsumerGroupRelayFailoverIT {

    private static final int ROWS = 2_000;
    private static final Duration SESSION = Duration.ofSeconds(5);
    private static LocalClusterFixture cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster =
                LocalClusterFixture.start(
                        Path.of("target", "it-clusters", "relay"), 3, 12, SESSION);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void shouldReplaceAKilledRelayByItsReplicaWithNoLossWhenARelayDiesMidStream() throws Exception {
        String first = cluster.directory().plan().getProperty("relay.relay-1.url") + "/";
        String second = cluster.directory().plan().getProperty("relay.relay-2.url") + "/";
        try (RowLoad load = RowLoad.start(cluster.source(), ROWS, 100)) {
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> load.committed() > 400);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .untilAsserted(
                            () ->
                                    assertThat(relaysInUse())
                                            .as("partitions are spread over both registered relays")
                                            .contains(first, second));

            cluster.kill("relay-1");

            load.awaitDone(60);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    new Deliveries(cluster.written(RowLoad.TABLE))
                                                    .insertedIds()
                                                    .size()
                                            == ROWS);
        }
        Deliveries deliveries = new Deliveries(cluster.written(RowLoad.TABLE));
        assertThat(deliveries.duplicates())
                .as("the replica numbers transactions with the same SCNs: the puller resumes there")
                .isEmpty();
        assertThat(deliveries.distinctEvents()).isEqualTo(ROWS);
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(relaysInUse()).containsOnly(second));
        Awaitility.await()
                .atMost(SESSION.plusSeconds(15))
                .untilAsserted(
                        () -> {
                            JsonNode status = cluster.status("c1");
                            assertThat(status).as("c1 answers on its status endpoint").isNotNull();
                            assertThat(status.path("relays"))
                                    .extracting(JsonNode::asText)
                                    .as("relay-1's registration expired with its session")
                                    .containsExactly(second.substring(0, second.length() - 1));
                        });
    }

    /** The relay each partition pulls from now, over all members (each must answer). */
    private static List<String> relaysInUse() throws Exception {
        List<String> relays = new ArrayList<>();
        for (String member : List.of("c1", "c2", "c3")) {
            JsonNode status = cluster.status(member);
            assertThat(status).as("%s answers on its status endpoint", member).isNotNull();
            for (JsonNode partition : status.path("partitions")) {
                relays.add(partition.path("relay").asText());
            }
        }
        return relays;
    }
}

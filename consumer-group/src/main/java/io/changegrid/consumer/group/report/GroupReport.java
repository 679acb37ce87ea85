package io.changegrid.consumer.group.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changegrid.consumer.group.checkpoint.GroupCheckpoints;
import io.changegrid.consumer.group.checkpoint.PartitionCheckpoint;
import io.changegrid.consumer.group.cluster.GroupAssignment;
import io.changegrid.protocol.RelayApi;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One consumer group as an operator sees it, as one JSON document: its members, who owns which
 * partition, each partition's epoch and checkpoint (from ZooKeeper) and its state, lag and
 * deliveries (from the owner's status endpoint, where it runs one). Shared by {@code consumer
 * cluster status} and the console. Reads only.
 *
 * <pre>
 * {"group":"orders","partitions":2,"assigning":true,"leader":"c1",
 *  "members":[{"instance":"c1","owned":2,"statusUrl":"http://127.0.0.1:7171"}],
 *  "partitionStates":[{"partition":0,"owner":"c1","epoch":3,"checkpointScn":..,"savedBy":"c1",
 *                      "savedMillisAgo":..,"state":"RUNNING","lagMillis":12,"eventsDelivered":..,
 *                      "relay":"http://r1:7070/",
 *                      "snapshot":{"database":"shop","table":"orders","cursor":..,"rowsDelivered":..}}]}
 * </pre>
 *
 * <p>Threading: thread-safe; each call asks every member over HTTP, one after the other.
 */
public final class GroupReport {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http;
    private final Duration timeout;

    /** A report asking members with {@code http}, waiting at most {@code timeout} for each. */
    public GroupReport(HttpClient http, Duration timeout) {
        this.http = http;
        this.timeout = timeout;
    }

    /**
     * The report of {@code assignment}'s group now.
     *
     * @throws IOException if the checkpoints cannot be read from ZooKeeper
     */
    public ObjectNode read(GroupAssignment assignment, GroupCheckpoints stored)
            throws IOException, InterruptedException {
        Map<Integer, PartitionCheckpoint> checkpoints = new HashMap<>();
        for (int partition = 0; partition < assignment.partitions(); partition++) {
            Optional<PartitionCheckpoint> checkpoint = stored.read(partition);
            if (checkpoint.isPresent()) {
                checkpoints.put(partition, checkpoint.get());
            }
        }
        return assemble(assignment, checkpoints, memberReports(assignment.members()));
    }

    /** Each owned partition's entry in its owner's status endpoint, by partition. */
    private Map<Integer, JsonNode> memberReports(List<GroupAssignment.Member> members)
            throws InterruptedException {
        Map<Integer, JsonNode> byPartition = new HashMap<>();
        for (GroupAssignment.Member member : members) {
            if (member.statusUrl() == null) {
                continue;
            }
            try {
                HttpResponse<String> response =
                        http.send(
                                HttpRequest.newBuilder(
                                                URI.create(member.statusUrl() + RelayApi.STATUS))
                                        .timeout(timeout)
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    for (JsonNode partition : JSON.readTree(response.body()).path("partitions")) {
                        byPartition.put(partition.path("partition").asInt(), partition);
                    }
                }
            } catch (IOException e) {
                // A member that does not answer shows no lag; ownership still comes from ZooKeeper.
            }
        }
        return byPartition;
    }

    private static ObjectNode assemble(
            GroupAssignment assignment,
            Map<Integer, PartitionCheckpoint> checkpoints,
            Map<Integer, JsonNode> running) {
        long now = System.currentTimeMillis();
        ObjectNode report = JSON.createObjectNode();
        report.put("group", assignment.group());
        report.put("partitions", assignment.partitions());
        report.put("assigning", assignment.assigning());
        report.put("leader", assignment.leader());
        ArrayNode members = report.putArray("members");
        assignment
                .partitionsByMember()
                .forEach(
                        (name, owned) -> {
                            ObjectNode member = members.addObject();
                            member.put("instance", name);
                            member.put("owned", owned.size());
                            assignment.members().stream()
                                    .filter(m -> m.instance().equals(name))
                                    .findFirst()
                                    .map(GroupAssignment.Member::statusUrl)
                                    .ifPresent(url -> member.put("statusUrl", url));
                        });
        ArrayNode partitions = report.putArray("partitionStates");
        for (int partition = 0; partition < assignment.partitions(); partition++) {
            ObjectNode entry = partitions.addObject();
            entry.put("partition", partition);
            entry.put("owner", assignment.owners().get(partition));
            PartitionCheckpoint checkpoint = checkpoints.get(partition);
            if (checkpoint != null) {
                entry.put("epoch", checkpoint.epoch());
                entry.put("checkpointScn", checkpoint.scn());
                entry.put("savedBy", checkpoint.owner());
                entry.put("savedMillisAgo", Math.max(0, now - checkpoint.updatedMillis()));
            }
            JsonNode live = running.get(partition);
            if (live != null) {
                // A callback that keeps its checkpoint in its target (an applier) leaves the node
                // at its owner and epoch: the owner's own report says how far it checkpointed.
                long reported = live.path("checkpointScn").asLong(-1);
                if (reported > entry.path("checkpointScn").asLong(-1)) {
                    entry.put("checkpointScn", reported);
                    entry.remove("savedMillisAgo");
                }
                entry.put("state", live.path("state").asText());
                entry.put("lagMillis", live.path("lagMillis").asLong(-1));
                entry.put("eventsDelivered", live.path("eventsDelivered").asLong(0));
                if (live.hasNonNull("relay")) {
                    entry.put("relay", live.path("relay").asText());
                }
                if (live.hasNonNull("error")) {
                    entry.put("error", live.path("error").asText());
                }
                if (live.hasNonNull("applier")) {
                    entry.set("applier", live.get("applier"));
                }
                if (live.hasNonNull("snapshot")) {
                    entry.set("snapshot", live.get("snapshot")); // while a snapshot runs
                }
            }
        }
        return report;
    }
}

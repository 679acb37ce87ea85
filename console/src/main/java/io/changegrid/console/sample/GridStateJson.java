package io.changegrid.console.sample;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changegrid.console.grid.GridSnapshot;
import io.changegrid.console.grid.GroupSnapshot;
import io.changegrid.console.sample.RelayProbe.RelayReading;
import io.changegrid.consumer.group.control.GroupControl;
import io.changegrid.protocol.RelayRegistration;
import java.util.List;
import java.util.Map;

/**
 * The console's API document, {@code GET /api/grid}, which the pages render:
 *
 * <pre>
 * {"sampledAt":..,"zookeeper":"zk:2181","error":null,
 *  "relays":[{"sourceId":1,"endpoint":"http://r1:7070","include":[],"partition":-1,"partitions":0,
 *             "status":{..the relay's /v1/status..},"error":null,
 *             "eventsPerSecond":[[millis,value],..],"bytesPerSecond":[[millis,value],..]}],
 *  "groups":[{"group":"orders","report":{..GroupReport..},"error":null,
 *             "control":{"paused":false,"pausedPartitions":[],"resets":{},"reseeds":[]},
 *             "lag":[[millis,value],..],"partitionLag":{"0":[[millis,value],..]}}],
 *  "appliers":[{"group":"orders","partition":0,"owner":"m1","state":"RUNNING","target":"jdbc:..",
 *               "lanes":4,"rowsApplied":..,"transactionsApplied":..,"commits":..,"lastError":null,
 *               "rowsPerSecond":[[millis,value],..],"commitsPerSecond":[[millis,value],..]}]}
 * </pre>
 *
 * An applier is a partition whose owner reports an {@code applier} entry in its status.
 */
final class GridStateJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private GridStateJson() {}

    static ObjectNode write(
            long now,
            String zooKeeper,
            GridSnapshot grid,
            Map<String, RelayReading> readings,
            Charts charts) {
        ObjectNode state = JSON.createObjectNode();
        state.put("sampledAt", now);
        state.put("zookeeper", zooKeeper);
        state.put("error", grid.error());
        ArrayNode relays = state.putArray("relays");
        for (RelayRegistration relay : grid.relays()) {
            ObjectNode entry = relays.addObject();
            entry.put("sourceId", relay.sourceId());
            entry.put("endpoint", relay.endpoint());
            strings(entry.putArray("include"), relay.include());
            strings(entry.putArray("exclude"), relay.exclude());
            entry.put("partition", relay.partition());
            entry.put("partitions", relay.partitions());
            RelayReading reading = readings.get(relay.endpoint());
            if (reading != null) {
                entry.set("status", reading.status());
                entry.put("error", reading.error());
            }
            points(entry.putArray("eventsPerSecond"), charts.eventsPerSecond(relay.endpoint()));
            points(entry.putArray("bytesPerSecond"), charts.bytesPerSecond(relay.endpoint()));
        }
        ArrayNode groups = state.putArray("groups");
        ArrayNode appliers = state.putArray("appliers");
        for (GroupSnapshot group : grid.groups()) {
            ObjectNode entry = groups.addObject();
            entry.put("group", group.group());
            entry.set("report", group.report());
            entry.put("error", group.error());
            control(entry.putObject("control"), group.control());
            points(entry.putArray("lag"), charts.groupLag(group.group()));
            ObjectNode partitionLag = entry.putObject("partitionLag");
            if (group.report() != null) {
                for (JsonNode partition : group.report().path("partitionStates")) {
                    int number = partition.path("partition").asInt();
                    points(
                            partitionLag.putArray(Integer.toString(number)),
                            charts.partitionLag(group.group(), number));
                    if (partition.path("applier").isObject()) {
                        applier(appliers.addObject(), group.group(), partition, charts);
                    }
                }
            }
        }
        return state;
    }

    private static void applier(ObjectNode node, String group, JsonNode partition, Charts charts) {
        int number = partition.path("partition").asInt();
        String owner = partition.path("owner").asText();
        node.put("group", group);
        node.put("partition", number);
        node.put("owner", owner);
        node.put("state", partition.path("state").asText(null));
        node.setAll((ObjectNode) partition.get("applier"));
        points(node.putArray("rowsPerSecond"), charts.rowsPerSecond(group, number, owner));
        points(node.putArray("commitsPerSecond"), charts.commitsPerSecond(group, number, owner));
    }

    private static void control(ObjectNode node, GroupControl control) {
        GroupControl asked = control == null ? GroupControl.NONE : control;
        node.put("paused", asked.paused());
        ArrayNode paused = node.putArray("pausedPartitions");
        asked.pausedPartitions().stream().sorted().forEach(paused::add);
        ObjectNode resets = node.putObject("resets");
        asked.resets().forEach((partition, scn) -> resets.put(Integer.toString(partition), scn));
        ArrayNode reseeds = node.putArray("reseeds");
        asked.reseeds().stream().sorted().forEach(reseeds::add);
    }

    private static void strings(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }

    private static void points(ArrayNode array, List<double[]> points) {
        for (double[] point : points) {
            array.addArray().add((long) point[0]).add(point[1]);
        }
    }
}

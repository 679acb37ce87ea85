package io.changegrid.deploy.cluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** What the members' jsonl callbacks wrote, by event: which ids arrived, which events twice. */
final class Deliveries {

    /** An event's identity on the source's timeline. */
    record EventId(long scn, int index) {}

    private final Map<EventId, List<LocalClusterFixture.Written>> byEvent = new HashMap<>();

    Deliveries(List<LocalClusterFixture.Written> written) {
        for (LocalClusterFixture.Written event : written) {
            byEvent.computeIfAbsent(new EventId(event.scn(), event.index()), k -> new ArrayList<>())
                    .add(event);
        }
    }

    /** The row ids of the INSERT events delivered. */
    Set<Long> insertedIds() {
        return byEvent.values().stream()
                .map(copies -> copies.get(0))
                .filter(event -> event.op().equals("INSERT"))
                .map(LocalClusterFixture.Written::id)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** Events delivered more than once, each with all its copies. */
    List<List<LocalClusterFixture.Written>> duplicates() {
        return byEvent.values().stream().filter(copies -> copies.size() > 1).toList();
    }

    int distinctEvents() {
        return byEvent.size();
    }
}

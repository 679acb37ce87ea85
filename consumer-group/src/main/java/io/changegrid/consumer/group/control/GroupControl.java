package io.changegrid.consumer.group.control;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What operators asked of a consumer group, as its control node holds it:
 *
 * <pre>{"paused":false,"pausedPartitions":[3],"resets":{"5":4294967396},"reseeds":[1]}</pre>
 *
 * @param paused whether every partition of the group is paused
 * @param pausedPartitions partitions paused one by one (on top of {@code paused})
 * @param resets checkpoint resets not yet applied by the partition's owner: partition to the SCN
 *     its consumer resumes after
 * @param reseeds re-seeds not yet applied by the partition's owner: partitions whose consumer
 *     begins a snapshot of its subscription at its checkpoint (docs/bootstrap.md)
 */
public record GroupControl(
        boolean paused,
        Set<Integer> pausedPartitions,
        Map<Integer, Long> resets,
        Set<Integer> reseeds) {

    /** Nothing asked: what a group without a control node is under. */
    public static final GroupControl NONE = new GroupControl(false, Set.of(), Map.of(), Set.of());

    private static final JsonFactory JSON = new JsonFactory();

    public GroupControl {
        pausedPartitions = Set.copyOf(new TreeSet<>(pausedPartitions));
        resets = Map.copyOf(new TreeMap<>(resets));
        reseeds = Set.copyOf(new TreeSet<>(reseeds));
    }

    /** Pauses and resets as before re-seeds existed. */
    public GroupControl(boolean paused, Set<Integer> pausedPartitions, Map<Integer, Long> resets) {
        this(paused, pausedPartitions, resets, Set.of());
    }

    /** Whether {@code partition} must deliver nothing now. */
    public boolean isPaused(int partition) {
        return paused || pausedPartitions.contains(partition);
    }

    /** The reset waiting for {@code partition}'s owner, if any. */
    public OptionalLong resetOf(int partition) {
        Long scn = resets.get(partition);
        return scn == null ? OptionalLong.empty() : OptionalLong.of(scn);
    }

    public GroupControl withGroupPaused(boolean pause) {
        return new GroupControl(pause, pausedPartitions, resets, reseeds);
    }

    public GroupControl withPartitionPaused(int partition, boolean pause) {
        Set<Integer> next = new TreeSet<>(pausedPartitions);
        if (pause) {
            next.add(partition);
        } else {
            next.remove(partition);
        }
        return new GroupControl(paused, next, resets, reseeds);
    }

    public GroupControl withReset(int partition, long scn) {
        Map<Integer, Long> next = new TreeMap<>(resets);
        next.put(partition, scn);
        return new GroupControl(paused, pausedPartitions, next, reseeds);
    }

    /** Without {@code partition}'s reset if it still asks for {@code scn} (a newer one stays). */
    public GroupControl withResetApplied(int partition, long scn) {
        if (!resetOf(partition).equals(OptionalLong.of(scn))) {
            return this;
        }
        Map<Integer, Long> next = new TreeMap<>(resets);
        next.remove(partition);
        return new GroupControl(paused, pausedPartitions, next, reseeds);
    }

    /** With a re-seed asked for {@code partition}. */
    public GroupControl withReseed(int partition) {
        Set<Integer> next = new TreeSet<>(reseeds);
        next.add(partition);
        return new GroupControl(paused, pausedPartitions, resets, next);
    }

    /** Without {@code partition}'s re-seed. */
    public GroupControl withReseedApplied(int partition) {
        if (!reseeds.contains(partition)) {
            return this;
        }
        Set<Integer> next = new TreeSet<>(reseeds);
        next.remove(partition);
        return new GroupControl(paused, pausedPartitions, resets, next);
    }

    /** The node's bytes. */
    public byte[] encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeBooleanField("paused", paused);
            json.writeArrayFieldStart("pausedPartitions");
            for (int partition : new TreeSet<>(pausedPartitions)) {
                json.writeNumber(partition);
            }
            json.writeEndArray();
            json.writeObjectFieldStart("resets");
            for (Map.Entry<Integer, Long> reset : new TreeMap<>(resets).entrySet()) {
                json.writeNumberField(Integer.toString(reset.getKey()), reset.getValue());
            }
            json.writeEndObject();
            if (!reseeds.isEmpty()) {
                json.writeArrayFieldStart("reseeds");
                for (int partition : new TreeSet<>(reseeds)) {
                    json.writeNumber(partition);
                }
                json.writeEndArray();
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to memory cannot fail", e);
        }
        return out.toByteArray();
    }

    /**
     * Reads a node's bytes; an empty node is {@link #NONE}.
     *
     * @throws IOException naming the node if they are not a group control
     */
    public static GroupControl decode(String path, byte[] data) throws IOException {
        if (data == null || data.length == 0) {
            return NONE;
        }
        boolean paused = false;
        Set<Integer> partitions = new TreeSet<>();
        Map<Integer, Long> resets = new TreeMap<>();
        Set<Integer> reseeds = new TreeSet<>();
        try (JsonParser json = JSON.createParser(data)) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object");
            }
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String field = json.currentName();
                json.nextToken();
                switch (field) {
                    case "paused" -> paused = json.getBooleanValue();
                    case "pausedPartitions" -> {
                        while (json.nextToken() != JsonToken.END_ARRAY) {
                            partitions.add(json.getIntValue());
                        }
                    }
                    case "resets" -> {
                        while (json.nextToken() == JsonToken.FIELD_NAME) {
                            int partition = Integer.parseInt(json.currentName());
                            json.nextToken();
                            resets.put(partition, json.getLongValue());
                        }
                    }
                    case "reseeds" -> {
                        while (json.nextToken() != JsonToken.END_ARRAY) {
                            reseeds.add(json.getIntValue());
                        }
                    }
                    default -> json.skipChildren();
                }
            }
        } catch (IOException | NumberFormatException e) {
            throw new IOException(
                    "group control node unreadable: path="
                            + path
                            + ", data="
                            + new String(data, StandardCharsets.UTF_8),
                    e);
        }
        return new GroupControl(paused, partitions, resets, reseeds);
    }
}

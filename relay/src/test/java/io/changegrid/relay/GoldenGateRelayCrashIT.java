package io.changegrid.relay;

import io.changegrid.gridkit.goldengate.TrailFileWriter;
import io.changegrid.gridkit.goldengate.TrailOperation;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RelayCrashCheck} with a GoldenGate source: {@code kill -9} of a relay process reading the
 * JSON files grid-kit's {@link TrailFileWriter} writes the way GoldenGate's File Writer handler
 * does, while the files roll by size and are renamed when finalized; a restart resumes at the
 * relay's saved trail position, so a consumer that was lagging still receives every transaction
 * exactly once, in SCN order, with no gap.
 */
class GoldenGateRelayCrashIT {

    @TempDir Path work;

    @Test
    void shouldLoseAndRepeatNothingWhenTheRelayIsKilledAndRestartedWhileFilesRoll()
            throws Exception {
        Path trail = work.resolve("dirout");
        try (TrailFileWriter writer =
                new TrailFileWriter(
                        TrailFileWriter.Options.in(trail)
                                .withRolling(4 * 1024, Duration.ofSeconds(1))
                                .withTrail(12, 64 * 1024))) {
            RelayCrashCheck.run(
                    work,
                    List.of(
                            "  type: goldengate",
                            "  directory: " + trail,
                            "  tables: [\"shop.orders(id NUMBER(10) key, note VARCHAR2(200))\"]",
                            "  heartbeatInterval: 200ms"),
                    "changegrid-goldengate-relay-crash-it.log",
                    (from, to) -> insert(writer, from, to));
        }
    }

    /**
     * One transaction per row; then the file is finalized, as GoldenGate's inactivity roll would,
     * which tells the fetcher the last transaction is complete.
     */
    private static void insert(TrailFileWriter writer, int from, int to) throws Exception {
        for (int id = from; id <= to; id++) {
            Map<String, Object> after = new LinkedHashMap<>();
            after.put("id", id);
            after.put("note", "order " + id);
            writer.write(
                    "1." + id + ".0",
                    Integer.toString(5000 + id),
                    Instant.now(),
                    List.of(TrailOperation.insert("shop.orders", List.of("id"), after)));
        }
        writer.roll();
    }
}

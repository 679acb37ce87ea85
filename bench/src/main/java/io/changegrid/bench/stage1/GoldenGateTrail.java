package io.changegrid.bench.stage1;

import io.changegrid.bench.codec.WhitepaperRows;
import io.changegrid.gridkit.goldengate.TrailFileWriter;
import io.changegrid.gridkit.goldengate.TrailOperation;
import io.changegrid.gridkit.load.LoadShape;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

/**
 * The stage-1 load as a GoldenGate JSON trail: the whitepaper's rows ({@link WhitepaperRows},
 * ~1,100 bytes of values) over {@code BENCH.T1..Tn}, written by grid-kit's {@link TrailFileWriter}
 * as the File Writer handler would (64 MiB files, renamed when finalized). Updates and deletes
 * carry whole images of random values: the fetcher checks an image's shape, not its history, so
 * keeping every row's latest image (gigabytes at full size) would buy nothing here.
 *
 * @param directory where the finalized files are
 * @param events row changes written
 * @param bytes bytes of the files
 * @param lastPos the {@code pos} of the last record: where a reader has read everything
 */
record GoldenGateTrail(Path directory, long events, long bytes, String lastPos) {

    static final String SCHEMA = "BENCH";

    /** Writes the load into {@code directory}. */
    static GoldenGateTrail write(LoadShape shape, Path directory) throws IOException {
        Random random = new Random(shape.seed());
        long events = 0;
        long nextId = 1;
        long transaction = 0;
        TrailFileWriter writer =
                new TrailFileWriter(
                        TrailFileWriter.Options.in(directory)
                                .withRolling(64L << 20, Duration.ofHours(1))
                                .withTrail(1, 1L << 31));
        try {
            while (events < shape.records()) {
                int size = (int) Math.min(shape.transactionSize(), shape.records() - events);
                String table = SCHEMA + ".T" + (1 + transaction % shape.tables());
                List<TrailOperation> operations = new ArrayList<>(size);
                for (int i = 0; i < size; i++) {
                    int dice = random.nextInt(100);
                    if (dice < shape.mix().insert() || nextId == 1) {
                        operations.add(
                                TrailOperation.insert(
                                        table, List.of("id"), image(random, nextId++)));
                    } else {
                        long id = 1 + (long) (random.nextDouble() * (nextId - 1));
                        operations.add(
                                dice < shape.mix().insert() + shape.mix().update()
                                        ? TrailOperation.update(
                                                table,
                                                List.of("id"),
                                                image(random, id),
                                                image(random, id))
                                        : TrailOperation.delete(
                                                table, List.of("id"), image(random, id)));
                    }
                }
                writer.write(
                        "1." + transaction + ".7",
                        Long.toString(1_000_000 + transaction),
                        Instant.ofEpochSecond(1_795_000_000L + transaction / 1000),
                        operations);
                events += size;
                transaction++;
            }
        } finally {
            writer.close(); // finalizes the last file: its last transaction is complete
        }
        return new GoldenGateTrail(directory, events, size(directory), writer.lastPos());
    }

    /** The {@code source.tables} entries of the tables, as changegrid value types. */
    static List<String> tableEntries(LoadShape shape) {
        List<String> entries = new ArrayList<>();
        for (int t = 1; t <= shape.tables(); t++) {
            StringBuilder entry =
                    new StringBuilder(SCHEMA + ".T" + t)
                            .append("(id value:int64 not null key, account value:int64 not null,")
                            .append(" quantity value:int64, amount value:decimal,")
                            .append(" created value:datetime, updated value:timestamp");
            for (int i = 1; i <= 6; i++) {
                entry.append(", text").append(i).append(" value:string");
            }
            entries.add(entry.append(')').toString());
        }
        return entries;
    }

    private static Map<String, Object> image(Random random, long id) {
        Object[] row = WhitepaperRows.row(random, id);
        String[] names = {"id", "account", "quantity", "amount", "created", "updated"};
        Map<String, Object> image = new LinkedHashMap<>();
        for (int i = 0; i < row.length; i++) {
            image.put(i < names.length ? names[i] : "text" + (i - names.length + 1), row[i]);
        }
        return image;
    }

    private static long size(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            long total = 0;
            for (Path file : files.toList()) {
                total += Files.size(file);
            }
            return total;
        }
    }

    /** The finalized files, in the order they were written. */
    List<Path> files() throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.sorted().toList();
        }
    }
}

package io.changegrid.bench.load;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changegrid.bench.harness.BenchSource;
import io.changegrid.bench.harness.ProgressLine;
import io.changegrid.fetchers.mysql.BinlogPosition;
import io.changegrid.gridkit.load.LoadGenerator;
import io.changegrid.gridkit.load.LoadResult;
import io.changegrid.gridkit.load.LoadShape;
import java.sql.Connection;
import java.util.Locale;
import java.util.Set;

/**
 * A load written into a source with nothing replicating, as the whitepaper's stages start: the
 * binlog range it occupies, what it wrote, and its tables.
 *
 * @param from the binlog position before the first transaction (after the tables were created)
 * @param to the binlog position after the last commit
 * @param load what the generator wrote
 * @param tables the tables written
 */
public record LoadedRange(
        BinlogPosition from, BinlogPosition to, LoadResult load, BenchTables tables) {

    /**
     * Creates the tables and writes the load.
     *
     * @param partitionCounts the numbers of partitions by table the run will split into, so the
     *     table names split evenly
     */
    public static LoadedRange write(
            BenchSource source, LoadShape shape, Set<Integer> partitionCounts) throws Exception {
        BenchTables tables =
                BenchTables.balanced(source.database(), shape.tables(), partitionCounts);
        LoadGenerator generator = new LoadGenerator(tables.workload(), shape);
        try (Connection connection = source.connect()) {
            generator.createTables(connection);
            BinlogPosition from = source.masterPosition();
            System.err.printf(
                    "load: %,d row changes of ~%,d bytes, mix %s (insert/update/delete),"
                            + " transactions of %d, tables %s, into %s%n",
                    shape.records(),
                    shape.recordSize(),
                    shape.mix(),
                    shape.transactionSize(),
                    tables.names(),
                    source.describe());
            ProgressLine progress = new ProgressLine(System.err, "load", shape.records());
            LoadResult load = generator.run(connection, progress::report);
            progress.end();
            report(load);
            BinlogPosition to = source.masterPosition();
            source.settle();
            source.cacheBinlog();
            return new LoadedRange(from, to, load, tables);
        }
    }

    private static void report(LoadResult load) {
        System.err.printf(
                Locale.ROOT,
                "load: %,d row changes (%,d inserts, %,d updates, %,d deletes) in %,d transactions,"
                        + " %.1f s: %,.0f rows/s into the source; the generator alone: %,.0f rows/s"
                        + " of one core%n",
                load.events(),
                load.inserts(),
                load.updates(),
                load.deletes(),
                load.transactions(),
                load.seconds(),
                load.eventsPerSecond(),
                load.generatorEventsPerSecond());
    }

    /** Puts the load's shape and rate into a result line. */
    public void describe(ObjectNode line, LoadShape shape, String source) {
        line.put("source", source);
        line.put("records", shape.records());
        line.put("recordSize", shape.recordSize());
        line.put("tables", shape.tables());
        line.put("mix", shape.mix().toString());
        line.put("transactionSize", shape.transactionSize());
        line.put("seed", shape.seed());
        line.put("loadEventsPerSec", Math.round(load.eventsPerSecond()));
        line.put("generatorEventsPerSec", Math.round(load.generatorEventsPerSecond()));
    }
}

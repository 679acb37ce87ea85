package io.changegrid.bench.jmh.redo;

import io.changegrid.fetchers.logminer.redo.RedoStatement;
import io.changegrid.fetchers.logminer.redo.SqlRedoParser;
import io.changegrid.fetchers.logminer.schema.OracleType;
import io.changegrid.fetchers.logminer.schema.OracleValues;
import io.changegrid.gridkit.logminer.LogMinerWorkload;
import io.changegrid.gridkit.logminer.RedoRenderer;
import io.changegrid.gridkit.logminer.StandInColumn;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Per-row cost of the LogMiner fetcher's parsing: one {@code SQL_REDO} statement of the workload's
 * 12-column table (every carried type: NUMBER, NVARCHAR2 with UNISTR, BINARY_DOUBLE, DATE,
 * TIMESTAMP, TIMESTAMP WITH TIME ZONE, RAW, INTERVAL), rendered by grid-kit's {@link RedoRenderer}
 * as LogMiner writes it: parsed alone, and parsed then typed into event values.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SqlRedoBenchmark {

    private final SqlRedoParser parser = new SqlRedoParser();
    private final Map<String, OracleType> types = new HashMap<>();
    private String insert;
    private String update;

    @Setup
    public void setUp() {
        List<StandInColumn> columns = LogMinerWorkload.itemsColumns();
        for (StandInColumn column : columns) {
            types.put(
                    column.name(),
                    OracleType.of(
                            column.dataType(),
                            column.length(),
                            column.precision(),
                            column.scale()));
        }
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("ID", 123_456L);
        row.put("NAME", "O'Brien's corner shop");
        row.put("NNAME", "café Привет");
        row.put("PRICE", new BigDecimal("1234.50"));
        row.put("QTY", 42L);
        row.put("RATIO", 0.125);
        row.put("CREATED", LocalDateTime.of(2026, 11, 26, 7, 5, 9));
        row.put("UPDATED", LocalDateTime.of(2026, 11, 26, 7, 5, 9, 123_456_000));
        row.put("SEEN", OffsetDateTime.of(2026, 11, 26, 7, 5, 9, 0, ZoneOffset.ofHours(2)));
        row.put("TAG", new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        row.put("WAIT", Duration.ofMinutes(90));
        row.put("NOTE", "a short note");
        Map<String, Object> after = new LinkedHashMap<>(row);
        after.put("PRICE", new BigDecimal("99.99"));
        after.put("NAME", "renamed");
        insert = RedoRenderer.insert("SHOP", "ITEMS", columns, row);
        update = RedoRenderer.update("SHOP", "ITEMS", columns, row, after);
    }

    /** Parsing a 12-column insert into names and untyped values. */
    @Benchmark
    public RedoStatement parseInsert() {
        return parser.parse(insert);
    }

    /** Parsing a 2-column update with its 12-condition WHERE. */
    @Benchmark
    public RedoStatement parseUpdate() {
        return parser.parse(update);
    }

    /** Parsing an insert and typing every value: the fetcher's per-row cost before encoding. */
    @Benchmark
    public void parseAndTypeInsert(Blackhole blackhole) {
        RedoStatement statement = parser.parse(insert);
        String[] names = statement.columns();
        for (int i = 0; i < names.length; i++) {
            blackhole.consume(OracleValues.read(types.get(names[i]), statement.values()[i]));
        }
    }
}

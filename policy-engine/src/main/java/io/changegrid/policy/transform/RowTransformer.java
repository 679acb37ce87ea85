package io.changegrid.policy.transform;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.TextValues;
import io.changegrid.events.value.ValueType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * A {@link TransformSpec} bound to one table schema version: the output schema and, per output
 * column, the source column, its masking or its added value, computed once. Masked columns become
 * STRING columns. The output schema keeps the source's table id and version, so it names the same
 * schema history. Immutable and thread-safe.
 */
public final class RowTransformer {

    private final TableSchema source;
    private final TableSchema output;
    private final int[] sourceIndex; // per kept output column
    private final Masking[] masking; // per kept output column, or null
    private final boolean[] sourceText; // per kept output column: may hold UTF-8 bytes
    private final ColumnSource[] added;
    private final Object[] addedPerTable; // the value of a per-table added column, else null
    private final int[] writtenFrom; // per output column: its source column, or -1 if computed
    private final int[] maskedOutputs; // the kept output columns that are masked, in order
    private final boolean identity;

    private RowTransformer(
            TableSchema source,
            TableSchema output,
            int[] sourceIndex,
            Masking[] masking,
            ColumnSource[] added) {
        this.source = source;
        this.output = output;
        this.sourceIndex = sourceIndex;
        this.masking = masking;
        this.sourceText = new boolean[sourceIndex.length];
        for (int i = 0; i < sourceIndex.length; i++) {
            sourceText[i] = TextValues.isText(source.column(sourceIndex[i]).type());
        }
        this.added = added;
        this.addedPerTable = new Object[added.length];
        for (int i = 0; i < added.length; i++) {
            addedPerTable[i] = added[i].perTable() ? added[i].value(source, 0, 0, 0) : null;
        }
        this.writtenFrom = new int[output.columnCount()];
        Arrays.fill(writtenFrom, -1);
        for (int i = 0; i < sourceIndex.length; i++) {
            writtenFrom[i] = masking[i] == null ? sourceIndex[i] : -1;
        }
        this.maskedOutputs =
                IntStream.range(0, masking.length).filter(i -> masking[i] != null).toArray();
        this.identity = output.equals(source);
    }

    /**
     * Binds a spec to a schema, strictly: every column the spec names must exist.
     *
     * @param problems receives one message per column the spec names that the schema lacks, and per
     *     output name used twice; the result is {@code null} when any were reported
     */
    public static RowTransformer bind(
            TransformSpec spec, TableSchema schema, Consumer<String> sink) {
        return bind(spec, schema, sink, true);
    }

    /**
     * Binds a spec to a schema.
     *
     * @param strict whether a column the spec names but the schema lacks is a problem; a relay
     *     binds leniently after the source changed a table, since masking, dropping or renaming a
     *     column that no longer exists is vacuous (what protects columns across such changes is
     *     {@link io.changegrid.policy.capture.SchemaEvolutionCheck})
     * @param problems receives one message per problem; the result is {@code null} when any were
     *     reported
     */
    public static RowTransformer bind(
            TransformSpec spec, TableSchema schema, Consumer<String> sink, boolean strict) {
        List<String> reported = new ArrayList<>();
        Consumer<String> problems =
                problem -> {
                    reported.add(problem);
                    sink.accept(problem);
                };
        for (Map.Entry<String, String> ref : spec.referencedColumns()) {
            if (strict && schema.indexOf(ref.getValue()) < 0) {
                problems.accept(
                        "unknown column: table="
                                + schema.qualifiedName()
                                + ", key="
                                + ref.getKey()
                                + ", value="
                                + ref.getValue());
            }
        }
        List<Column> columns = new ArrayList<>();
        List<Integer> indexes = new ArrayList<>();
        List<Masking> maskings = new ArrayList<>();
        Set<String> names = new HashSet<>();
        List<String> key = new ArrayList<>();
        for (int i = 0; i < schema.columnCount(); i++) {
            Column column = schema.column(i);
            String name = column.name();
            if (!spec.includeColumns().isEmpty() && !spec.includeColumns().contains(name)
                    || spec.excludeColumns().contains(name)
                    || spec.drop().contains(name)) {
                continue;
            }
            String outName = spec.rename().getOrDefault(name, name);
            Masking mask = spec.mask().get(name);
            columns.add(
                    mask == null
                            ? new Column(
                                    outName,
                                    column.type(),
                                    column.sourceType(),
                                    column.nullable(),
                                    column.width())
                            : new Column(
                                    outName, ValueType.STRING, "varchar", column.nullable(), 0));
            indexes.add(i);
            maskings.add(mask);
            duplicate(outName, names, schema, problems);
            if (schema.keyColumns().contains(name)) {
                key.add(outName);
            }
        }
        List<ColumnSource> addedSources = new ArrayList<>();
        for (Map.Entry<String, ColumnSource> add : spec.add().entrySet()) {
            columns.add(Column.of(add.getKey(), add.getValue().type()));
            addedSources.add(add.getValue());
            duplicate(add.getKey(), names, schema, problems);
        }
        if (columns.isEmpty()) {
            problems.accept("no column left: table=" + schema.qualifiedName());
        }
        if (!reported.isEmpty()) {
            return null;
        }
        // Key order follows the source's key order, not column order.
        List<String> orderedKey = new ArrayList<>();
        for (String k : schema.keyColumns()) {
            String outName = spec.rename().getOrDefault(k, k);
            if (key.contains(outName)) {
                orderedKey.add(outName);
            }
        }
        TableSchema output =
                new TableSchema(
                        schema.tableId(),
                        schema.version(),
                        spec.database() != null ? spec.database() : schema.database(),
                        spec.table() != null ? spec.table() : schema.table(),
                        columns,
                        orderedKey.size() == schema.keySize() ? orderedKey : List.of());
        return new RowTransformer(
                schema,
                output,
                indexes.stream().mapToInt(Integer::intValue).toArray(),
                maskings.toArray(new Masking[0]),
                addedSources.toArray(new ColumnSource[0]));
    }

    /** The schema this transformer reads. */
    public TableSchema sourceSchema() {
        return source;
    }

    /**
     * The schema of the transformed rows. When a key column is dropped the output has no key, since
     * a partial key would not identify rows.
     */
    public TableSchema outputSchema() {
        return output;
    }

    /** Whether the output is the source unchanged, so rows need no copying. */
    public boolean isIdentity() {
        return identity;
    }

    /**
     * The number of output columns that are source columns (the first ones); the rest are added.
     */
    public int keptColumns() {
        return sourceIndex.length;
    }

    /** The source column of kept output column {@code output}. */
    public int sourceColumn(int output) {
        return sourceIndex[output];
    }

    /**
     * Per output column, the source column it is written from unchanged, or -1 where its value is
     * computed (masked or added): a writer reading rows in place decides each column with one
     * lookup. Shared, not copied: callers must not modify it.
     */
    public int[] writtenFrom() {
        return writtenFrom;
    }

    /** The kept output columns that are masked, in order. Shared: callers must not modify it. */
    public int[] maskedOutputs() {
        return maskedOutputs;
    }

    /**
     * The value of output column {@code output} from its source value: masked if the column is,
     * else the value itself; as {@link #row} writes it.
     */
    public Object kept(int output, Object value) {
        return kept(output, value, null);
    }

    /**
     * {@link #kept(int, Object)}, a text mask written over {@code previous} where the masking can
     * (see {@link Masking#maskUtf8(byte[], byte[])}): {@code previous} is what this returned for
     * the column's last value, or null.
     */
    public Object kept(int output, Object value, Object previous) {
        if (value == null || masking[output] == null) {
            return value;
        }
        return sourceText[output] && value instanceof byte[] utf8
                ? masking[output].maskUtf8(utf8, previous instanceof byte[] b ? b : null)
                : masking[output].mask(value);
    }

    /**
     * Whether kept output column {@code output} masks a text column, whose UTF-8 bytes {@link
     * #maskedText} can mask where they lie.
     */
    public boolean masksText(int output) {
        return masking[output] != null && sourceText[output];
    }

    /**
     * {@link #kept(int, Object, Object)} of a text value given as the UTF-8 bytes {@code
     * utf8[offset, offset + length)}, for a column that {@link #masksText masks text}: the same
     * mask, hashed from the bytes where they lie.
     */
    public byte[] maskedText(int output, byte[] utf8, int offset, int length, Object previous) {
        return masking[output].maskUtf8(
                utf8, offset, length, previous instanceof byte[] b ? b : null);
    }

    /**
     * The value of added output column {@code output} ({@code >= keptColumns()}) for one image, as
     * {@link #row} writes it.
     */
    public Object added(
            int output, boolean beforeImage, int sourceId, long scn, long commitTimeMicros) {
        int i = output - sourceIndex.length;
        Object constant = addedPerTable[i];
        if (constant != null) {
            return constant;
        }
        return beforeImage && added[i].describesTheChange()
                ? null
                : added[i].value(source, sourceId, scn, commitTimeMicros);
    }

    /** The event with the output schema and transformed images; other fields unchanged. */
    public ChangeEvent apply(ChangeEvent event) {
        return new ChangeEvent(
                event.sourceId(),
                event.scn(),
                event.index(),
                event.commitTimeMicros(),
                event.transactionId(),
                event.operation(),
                output,
                row(event.before(), true, event),
                row(event.after(), false, event),
                event.ddl());
    }

    /** One transformed row image of an event, or {@code null} for a missing image. */
    public Object[] row(Object[] values, boolean beforeImage, ChangeEvent event) {
        return row(values, beforeImage, event.sourceId(), event.scn(), event.commitTimeMicros());
    }

    /**
     * One transformed row image, or {@code null} for a missing image: a new array, so the source
     * image is left as it was.
     *
     * <p>In a before image, columns added from the change itself (SCN, commit time) are NULL: the
     * before image is the row as an earlier change left it, and which change that was is not known.
     * Stamping this event's values there would also make them look unchanged, and an applier
     * writing only changed columns would leave the target's old SCN in place.
     *
     * @param beforeImage whether {@code values} is the before image
     */
    public Object[] row(
            Object[] values, boolean beforeImage, int sourceId, long scn, long commitTimeMicros) {
        if (values == null) {
            return null;
        }
        Object[] out = new Object[sourceIndex.length + added.length];
        for (int i = 0; i < sourceIndex.length; i++) {
            out[i] = kept(i, values[sourceIndex[i]]);
        }
        for (int i = sourceIndex.length; i < out.length; i++) {
            out[i] = added(i, beforeImage, sourceId, scn, commitTimeMicros);
        }
        return out;
    }

    private static void duplicate(
            String name, Set<String> names, TableSchema schema, Consumer<String> problems) {
        if (!names.add(name)) {
            problems.accept(
                    "output column defined twice: table="
                            + schema.qualifiedName()
                            + ", value="
                            + name);
        }
    }
}

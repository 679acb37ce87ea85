package io.changegrid.policy.capture;

import io.changegrid.events.Operation;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.policy.BoundPolicy;
import io.changegrid.policy.partition.Partitioner;
import io.changegrid.policy.select.RowFilter;
import io.changegrid.policy.transform.RowTransformer;

/**
 * What happens to the rows of one source table schema version on their way into the buffer: the
 * governing policy's row predicate (on the source images), its transform, and this relay's share of
 * its partitions (on the transformed images, as consumers will see them). Immutable and
 * thread-safe; a fetcher binds it once per schema version.
 *
 * <p>Per row, a fetcher calls {@link #selects}, then {@link #transform} on each image, then {@link
 * #inPartition}; {@link #passesEverything()} lets it skip all three.
 */
public final class TableRoute {

    private final TableSchema source;
    private final RowFilter filter;
    private final RowTransformer transformer;
    private final Partitioner rowPartitioner;
    private final int partition;

    private TableRoute(
            TableSchema source,
            RowFilter filter,
            RowTransformer transformer,
            Partitioner rowPartitioner,
            int partition) {
        this.source = source;
        this.filter = filter;
        this.transformer = transformer;
        this.rowPartitioner = rowPartitioner;
        this.partition = partition;
    }

    /** Every row, unchanged. */
    static TableRoute passThrough(TableSchema source) {
        return new TableRoute(source, RowFilter.ALL, null, null, 0);
    }

    /**
     * The route of a bound policy.
     *
     * @param rowPartitioner the partitioner deciding per row, or {@code null} when every row of the
     *     table is this relay's (no partitioning, or a table partitioner that chose this relay)
     */
    static TableRoute of(BoundPolicy bound, Partitioner rowPartitioner, int partition) {
        RowTransformer transformer = bound.transformer();
        return new TableRoute(
                transformer.sourceSchema(),
                bound.filter(),
                transformer.isIdentity() ? null : transformer,
                rowPartitioner,
                partition);
    }

    /** The schema the rows are published with. */
    public TableSchema output() {
        return transformer == null ? source : transformer.outputSchema();
    }

    /** Whether every row is published unchanged, so the per-row calls can be skipped. */
    public boolean passesEverything() {
        return filter == RowFilter.ALL && transformer == null && rowPartitioner == null;
    }

    /** Whether the policy's predicate selects the row change (source images). */
    public boolean selects(Operation op, Object[] before, Object[] after) {
        return filter == RowFilter.ALL || filter.test(op, before, after);
    }

    /**
     * Whether a row change read in place ({@link SourceRow}) can take this route without its images
     * as values: the predicate reads single values and the transform writes the columns it does not
     * compute in place. A partitioner deciding per row needs the transformed images.
     */
    public boolean readsInPlace() {
        return rowPartitioner == null;
    }

    /**
     * Whether the policy's predicate selects a row change read in place, reading only the columns
     * the predicate names into {@code before} and {@code after} (at least the source's column count
     * long; their other entries are left as they were), and of those it only tests for NULL, not
     * their values.
     */
    public boolean selects(Operation op, SourceRow row, Object[] before, Object[] after) {
        if (filter == RowFilter.ALL) {
            return true;
        }
        boolean hasBefore = op != Operation.INSERT;
        boolean hasAfter = op != Operation.DELETE;
        for (int i = 0, n = filter.columnsRead(); i < n; i++) {
            int column = filter.column(i);
            boolean value = filter.readsValue(i);
            if (hasBefore) {
                before[column] = value ? row.value(false, column) : present(row, false, column);
            }
            if (hasAfter) {
                after[column] = value ? row.value(true, column) : present(row, true, column);
            }
        }
        return filter.test(op, hasBefore ? before : null, hasAfter ? after : null);
    }

    /** Stands for a value the predicate only tests for NULL: NULL, or any object but NULL. */
    private static Object present(SourceRow row, boolean after, int column) {
        return row.isNull(after, column) ? null : Boolean.TRUE;
    }

    /** The transform, or null when the route publishes the source's images unchanged. */
    RowTransformer transformer() {
        return transformer;
    }

    /** The source schema version the route reads. */
    public TableSchema source() {
        return source;
    }

    /**
     * The image as published: masked, renamed, dropped, added to; the same array when the route
     * does not transform.
     *
     * @param beforeImage whether {@code image} is the before image (see {@link
     *     RowTransformer#row(Object[], boolean, int, long, long)})
     */
    public Object[] transform(
            Object[] image, boolean beforeImage, int sourceId, long scn, long commitTimeMicros) {
        return transformer == null || image == null
                ? image
                : transformer.row(image, beforeImage, sourceId, scn, commitTimeMicros);
    }

    /**
     * Whether judging a stored frame of this route needs its row images: a predicate, or a
     * partitioner reading column values. Without either, {@link #inPartition(EventFrame)} decides
     * from the frame header alone.
     */
    public boolean needsRowImages() {
        return filter != RowFilter.ALL
                || (rowPartitioner != null && !(rowPartitioner instanceof Partitioner.ByKeyHash));
    }

    /**
     * Whether a stored row-change frame is in this route's partition, from its header: valid when
     * {@link #needsRowImages()} is false.
     */
    public boolean inPartition(EventFrame frame) {
        return rowPartitioner == null
                || ((Partitioner.ByKeyHash) rowPartitioner).partitionOf(frame) == partition;
    }

    /** Whether the (transformed) row change is in this relay's partition. */
    public boolean inPartition(Object[] before, Object[] after) {
        return rowPartitioner == null
                || rowPartitioner.partitionOf(output(), before, after) == partition;
    }
}

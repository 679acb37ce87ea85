package io.changegrid.policy.capture;

import io.changegrid.events.frame.RowImageWriter;
import io.changegrid.events.frame.RowImages;
import io.changegrid.policy.transform.RowTransformer;
import java.util.Objects;

/**
 * The images of a source row change as a transform publishes them, without building them: an output
 * column that is a source column unmasked is written from the source row in place; masked and added
 * columns are computed once per row ({@link #wrap}) and written as values. The frame is the one
 * {@link RowTransformer#row} and the object encoder write, byte for byte.
 *
 * <p>Not thread-safe: a {@link TransactionWriter} reuses one, a row at a time.
 */
final class TransformedRow implements RowImages {

    private RowTransformer transformer;
    private SourceRow source;
    private Object[] computedBefore = new Object[16];
    private Object[] computedAfter = new Object[16];

    /** The before image's source values of the masked columns, by output column. */
    private Object[] maskedBefore = new Object[16];

    /** Points this view at one row change; computes its masked and added columns. */
    TransformedRow wrap(
            RowTransformer transformer,
            SourceRow source,
            boolean hasBefore,
            boolean hasAfter,
            int sourceId,
            long scn,
            long commitTimeMicros) {
        // Stored only when they change: the same route reads row after row, and a reference store
        // into this long-lived view pays G1's card-marking fence (see RowImageWriter#column).
        if (this.transformer != transformer) {
            this.transformer = transformer;
        }
        if (this.source != source) {
            this.source = source;
        }
        int columns = transformer.outputSchema().columnCount();
        if (computedBefore.length < columns) {
            computedBefore = new Object[columns];
            computedAfter = new Object[columns];
            maskedBefore = new Object[columns];
        }
        if (hasBefore) {
            compute(computedBefore, false, false, sourceId, scn, commitTimeMicros);
        }
        if (hasAfter) {
            compute(computedAfter, true, hasBefore, sourceId, scn, commitTimeMicros);
        }
        return this;
    }

    /**
     * @param reuseBefore whether a masked value the update left unchanged takes the before image's
     *     mask instead of being masked again: a mask is a function of the value alone, and a salted
     *     hash costs more than the rest of the row's route (most updates leave a name or an email
     *     as it was)
     */
    private void compute(
            Object[] computed,
            boolean after,
            boolean reuseBefore,
            int sourceId,
            long scn,
            long commitTimeMicros) {
        int kept = transformer.keptColumns();
        for (int i = 0; i < kept; i++) {
            if (transformer.masks(i)) {
                Object value = source.value(after, transformer.sourceColumn(i));
                if (reuseBefore && Objects.deepEquals(value, maskedBefore[i])) {
                    computed[i] = computedBefore[i];
                } else {
                    computed[i] = transformer.kept(i, value);
                }
                if (!after) {
                    maskedBefore[i] = value;
                }
            }
        }
        int columns = transformer.outputSchema().columnCount();
        for (int i = kept; i < columns; i++) {
            computed[i] = transformer.added(i, !after, sourceId, scn, commitTimeMicros);
        }
    }

    @Override
    public boolean isNull(boolean after, int column) {
        if (computed(column)) {
            return (after ? computedAfter : computedBefore)[column] == null;
        }
        return source.isNull(after, transformer.sourceColumn(column));
    }

    @Override
    public void write(RowImageWriter out, boolean after, int column) {
        if (computed(column)) {
            out.putValue((after ? computedAfter : computedBefore)[column]);
        } else {
            source.write(out, after, transformer.sourceColumn(column));
        }
    }

    private boolean computed(int column) {
        return column >= transformer.keptColumns() || transformer.masks(column);
    }
}

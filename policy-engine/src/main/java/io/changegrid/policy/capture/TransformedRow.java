package io.changegrid.policy.capture;

import io.changegrid.events.frame.RowImageWriter;
import io.changegrid.events.frame.RowImages;
import io.changegrid.policy.transform.RowTransformer;
import java.util.Arrays;
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

    /** The transformer's {@link RowTransformer#writtenFrom()}: one lookup per column written. */
    private int[] writtenFrom;

    private Object[] computedBefore = new Object[16];
    private Object[] computedAfter = new Object[16];

    /**
     * The before image's source values of the masked columns, by output column, where they were
     * read as values; else their {@link SourceRow#valueSpan spans} (-1 where read as values).
     */
    private Object[] maskedBefore = new Object[16];

    private long[] maskedBeforeSpan = new long[16];

    /**
     * The last mask computed per image and output column, which the next row's mask is written over
     * (see {@link io.changegrid.policy.transform.Masking#maskUtf8(byte[], byte[])}).
     */
    private Object[] lastMaskBefore = new Object[16];

    private Object[] lastMaskAfter = new Object[16];

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
            this.writtenFrom = transformer.writtenFrom();
        }
        if (this.source != source) {
            this.source = source;
        }
        int columns = writtenFrom.length;
        if (computedBefore.length < columns) {
            computedBefore = new Object[columns];
            computedAfter = new Object[columns];
            maskedBefore = new Object[columns];
            maskedBeforeSpan = new long[columns];
            lastMaskBefore = new Object[columns];
            lastMaskAfter = new Object[columns];
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
        // Every reference is stored only when it changes, as in wrap: a hash is written over the
        // last one, so row after row the arrays keep the same objects.
        Object[] lastMask = after ? lastMaskAfter : lastMaskBefore;
        for (int i : transformer.maskedOutputs()) {
            int column = transformer.sourceColumn(i);
            // Text is masked from its bytes where the source row holds them, not from a copy.
            long span = transformer.masksText(i) ? source.valueSpan(after, column) : -1;
            Object mask;
            if (span >= 0) {
                mask =
                        reuseBefore && sameBytes(span, maskedBeforeSpan[i])
                                ? computedBefore[i]
                                : remember(
                                        lastMask,
                                        i,
                                        transformer.maskedText(
                                                i,
                                                source.valueBytes(),
                                                SourceRow.spanOffset(span),
                                                SourceRow.spanLength(span),
                                                lastMask[i]));
            } else {
                Object value = source.value(after, column);
                mask =
                        reuseBefore
                                        && maskedBeforeSpan[i] < 0
                                        && Objects.deepEquals(value, maskedBefore[i])
                                ? computedBefore[i]
                                : remember(lastMask, i, transformer.kept(i, value, lastMask[i]));
                if (!after) {
                    maskedBefore[i] = value;
                }
            }
            if (!after) {
                maskedBeforeSpan[i] = span;
            }
            if (computed[i] != mask) {
                computed[i] = mask;
            }
        }
        int columns = writtenFrom.length;
        for (int i = transformer.keptColumns(); i < columns; i++) {
            Object value = transformer.added(i, !after, sourceId, scn, commitTimeMicros);
            if (computed[i] != value) {
                computed[i] = value;
            }
        }
    }

    /** Keeps a new mask as the one the column's next is written over; returns it. */
    private static Object remember(Object[] lastMask, int column, Object mask) {
        if (mask != null && mask != lastMask[column]) {
            lastMask[column] = mask;
        }
        return mask;
    }

    /** Whether a value span of this row holds the same bytes as the before image's span. */
    private boolean sameBytes(long span, long beforeSpan) {
        if (beforeSpan < 0) {
            return false;
        }
        byte[] bytes = source.valueBytes();
        int from = SourceRow.spanOffset(span);
        int beforeFrom = SourceRow.spanOffset(beforeSpan);
        return Arrays.equals(
                bytes,
                from,
                from + SourceRow.spanLength(span),
                bytes,
                beforeFrom,
                beforeFrom + SourceRow.spanLength(beforeSpan));
    }

    @Override
    public boolean isNull(boolean after, int column) {
        int from = writtenFrom[column];
        return from >= 0
                ? source.isNull(after, from)
                : (after ? computedAfter : computedBefore)[column] == null;
    }

    @Override
    public void write(RowImageWriter out, boolean after, int column) {
        int from = writtenFrom[column];
        if (from >= 0) {
            source.write(out, after, from);
        } else {
            out.putValue((after ? computedAfter : computedBefore)[column]);
        }
    }
}

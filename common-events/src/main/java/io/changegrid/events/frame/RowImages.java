package io.changegrid.events.frame;

/**
 * The images of one row change as a source holds them, written straight into a frame: the encoder
 * asks which columns are NULL and has each other value written through a {@link RowImageWriter}, in
 * the order the frame needs them (the key's columns first, then the before image, then the after
 * image). A fetcher that can read its source's row format in place implements this to skip building
 * an {@code Object[]} per image and a boxed value per cell.
 *
 * <p>Which images exist follows the operation: an INSERT has an after image only, a DELETE a before
 * image only, an UPDATE both; the key is written from the after image when there is one.
 */
public interface RowImages {

    /**
     * Whether column {@code column} of the before ({@code after == false}) or after image is NULL.
     */
    boolean isNull(boolean after, int column);

    /**
     * Writes the value of a non-NULL column with exactly one of the writer's {@code put} methods.
     *
     * @throws IllegalArgumentException naming table, column and value if the source's value cannot
     *     be read as its column's type; the frame is then dropped
     */
    void write(RowImageWriter out, boolean after, int column);
}

package io.changegrid.gridkit.load;

/**
 * What the load generator writes.
 *
 * @param records row changes in all (each is one event)
 * @param recordSize bytes of values per row, about
 * @param tables tables the transactions are spread over, evenly
 * @param mix shares of inserts, updates and deletes
 * @param transactionSize row changes per source transaction
 * @param seed of the random data, so a run can be repeated
 */
public record LoadShape(
        long records,
        int recordSize,
        int tables,
        OperationMix mix,
        int transactionSize,
        long seed) {

    /** The smallest record: the fixed columns and a little text. */
    public static final int MIN_RECORD_SIZE = RowValues.FIXED_BYTES + RowValues.TEXT_COLUMNS * 8;

    /**
     * The largest record: the text columns are utf8mb4 VARCHARs, whose declared lengths must stay
     * within MariaDB's 65,535-byte row size limit.
     */
    public static final int MAX_RECORD_SIZE = 8_000;

    /** Bytes of row data the load leaves in the source (inserts less deletes), about. */
    public long dataBytes() {
        return records * (mix.insert() - mix.delete()) / 100 * recordSize;
    }

    /**
     * Bytes of frames the load's events take in a relay's buffer, about: an update carries two
     * images, inserts and deletes one, plus a frame header each.
     */
    public long frameBytes() {
        long images = records * (100 + mix.update()) / 100;
        return images * recordSize + records * 64;
    }
}

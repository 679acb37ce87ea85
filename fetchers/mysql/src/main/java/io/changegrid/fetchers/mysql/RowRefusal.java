package io.changegrid.fetchers.mysql;

/**
 * The error that stops the fetcher at a row value it cannot carry: what the converter or the frame
 * encoder said (column, value, why), the table, and where the row is: the transaction's SCN, the
 * rows event's binlog position and the transaction's GTID, so the operator can find the row.
 */
final class RowRefusal {

    private RowRefusal() {}

    /**
     * @param table the table, when {@code cause} does not name it already; else null
     */
    static FetchFailedException of(
            String table, IllegalArgumentException cause, long scn, Object position, String gtid) {
        return new FetchFailedException(
                "row value refused: "
                        + (table == null ? "" : "table=" + table + ", ")
                        + cause.getMessage()
                        + ", scn="
                        + scn
                        + ", position="
                        + position
                        + ", gtid="
                        + gtid,
                cause);
    }
}

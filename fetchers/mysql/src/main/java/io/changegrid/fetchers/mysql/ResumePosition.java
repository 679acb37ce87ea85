package io.changegrid.fetchers.mysql;

/**
 * What a MySQL/MariaDB fetcher hands the relay to store as its resume position: the binlog position
 * right after the last transaction it handed over, and that transaction's GTID when the source
 * writes GTIDs. The fetcher resumes by file and offset; the GTID names the same point in a form
 * that survives a move to another server of the replication topology, for an operator reading the
 * status or the replay point.
 *
 * <p>Text form: {@code file:offset}, or {@code file:offset gtid=<gtid>} (MariaDB {@code
 * domain-server-seq}, MySQL {@code uuid:seq}); the relay stores it as it is.
 *
 * @param position where the next transaction starts
 * @param gtid the GTID of the transaction before it, or empty when unknown
 */
public record ResumePosition(BinlogPosition position, String gtid) {

    private static final String GTID = " gtid=";

    public ResumePosition {
        if (position == null || gtid == null) {
            throw new IllegalArgumentException(
                    "resume position needs a binlog position and a GTID (may be empty): position="
                            + position
                            + ", gtid="
                            + gtid);
        }
    }

    /**
     * Parses the text form; a bare {@code file:offset} (as relays before GTIDs stored it) has an
     * empty GTID.
     *
     * @throws IllegalArgumentException naming the text
     */
    public static ResumePosition parse(String text) {
        int at = text.indexOf(GTID);
        return at < 0
                ? new ResumePosition(BinlogPosition.parse(text), "")
                : new ResumePosition(
                        BinlogPosition.parse(text.substring(0, at)),
                        text.substring(at + GTID.length()));
    }

    @Override
    public String toString() {
        return gtid.isEmpty() ? position.toString() : position + GTID + gtid;
    }
}

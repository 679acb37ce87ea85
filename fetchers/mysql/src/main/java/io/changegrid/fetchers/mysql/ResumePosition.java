package io.changegrid.fetchers.mysql;

/**
 * What a MySQL/MariaDB fetcher hands the relay to store as its resume position: the binlog position
 * right after the last transaction it handed over, that transaction's GTID when the source writes
 * GTIDs, the timeline its SCNs are on, and the server whose binlog the position names.
 *
 * <p>A fetcher resuming by position ({@code source.resume: position}) reads on from file and offset
 * and refuses a server other than {@code server}; one resuming by GTID ({@code source.resume:
 * gtid}) asks whichever server it finds for the transactions after {@code gtid}.
 *
 * <p>Text form: {@code file:offset[ gtid=<gtid>][ timeline=gtid:<domain>][ server=<identity>]}
 * (GTIDs: MariaDB {@code domain-server-seq}, MySQL {@code uuid:seq}; identity: {@link
 * SourceIdentity}, last since it may hold spaces); the relay stores it as it is. Older relays
 * stored {@code file:offset[ gtid=<gtid>]}: a position timeline of a server not recorded.
 *
 * @param position where the next transaction starts, on {@code server}
 * @param gtid the GTID of the transaction before it, or empty when unknown
 * @param timeline the GTID timeline, or null for the binlog-position timeline
 * @param server the server {@code position} belongs to, or null when not recorded
 */
public record ResumePosition(
        BinlogPosition position, String gtid, GtidTimeline timeline, SourceIdentity server) {

    private static final String GTID = " gtid=";
    private static final String TIMELINE = " timeline=";
    private static final String SERVER = " server=";

    public ResumePosition {
        if (position == null || gtid == null) {
            throw new IllegalArgumentException(
                    "resume position needs a binlog position and a GTID (may be empty): position="
                            + position
                            + ", gtid="
                            + gtid);
        }
    }

    /** A position on the binlog-position timeline of a server not recorded. */
    public ResumePosition(BinlogPosition position, String gtid) {
        this(position, gtid, null, null);
    }

    /** This resume point at another position and GTID, on the same timeline and server. */
    ResumePosition advancedTo(BinlogPosition next, String nextGtid) {
        return new ResumePosition(next, nextGtid, timeline, server);
    }

    /** This resume point on another server. */
    ResumePosition on(SourceIdentity newServer) {
        return new ResumePosition(position, gtid, timeline, newServer);
    }

    /**
     * Parses the text form; a bare {@code file:offset} (as relays before GTIDs stored it) has an
     * empty GTID.
     *
     * @throws IllegalArgumentException naming the text
     */
    public static ResumePosition parse(String text) {
        String rest = text;
        SourceIdentity server = null;
        int at = rest.indexOf(SERVER);
        if (at >= 0) {
            server = SourceIdentity.parse(rest.substring(at + SERVER.length()));
            rest = rest.substring(0, at);
        }
        GtidTimeline timeline = null;
        at = rest.indexOf(TIMELINE);
        if (at >= 0) {
            timeline = GtidTimeline.parse(rest.substring(at + TIMELINE.length()));
            rest = rest.substring(0, at);
        }
        String gtid = "";
        at = rest.indexOf(GTID);
        if (at >= 0) {
            gtid = rest.substring(at + GTID.length());
            rest = rest.substring(0, at);
        }
        return new ResumePosition(BinlogPosition.parse(rest), gtid, timeline, server);
    }

    @Override
    public String toString() {
        return position
                + (gtid.isEmpty() ? "" : GTID + gtid)
                + (timeline == null ? "" : TIMELINE + timeline)
                + (server == null ? "" : SERVER + server);
    }
}

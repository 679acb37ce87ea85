package io.changegrid.fetchers.mysql;

/**
 * How a binlog fetcher turns transactions into SCNs, and the name of the timeline those SCNs are on
 * (docs/event-format.md, "The timeline"). Every relay of a source must compute the same SCN for the
 * same transaction: the SCN is a function of what every relay reads alike, never of when or where a
 * relay connected.
 */
sealed interface Timeline permits Timeline.OfPosition, GtidTimeline {

    /**
     * The SCN of a transaction that starts at {@code start} and carries {@code gtid} (empty when
     * the source writes none).
     *
     * @throws FetchFailedException if the transaction cannot be placed on this timeline
     */
    long scn(BinlogPosition start, String gtid);

    /**
     * The lowest SCN the transaction after {@code resume} can have: everything published so far
     * lies below it, so a heartbeat takes the SCN just below it.
     */
    long next(ResumePosition resume);

    /** The timeline's identity, as relays send it to consumers; ASCII. */
    String identity();

    /**
     * The binlog position timeline of one server: {@code fileNumber << 32 | offset} ({@link
     * BinlogPosition#scn()}). Named after the server, since another server's positions are another
     * timeline.
     */
    record OfPosition(SourceIdentity server) implements Timeline {

        @Override
        public long scn(BinlogPosition start, String gtid) {
            return start.scn();
        }

        @Override
        public long next(ResumePosition resume) {
            return resume.position().scn();
        }

        @Override
        public String identity() {
            return ascii("binlog:" + server);
        }
    }

    /** {@code text} with every character outside printable ASCII as {@code %XX} of its UTF-8. */
    static String ascii(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (byte b : text.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            if (c > 0x20 && c < 0x7F && c != '%') {
                out.append((char) c);
            } else {
                out.append('%').append(String.format("%02X", c));
            }
        }
        return out.toString();
    }
}

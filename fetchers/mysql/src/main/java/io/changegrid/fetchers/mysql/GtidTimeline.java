package io.changegrid.fetchers.mysql;

/**
 * The timeline of a MariaDB replication domain: a transaction's SCN is derived from its GTID's
 * sequence number alone, which is the same on every server of the topology and keeps growing when a
 * replica is promoted (it continues the sequence it replicated), so every relay computes the same
 * SCNs however and whenever it switched servers.
 *
 * <pre>
 *   bit 63: 0 | bit 62: 1 | bits 61..1: sequence number | bit 0: 0 transaction, 1 heartbeat
 * </pre>
 *
 * <p>Bit 62 sets every GTID SCN above every binlog-position SCN ({@code fileNumber << 32 | offset}
 * with file numbers below 2^30), so a consumer checkpoint from a position timeline is never
 * mistaken for a place on this one: it lies below the relay's oldest SCN (410, bootstrap). Bit 0
 * leaves room for the heartbeat after each transaction: above it, below the next.
 *
 * <p>One domain per timeline: sequence numbers of different domains are not ordered with each
 * other. A transaction of another domain, or one whose sequence number does not grow (a source
 * without {@code gtid_strict_mode}), stops the fetcher with an error that names it.
 *
 * @param domain the replication domain whose transactions this timeline carries
 */
record GtidTimeline(long domain) implements Timeline {

    /** The bit that puts GTID SCNs above every binlog-position SCN. */
    static final long BASE = 1L << 62;

    /** The largest sequence number that fits. */
    static final long MAX_SEQUENCE = (1L << 61) - 2;

    /** The {@code timeline=} value stored in the resume position: {@code gtid:<domain>}. */
    static final String PREFIX = "gtid:";

    GtidTimeline {
        if (domain < 0 || domain > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("GTID domain out of range: domain=" + domain);
        }
    }

    /**
     * Parses the stored form, {@code gtid:<domain>}.
     *
     * @throws IllegalArgumentException naming the text
     */
    static GtidTimeline parse(String text) {
        if (!text.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a GTID timeline: text=" + text);
        }
        try {
            return new GtidTimeline(Long.parseLong(text.substring(PREFIX.length())));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a GTID timeline: text=" + text, e);
        }
    }

    /** The SCN of the transaction with sequence number {@code sequence}. */
    static long scnOf(long sequence) {
        if (sequence < 0 || sequence > MAX_SEQUENCE) {
            throw new FetchFailedException(
                    "GTID sequence number outside the SCN range: sequence="
                            + sequence
                            + ", max="
                            + MAX_SEQUENCE);
        }
        return BASE | (sequence << 1);
    }

    @Override
    public long scn(BinlogPosition start, String gtid) {
        if (gtid.isEmpty()) {
            throw new FetchFailedException(
                    "transaction without a GTID on a GTID timeline: position="
                            + start
                            + "; source.resume: gtid needs a MariaDB source, which gives every"
                            + " transaction a GTID");
        }
        MariaGtid parsed = MariaGtid.parse(gtid);
        if (parsed.domain() != domain) {
            throw new FetchFailedException(
                    "transaction of another GTID domain: gtid="
                            + gtid
                            + ", timelineDomain="
                            + domain
                            + ", position="
                            + start
                            + "; a GTID timeline carries one replication domain (docs/event-format.md)");
        }
        return scnOf(parsed.sequence());
    }

    @Override
    public long next(ResumePosition resume) {
        String gtid = resume.gtid();
        return gtid.isEmpty() ? scnOf(1) : scnOf(MariaGtid.parse(gtid).sequence() + 1);
    }

    @Override
    public String identity() {
        return "mariadb-gtid:domain=" + domain;
    }

    @Override
    public String toString() {
        return PREFIX + domain;
    }

    /**
     * A MariaDB GTID, {@code domain-server-sequence}.
     *
     * @param domain the replication domain
     * @param serverId the server that first committed the transaction
     * @param sequence the sequence number in the domain
     */
    record MariaGtid(long domain, long serverId, long sequence) {

        /**
         * Parses {@code domain-server-sequence}.
         *
         * @throws FetchFailedException naming the text
         */
        static MariaGtid parse(String text) {
            String[] parts = text.split("-", -1);
            try {
                if (parts.length == 3) {
                    return new MariaGtid(
                            Long.parseLong(parts[0]),
                            Long.parseLong(parts[1]),
                            Long.parseUnsignedLong(parts[2]));
                }
            } catch (NumberFormatException e) {
                throw new FetchFailedException(
                        "not a MariaDB GTID (domain-server-sequence): gtid=" + text, e);
            }
            throw new FetchFailedException(
                    "not a MariaDB GTID (domain-server-sequence): gtid=" + text);
        }
    }
}

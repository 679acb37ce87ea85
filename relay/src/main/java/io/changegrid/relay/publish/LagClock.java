package io.changegrid.relay.publish;

/**
 * Which clock a relay's lag is read on ({@code /v1/status}'s {@code fetch.lagClock}, the console),
 * the best its source offers ({@link SourceLag}).
 */
public enum LagClock {
    /**
     * The source stamps commits to the microsecond (MySQL 8's GTID event, PostgreSQL): the lag is
     * the newest entry's receipt minus its commit.
     */
    COMMIT_MICROS("commit-micros"),
    /**
     * The source stamps whole seconds (MariaDB, MySQL 5.7): the lag is the relay's own receipt of
     * the newest entry minus the end of its commit second.
     */
    RECEIVE_TIME("receive-time"),
    /**
     * Whole seconds, and the relay's receive time is no help (its clock is behind the source's):
     * lag is now minus the commit second, up to a second too much.
     */
    COMMIT_SECONDS("commit-seconds");

    private final String wireName;

    LagClock(String wireName) {
        this.wireName = wireName;
    }

    /** The name in the status document. */
    public String wireName() {
        return wireName;
    }
}

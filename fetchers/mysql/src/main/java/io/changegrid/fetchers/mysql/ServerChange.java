package io.changegrid.fetchers.mysql;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a fetcher does when the server behind the source's address is not the one its position
 * belongs to (a failover, a restored backup, an address moved to another host), and when its saved
 * position is on another timeline than {@code source.resume} makes: by position it refuses, naming
 * both servers, since a binlog file and offset name other transactions, or none, on another server;
 * by GTID it follows.
 */
final class ServerChange {

    private static final Logger LOG = LoggerFactory.getLogger(ServerChange.class);

    private ServerChange() {}

    /**
     * Checks a saved position against the server found at start.
     *
     * @param address the source's {@code host:port}, for messages
     * @return the position to resume from, on {@code found}
     * @throws FetchFailedException if the relay must not resume there
     */
    static ResumePosition atStart(
            ResumeMode mode, ResumePosition saved, SourceIdentity found, String address) {
        if (mode == ResumeMode.GTID && saved.timeline() == null) {
            throw new FetchFailedException(
                    "the relay's saved position is on the binlog-position timeline, but source.resume"
                            + " is gtid: position="
                            + saved
                            + "; a GTID timeline has other SCNs: set source.resume: position, or"
                            + " clear the relay's state directory and bootstrap its consumers"
                            + " (docs/relay.md, \"The source server changes\")");
        }
        if (mode == ResumeMode.POSITION && saved.timeline() != null) {
            throw new FetchFailedException(
                    "the relay's saved position is on a GTID timeline, but source.resume is"
                            + " position: position="
                            + saved
                            + "; set source.resume: gtid, or clear the relay's state directory and"
                            + " bootstrap its consumers (docs/relay.md, \"The source server changes\")");
        }
        if (saved.server() == null) {
            LOG.info(
                    "saved position names no server (saved by an older relay): taking the one found,"
                            + " server={}, address={}",
                    found,
                    address);
            return saved.on(found);
        }
        check(mode, saved, found, address);
        return saved.on(found);
    }

    /**
     * Checks the server found before a connection against the one the position belongs to.
     *
     * @throws FetchFailedException by position, if the server is another one
     */
    static void check(ResumeMode mode, ResumePosition at, SourceIdentity found, String address) {
        if (at.server() == null || at.server().equals(found)) {
            return;
        }
        if (mode == ResumeMode.POSITION) {
            throw new FetchFailedException(
                    "the source server is not the one the relay's position belongs to: saved="
                            + at.server()
                            + ", found="
                            + found
                            + ", address="
                            + address
                            + ", position="
                            + at
                            + "; a binlog position names other transactions on another server. Point"
                            + " source.host back at the saved server, or set source.resume: gtid to"
                            + " follow a promoted replica by GTID (MariaDB), or clear the relay's"
                            + " state and bootstrap its consumers (docs/relay.md)");
        }
        LOG.warn(
                "source server changed, following it by GTID: from={}, to={}, address={}, gtid={}",
                at.server(),
                found,
                address,
                at.gtid());
    }
}

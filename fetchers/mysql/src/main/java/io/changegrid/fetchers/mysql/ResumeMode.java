package io.changegrid.fetchers.mysql;

import java.util.Locale;

/**
 * How a MySQL/MariaDB fetcher resumes, and so which timeline its SCNs are on ({@code
 * source.resume}; docs/event-format.md, "The timeline").
 */
public enum ResumeMode {

    /**
     * By binlog file and offset, on the one server whose binlog those name: SCNs are {@code
     * fileNumber << 32 | offset}. A relay that finds another server behind its address refuses to
     * resume.
     */
    POSITION,

    /**
     * By GTID (MariaDB only): SCNs derive from the GTID's sequence number, the same on every server
     * of the replication topology, so a relay follows a promoted replica and every relay computes
     * the same SCNs whenever it switched.
     */
    GTID;

    /**
     * Parses {@code position} or {@code gtid}.
     *
     * @throws IllegalArgumentException naming the text
     */
    public static ResumeMode parse(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "position" -> POSITION;
            case "gtid" -> GTID;
            default ->
                    throw new IllegalArgumentException(
                            "source.resume must be position or gtid: value=" + text);
        };
    }
}

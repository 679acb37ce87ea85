package io.changegrid.fetchers.mysql;

/**
 * Where a fetcher with no saved position starts reading: at the server's current end, at its oldest
 * binlog still held, or at an explicit {@code file:offset}. Once a relay has published, it always
 * resumes from its own saved position instead.
 */
public sealed interface StartPosition {

    /** The server's current end of binlog, with a consistent schema snapshot (the default). */
    record Current() implements StartPosition {}

    /**
     * The oldest binlog file the server still holds. Schemas come from a snapshot taken at start
     * and are then re-derived from the DDL replayed from the binlog; a table whose CREATE TABLE was
     * purged and that was altered since is caught by the column-count check and stops the fetcher.
     */
    record Earliest() implements StartPosition {}

    /** An explicit position, e.g. one read from a backup's metadata. */
    record At(BinlogPosition position) implements StartPosition {}

    /**
     * Parses {@code current}, {@code earliest} or {@code file:offset}.
     *
     * @throws IllegalArgumentException naming the text
     */
    static StartPosition parse(String text) {
        return switch (text) {
            case "current" -> new Current();
            case "earliest" -> new Earliest();
            default -> {
                try {
                    yield new At(BinlogPosition.parse(text));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(
                            "start position must be current, earliest or file:offset: text=" + text,
                            e);
                }
            }
        };
    }
}

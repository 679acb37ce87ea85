package io.changegrid.fetchers.postgresql;

/**
 * Where a fetcher with no saved position starts: the server's current WAL end, what the slot still
 * retains, or an explicit LSN. Once a relay has published, it resumes from its own saved position.
 */
sealed interface StartPosition {

    /**
     * The current end of WAL: a new slot's consistent point, or an existing slot advanced to it.
     */
    record Current() implements StartPosition {}

    /** The oldest transaction the slot still retains (its confirmed-flush position). */
    record Earliest() implements StartPosition {}

    /** An explicit LSN, at or after the slot's confirmed-flush position. */
    record At(Lsn lsn) implements StartPosition {}

    /**
     * Parses {@code current}, {@code earliest} or an LSN.
     *
     * @throws IllegalArgumentException naming the text
     */
    static StartPosition parse(String text) {
        return switch (text) {
            case "current" -> new Current();
            case "earliest" -> new Earliest();
            default -> {
                try {
                    yield new At(Lsn.parse(text));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(
                            "start position must be current, earliest or an LSN (X/Y): text="
                                    + text,
                            e);
                }
            }
        };
    }
}

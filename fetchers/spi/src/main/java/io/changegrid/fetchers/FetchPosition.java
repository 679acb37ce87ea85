package io.changegrid.fetchers;

import java.util.Objects;

/**
 * Where a fetcher's next transaction starts: its SCN on the source's timeline and the fetcher's own
 * text form of the position, which the relay stores as it is and hands back at restart. The relay
 * never reads the text: each source serialises its own position (a binlog file and offset, an LSN,
 * an SCN, a trail position).
 *
 * @param scn no transaction still to come has an SCN below this one
 * @param resumePosition the serialised position, at most 480 UTF-8 bytes
 */
public record FetchPosition(long scn, String resumePosition) {

    public FetchPosition {
        Objects.requireNonNull(resumePosition, "resumePosition");
    }

    @Override
    public String toString() {
        return resumePosition;
    }
}

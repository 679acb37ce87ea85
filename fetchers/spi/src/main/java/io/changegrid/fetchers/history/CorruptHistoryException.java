package io.changegrid.fetchers.history;

import java.io.IOException;

/** A schema history file that cannot be read back: names the file, the line and what is wrong. */
public final class CorruptHistoryException extends IOException {

    private static final long serialVersionUID = 1L;

    public CorruptHistoryException(String message) {
        super(message);
    }

    public CorruptHistoryException(String message, Throwable cause) {
        super(message, cause);
    }
}

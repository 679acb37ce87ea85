package io.changegrid.events.frame;

/**
 * A frame failed a check: truncated, a bad checksum, a field out of range, or a row image that does
 * not match its schema. The message says what and where ({@code offset=}), so the bad bytes can be
 * found. A corrupt frame is never decoded into values.
 */
public final class CorruptFrameException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public CorruptFrameException(String message) {
        super(message);
    }
}

package io.changegrid.fetchers.logminer.redo;

/**
 * {@code SQL_REDO} text not in LogMiner's fixed shape: the message names what was expected and
 * where, with the text around that place.
 */
public final class RedoSyntaxException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    RedoSyntaxException(String message) {
        super(message);
    }
}

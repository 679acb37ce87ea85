package io.changegrid.fetchers.logminer.redo;

/**
 * One value as {@code SQL_REDO} writes it, before the column's type gives it meaning.
 *
 * @param form how LogMiner wrote it
 * @param text the literal's content, quotes removed, {@code ''} unescaped, {@code UNISTR} decoded
 *     and {@code ||} pieces joined; the hex digits of {@code HEXTORAW}; the first argument of a
 *     conversion function; {@code null} for the forms without text
 * @param format a conversion function's format argument, or {@code null} when it has none
 */
public record RedoValue(Form form, String text, String format) {

    /** The forms a value takes in {@code SQL_REDO}. */
    public enum Form {
        /** {@code NULL} in VALUES or SET, {@code IS NULL} in WHERE. */
        NULL,
        /**
         * A quoted string or bare number, possibly built of {@code ||} and {@code UNISTR} parts.
         */
        TEXT,
        /** {@code HEXTORAW('..')}. */
        HEX,
        /** {@code TO_DATE('..', '..')}. */
        DATE,
        /** {@code TO_TIMESTAMP('..'[, '..'])}. */
        TIMESTAMP,
        /** {@code TO_TIMESTAMP_TZ('..'[, '..'])}. */
        TIMESTAMP_TZ,
        /** {@code TO_DSINTERVAL('..')}. */
        DS_INTERVAL,
        /** {@code TO_YMINTERVAL('..')}. */
        YM_INTERVAL,
        /** {@code EMPTY_BLOB()}. */
        EMPTY_BLOB,
        /** {@code EMPTY_CLOB()}. */
        EMPTY_CLOB,
        /** {@code Unsupported Type}: LogMiner could not render the column. */
        UNSUPPORTED
    }

    public static final RedoValue NULL = new RedoValue(Form.NULL, null, null);
    public static final RedoValue EMPTY_BLOB = new RedoValue(Form.EMPTY_BLOB, null, null);
    public static final RedoValue EMPTY_CLOB = new RedoValue(Form.EMPTY_CLOB, null, null);
    public static final RedoValue UNSUPPORTED = new RedoValue(Form.UNSUPPORTED, null, null);

    /** A quoted or bare text value. */
    public static RedoValue text(String text) {
        return new RedoValue(Form.TEXT, text, null);
    }
}

package io.changegrid.fetchers.logminer.schema;

import java.util.List;

/**
 * The session formats the fetcher sets before mining, so LogMiner renders every date and timestamp
 * in {@code SQL_REDO} in one exact, full-precision shape (LogMiner renders them with the mining
 * session's NLS settings). {@code SYYYY} keeps the sign of BC years, {@code FF9} every fractional
 * digit, {@code TZH:TZM} the offset.
 */
public final class NlsFormats {

    public static final String DATE = "SYYYY-MM-DD HH24:MI:SS";
    public static final String TIMESTAMP = "SYYYY-MM-DD HH24:MI:SS.FF9";
    public static final String TIMESTAMP_TZ = "SYYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM";

    /** The formats whose text the value reader understands, as a TO_DATE/TO_TIMESTAMP argument. */
    static final List<String> UNDERSTOOD =
            List.of(
                    DATE,
                    TIMESTAMP,
                    TIMESTAMP_TZ,
                    "YYYY-MM-DD HH24:MI:SS",
                    "YYYY-MM-DD HH24:MI:SS.FF9",
                    "YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM");

    private NlsFormats() {}
}

/**
 * The Oracle LogMiner fetcher ({@code source.type: logminer}): plain {@code java.sql} over the
 * ojdbc11 driver. {@link io.changegrid.fetchers.logminer.LogMinerFetcher} mines SCN windows of
 * {@code V$LOGMNR_CONTENTS}; the sub-packages hold the {@code SQL_REDO} parser ({@code redo}), the
 * dictionary types ({@code schema}), transaction assembly and the timeline SCN ({@code assembly}),
 * the database statements and checks ({@code mining}) and the PostgreSQL stand-in's seam ({@code
 * standin}).
 */
package io.changegrid.fetchers.logminer;

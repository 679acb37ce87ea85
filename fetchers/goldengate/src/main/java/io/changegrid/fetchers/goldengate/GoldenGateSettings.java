package io.changegrid.fetchers.goldengate;

import io.changegrid.config.ConfigKey;
import io.changegrid.config.ValueKind;
import java.time.Duration;
import java.util.List;

/**
 * The settings of a GoldenGate source ({@code source.type: goldengate}), defined once; the relay
 * validates and documents them with its own.
 */
public final class GoldenGateSettings {

    public static final ConfigKey<String> DIRECTORY =
            ConfigKey.required(
                    "source.directory",
                    ValueKind.STRING,
                    "The directory GoldenGate for Big Data's File Writer handler writes into"
                            + " (gg.handler.<name>.pathMappingTemplate); one file stream for all"
                            + " captured tables.");
    public static final ConfigKey<TrailFormat> FORMAT =
            ConfigKey.of(
                    "source.format",
                    ValueKind.oneOf(TrailFormat.class),
                    TrailFormat.JSON,
                    "The formatter's record format: json (one operation per line) or xml (<transaction>"
                            + " elements, files named with a sequence number).");
    public static final ConfigKey<String> FINALIZED_SUFFIX =
            ConfigKey.of(
                            "source.finalizedSuffix",
                            ValueKind.STRING,
                            ".json",
                            "Name ending of a finalized file (after the File Writer's rename"
                                    + " finalize action); no more data is written to it.")
                    .validatedBy(v -> !v.isEmpty(), "not empty");
    public static final ConfigKey<String> ACTIVE_SUFFIX =
            ConfigKey.of(
                            "source.activeSuffix",
                            ValueKind.STRING,
                            ".json.tmp",
                            "Name ending of the file being written, read up to its last complete"
                                    + " line. Other files in the directory are ignored.")
                    .validatedBy(v -> !v.isEmpty(), "not empty");
    public static final ConfigKey<String> TRANSACTION_INDICATOR =
            ConfigKey.of(
                    "source.transactionIndicator",
                    ValueKind.STRING,
                    "",
                    "The field of the transaction indicator metacolumn (${txind[...]}: 0 begin,"
                            + " 1 middle, 2 end, 3 whole); empty: transactions end where the"
                            + " transaction id token changes or a file is finalized.");
    public static final ConfigKey<String> XID_TOKEN =
            ConfigKey.of(
                            "source.xidToken",
                            ValueKind.STRING,
                            "TK-XID",
                            "The token holding the source transaction id (@GETENV('TRANSACTION',"
                                    + " 'XID')).")
                    .validatedBy(v -> !v.isEmpty(), "not empty");
    public static final ConfigKey<String> CSN_TOKEN =
            ConfigKey.of(
                            "source.csnToken",
                            ValueKind.STRING,
                            "TK-CSN",
                            "The token holding the commit sequence number (@GETENV('TRANSACTION',"
                                    + " 'CSN')).")
                    .validatedBy(v -> !v.isEmpty(), "not empty");
    public static final ConfigKey<String> SCHEMA_DIRECTORY =
            ConfigKey.of(
                    "source.schemaDirectory",
                    ValueKind.STRING,
                    "",
                    "Where GoldenGate writes the JSON formatter's generated schema files"
                            + " (SCHEMA.TABLE.schema.json); empty: none.");
    public static final ConfigKey<List<String>> TABLES =
            ConfigKey.of(
                            "source.tables",
                            ValueKind.STRING_LIST,
                            List.of(),
                            "Column types of captured tables, one entry a table, winning over its"
                                    + " schema file: SCHEMA.TABLE(COLUMN TYPE [not null] [key], ...);"
                                    + " types as Oracle names them (NUMBER(10), VARCHAR2(20), DATE,"
                                    + " TIMESTAMP, ...) or value:TYPE for a changegrid value type"
                                    + " (value:int64, value:date, ...).")
                    .validatedBy(GoldenGateSettings::areTables, "SCHEMA.TABLE(COLUMN TYPE, ...)");
    public static final ConfigKey<Duration> HEARTBEAT =
            ConfigKey.of(
                            "source.heartbeatInterval",
                            ValueKind.DURATION,
                            Duration.ofSeconds(1),
                            "How often an idle source's timeline advances, so consumers see"
                                    + " progress and lag.")
                    .validatedBy(v -> !v.isNegative() && !v.isZero(), "positive");
    public static final ConfigKey<Duration> POLL_INTERVAL =
            ConfigKey.of(
                            "source.pollInterval",
                            ValueKind.DURATION,
                            Duration.ofMillis(10),
                            "How long the fetcher waits for new data once it has read everything.")
                    .validatedBy(v -> !v.isNegative() && !v.isZero(), "positive");

    /** Every setting, in documentation order. */
    public static final List<ConfigKey<?>> KEYS =
            List.of(
                    DIRECTORY,
                    FORMAT,
                    FINALIZED_SUFFIX,
                    ACTIVE_SUFFIX,
                    TRANSACTION_INDICATOR,
                    XID_TOKEN,
                    CSN_TOKEN,
                    SCHEMA_DIRECTORY,
                    TABLES,
                    HEARTBEAT,
                    POLL_INTERVAL);

    private GoldenGateSettings() {}

    private static boolean areTables(List<String> tables) {
        try {
            for (String table : tables) {
                ConfiguredTables.parse(table);
            }
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}

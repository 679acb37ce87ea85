package io.changegrid.appliers.config;

import io.changegrid.appliers.batch.LaneRouter;
import io.changegrid.appliers.conflict.LoggedRejections;
import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.ApplyMode;
import io.changegrid.appliers.schema.SchemaChangeMode;
import io.changegrid.config.Config;
import io.changegrid.config.ConfigException;
import io.changegrid.config.ConfigKey;
import io.changegrid.config.ConfigSchema;
import io.changegrid.config.ValueKind;
import io.changegrid.config.tls.DatabaseTlsKeys;
import io.changegrid.consumer.config.ConsumerSettings;
import io.changegrid.consumer.group.config.GroupSettings;
import io.changegrid.policy.conflict.ConflictResolver;
import io.changegrid.policy.conflict.ConflictStrategy;
import io.changegrid.policy.conflict.RejectionListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The settings of {@link io.changegrid.appliers.ApplierMain}: every consumer setting ({@link
 * ConsumerSettings}) plus the target's ({@code target.*}) and the apply path's ({@code apply.*}).
 */
public final class ApplierSettings {

    public static final ConfigKey<String> TARGET_URL =
            ConfigKey.required(
                            "target.url",
                            ValueKind.STRING,
                            "JDBC URL of the target: jdbc:postgresql://host:5432/db or"
                                    + " jdbc:mariadb://host:3306/")
                    .validatedBy(v -> v.startsWith("jdbc:"), "a jdbc: URL");
    public static final ConfigKey<String> TARGET_USER =
            ConfigKey.of("target.user", ValueKind.STRING, "", "Target user (empty: from the URL).");
    public static final ConfigKey<String> TARGET_PASSWORD =
            ConfigKey.of("target.password", ValueKind.STRING, "", "Target password.").asSecret();
    public static final ConfigKey<String> TARGET_SCHEMA =
            ConfigKey.of(
                    "target.schema",
                    ValueKind.STRING,
                    "",
                    "Schema (PostgreSQL) or database (MariaDB) every table is written to (empty: the"
                            + " source table's database name).");
    public static final ConfigKey<Boolean> TARGET_CREATE_TABLES =
            ConfigKey.of(
                    "target.createTables",
                    ValueKind.BOOLEAN,
                    true,
                    "Create missing target tables (and schemas) from the source schema.");
    public static final ConfigKey<String> TARGET_CHECKPOINT_TABLE =
            ConfigKey.of(
                            "target.checkpointTable",
                            ValueKind.STRING,
                            "changegrid_checkpoint",
                            "The checkpoint table, written in the same transaction as the rows.")
                    .validatedBy(v -> !v.isBlank(), "not empty");
    public static final ConfigKey<String> TARGET_CHECKPOINT_SCHEMA =
            ConfigKey.of(
                    "target.checkpointSchema",
                    ValueKind.STRING,
                    "",
                    "Schema/database of the checkpoint table (empty: public on PostgreSQL, changegrid"
                            + " on MariaDB).");

    public static final ConfigKey<String> APPLY_GROUP =
            ConfigKey.of(
                            "apply.consumerGroup",
                            ValueKind.STRING,
                            "changegrid",
                            "The consumer group the checkpoint rows belong to.")
                    .validatedBy(v -> !v.isBlank() && v.length() <= 200, "1..200 characters");
    public static final ConfigKey<Integer> APPLY_LANES =
            ConfigKey.of(
                            "apply.lanes",
                            ValueKind.INT,
                            1,
                            "Micro-batch lanes: connections applying in parallel, each committing its own"
                                    + " transaction and checkpoint row.")
                    .validatedBy(v -> v >= 1 && v <= 64, "1..64");
    public static final ConfigKey<String> APPLY_PARTITIONER =
            ConfigKey.of(
                            "apply.partitioner",
                            ValueKind.STRING,
                            "key",
                            "How rows are split over lanes: key, transaction, event or column:<name>.")
                    .validatedBy(
                            ApplierSettings::isLaneRouter,
                            "key, transaction, event or column:<name>");
    public static final ConfigKey<Integer> APPLY_MAX_ROWS =
            ConfigKey.of(
                            "apply.maxRows",
                            ValueKind.INT,
                            50_000,
                            "Pending rows after which the lanes commit at the next transaction end, inside a"
                                    + " consumer batch.")
                    .validatedBy(v -> v >= 1, "at least 1");
    public static final ConfigKey<String> APPLY_SCHEMA_CHANGES =
            ConfigKey.of(
                            "apply.schemaChanges",
                            ValueKind.STRING,
                            "apply",
                            "apply: ALTER target tables to follow source schema changes; refuse: stop with"
                                    + " an error naming table and columns.")
                    .validatedBy(
                            v -> v.equalsIgnoreCase("apply") || v.equalsIgnoreCase("refuse"),
                            "apply or refuse");

    public static final ConfigKey<String> APPLY_MODE =
            ConfigKey.of(
                            "apply.mode",
                            ValueKind.STRING,
                            "statement",
                            "statement: JDBC batches of upserts and deletes; staging (PostgreSQL only):"
                                    + " COPY into a temporary staging table, then one merge per table.")
                    .validatedBy(
                            v -> v.equalsIgnoreCase("statement") || v.equalsIgnoreCase("staging"),
                            "statement or staging");

    public static final ConfigKey<String> APPLY_CONFLICT =
            ConfigKey.of(
                            "apply.conflict",
                            ValueKind.STRING,
                            "none",
                            "none: blind writes by key; else the conflict rule settling a target row"
                                    + " that was also changed elsewhere: last-writer-wins-by-commit-time,"
                                    + " last-writer-wins-by-scn, source-priority (with"
                                    + " apply.conflictSources) or reject-and-record (rejections logged).")
                    .validatedBy(
                            v -> v.equalsIgnoreCase("none") || strategy(v) != null,
                            "none, last-writer-wins-by-commit-time, last-writer-wins-by-scn,"
                                    + " source-priority or reject-and-record");
    public static final ConfigKey<List<String>> APPLY_CONFLICT_SOURCES =
            ConfigKey.of(
                            "apply.conflictSources",
                            ValueKind.STRING_LIST,
                            List.of(),
                            "Source ids, highest priority first, for apply.conflict=source-priority.")
                    .validatedBy(
                            v -> v.stream().allMatch(id -> id.trim().matches("-?\\d{1,9}")),
                            "source ids (integers)");

    public static final ConfigKey<String> APPLY_REFUSED_ROWS =
            ConfigKey.of(
                            "apply.refusedRows",
                            ValueKind.STRING,
                            "stop",
                            "stop: a change the target refuses for good stops the applier, nothing"
                                    + " skipped; park: its table is parked (its changes recorded in"
                                    + " order in the dead-letter table in the target) and the other"
                                    + " tables keep flowing, until an operator resumes it.")
                    .validatedBy(
                            v -> v.equalsIgnoreCase("stop") || v.equalsIgnoreCase("park"),
                            "stop or park");

    /** TLS to the target: the shape every fetcher and applier shares. */
    public static final DatabaseTlsKeys TARGET_TLS =
            DatabaseTlsKeys.under("target", "the target database");

    private static final List<ConfigKey<?>> OWN =
            List.of(
                    TARGET_URL,
                    TARGET_USER,
                    TARGET_PASSWORD,
                    TARGET_TLS.mode(),
                    TARGET_TLS.caFile(),
                    TARGET_SCHEMA,
                    TARGET_CREATE_TABLES,
                    TARGET_CHECKPOINT_TABLE,
                    TARGET_CHECKPOINT_SCHEMA,
                    APPLY_GROUP,
                    APPLY_LANES,
                    APPLY_PARTITIONER,
                    APPLY_MAX_ROWS,
                    APPLY_SCHEMA_CHANGES,
                    APPLY_MODE,
                    APPLY_CONFLICT,
                    APPLY_CONFLICT_SOURCES,
                    APPLY_REFUSED_ROWS);

    /** Consumer settings first, then the applier's. */
    public static final ConfigSchema SCHEMA = schema();

    private ApplierSettings() {}

    private static ConfigSchema schema() {
        List<ConfigKey<?>> keys = new ArrayList<>(GroupSettings.SCHEMA.keys());
        keys.addAll(OWN);
        return new ConfigSchema(keys);
    }

    private static boolean isLaneRouter(String text) {
        try {
            LaneRouter.parse(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The strategy a setting names (lower case with dashes, or the constant), or null. */
    private static ConflictStrategy strategy(String text) {
        try {
            return ConflictStrategy.valueOf(text.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * The conflict resolver {@code apply.conflict} names, or {@code null} for none.
     *
     * @throws IllegalArgumentException for source-priority without source ids
     */
    private static ConflictResolver conflicts(Config config, RejectionListener rejections) {
        ConflictStrategy strategy = strategy(config.get(APPLY_CONFLICT));
        if (strategy == null) {
            return null;
        }
        List<Integer> sources = new ArrayList<>();
        for (String id : config.get(APPLY_CONFLICT_SOURCES)) {
            sources.add(Integer.parseInt(id.trim()));
        }
        if (strategy == ConflictStrategy.SOURCE_PRIORITY && sources.isEmpty()) {
            throw new IllegalArgumentException(
                    "bad value: path=apply.conflictSources, value=[]: apply.conflict=source-priority"
                            + " needs the source ids, highest priority first");
        }
        return strategy.resolver(sources, rejections);
    }

    /**
     * The applier's options from a loaded configuration; the partition is the consumer's
     * subscription partition.
     *
     * @throws ConfigException naming the key of an invalid combination
     */
    public static ApplierOptions options(Config config) {
        return options(config, new LoggedRejections());
    }

    /**
     * As {@link #options(Config)}, with the listener {@code apply.conflict=reject-and-record} tells
     * about each rejected change.
     *
     * @throws ConfigException naming the key of an invalid combination
     */
    public static ApplierOptions options(Config config, RejectionListener rejections) {
        try {
            String user = config.get(TARGET_USER);
            String password = config.get(TARGET_PASSWORD);
            return ApplierOptions.builder(config.get(TARGET_URL))
                    .credentials(user.isEmpty() ? null : user, password.isEmpty() ? null : password)
                    .consumerGroup(config.get(APPLY_GROUP))
                    .partition(config.get(ConsumerSettings.SUBSCRIPTION_PARTITION))
                    .lanes(config.get(APPLY_LANES), LaneRouter.parse(config.get(APPLY_PARTITIONER)))
                    .maxRows(config.get(APPLY_MAX_ROWS))
                    .targetNamespace(config.get(TARGET_SCHEMA))
                    .createTables(config.get(TARGET_CREATE_TABLES))
                    .schemaChanges(
                            SchemaChangeMode.valueOf(
                                    config.get(APPLY_SCHEMA_CHANGES).toUpperCase(Locale.ROOT)))
                    .checkpointTable(
                            config.get(TARGET_CHECKPOINT_SCHEMA),
                            config.get(TARGET_CHECKPOINT_TABLE))
                    .mode(ApplyMode.valueOf(config.get(APPLY_MODE).toUpperCase(Locale.ROOT)))
                    .conflicts(conflicts(config, rejections))
                    .parkRefusedTables(config.get(APPLY_REFUSED_ROWS).equalsIgnoreCase("park"))
                    .tls(TARGET_TLS.from(config))
                    .build();
        } catch (IllegalArgumentException e) {
            throw new ConfigException(List.of(e.getMessage()));
        }
    }
}

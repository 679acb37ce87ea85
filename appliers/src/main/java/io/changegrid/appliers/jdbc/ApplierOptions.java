package io.changegrid.appliers.jdbc;

import io.changegrid.appliers.batch.LaneRouter;
import io.changegrid.appliers.schema.SchemaChangeMode;
import io.changegrid.appliers.schema.WriteOrder;
import io.changegrid.config.tls.DatabaseTls;
import io.changegrid.policy.conflict.ConflictResolver;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Everything a {@link JdbcApplier} is configured with. Immutable; made by {@link #builder}, which
 * validates all settings at once.
 *
 * @param url the target's JDBC URL ({@code jdbc:postgresql:...}, {@code jdbc:mariadb:...})
 * @param user the target user, or {@code null} when the URL names it
 * @param password the target password, or {@code null}
 * @param consumerGroup the consumer group the checkpoint rows belong to
 * @param partition the stream partition this consumer applies (its subscription's)
 * @param lanes how many micro-batch lanes (connections) apply in parallel
 * @param router how row changes are routed to lanes
 * @param maxRows pending rows after which the applier commits at the next transaction end, even
 *     inside a consumer batch
 * @param targetNamespace the schema/database every table is written to, or {@code null} for the
 *     source's database name
 * @param createTables whether missing target tables are created from the source schema
 * @param schemaChanges whether source schema changes are applied to target tables or refused
 * @param checkpointNamespace the schema/database of the checkpoint table
 * @param checkpointTable the checkpoint table's name
 * @param epoch the ownership epoch written with every checkpoint; a row with a newer one fences
 * @param conflicts the conflict resolver consulted before each write, or {@code null} for blind,
 *     read-free writes
 * @param mode how lanes write their rows: statements, or PostgreSQL's staging table and merge
 * @param parkRefusedTables whether a table whose change the target refuses for good is parked (its
 *     changes recorded in the dead-letter table, the other tables flowing) instead of the applier
 *     stopping
 * @param tls TLS to the target
 */
public record ApplierOptions(
        String url,
        String user,
        String password,
        String consumerGroup,
        int partition,
        int lanes,
        LaneRouter router,
        int maxRows,
        String targetNamespace,
        boolean createTables,
        SchemaChangeMode schemaChanges,
        String checkpointNamespace,
        String checkpointTable,
        LongSupplier epoch,
        ConflictResolver conflicts,
        ApplyMode mode,
        boolean parkRefusedTables,
        DatabaseTls tls) {

    public static Builder builder(String url) {
        return new Builder(url);
    }

    /**
     * These options for one partition of a consumer group, as its owner applies it: checkpoint rows
     * keyed by the group and the partition (so whichever member owns the partition next finds
     * them), fenced by the owner's epoch.
     */
    public ApplierOptions forPartition(String group, int partitionId, LongSupplier ownerEpoch) {
        return new ApplierOptions(
                url,
                user,
                password,
                Objects.requireNonNull(group, "group"),
                partitionId,
                lanes,
                router,
                maxRows,
                targetNamespace,
                createTables,
                schemaChanges,
                checkpointNamespace,
                checkpointTable,
                Objects.requireNonNull(ownerEpoch, "ownerEpoch"),
                conflicts,
                mode,
                parkRefusedTables,
                tls);
    }

    /**
     * Whether these settings let rows go in source commit order, which target tables with unique
     * keys besides the primary key or in foreign keys need: one lane (lanes commit apart, so a
     * child row could commit before its parent, or a unique value arrive before another row let go
     * of it), JDBC statements (a staging merge writes a table's rows as one set) and no conflict
     * rule (it drops some changes, so the target leaves the source's sequence of states).
     */
    WriteOrder writeOrder() {
        if (lanes > 1) {
            return new WriteOrder("apply.lanes=" + lanes);
        }
        if (mode == ApplyMode.STAGING) {
            return new WriteOrder("apply.mode=staging");
        }
        if (conflicts != null) {
            return new WriteOrder("conflict=" + conflicts);
        }
        return WriteOrder.sourceOrder();
    }

    /** Collects settings; {@link #build} checks them together. */
    public static final class Builder {
        private final String url;
        private String user;
        private String password;
        private String consumerGroup = "changegrid";
        private int partition;
        private int lanes = 1;
        private LaneRouter router = new LaneRouter.ByKey();
        private int maxRows = 50_000;
        private String targetNamespace;
        private boolean createTables = true;
        private SchemaChangeMode schemaChanges = SchemaChangeMode.APPLY;
        private String checkpointNamespace;
        private String checkpointTable = "changegrid_checkpoint";
        private LongSupplier epoch = () -> 0L;
        private ConflictResolver conflicts;
        private ApplyMode mode = ApplyMode.STATEMENT;
        private boolean parkRefusedTables;
        private DatabaseTls tls = DatabaseTls.PREFERRED;

        private Builder(String url) {
            this.url = url;
        }

        public Builder credentials(String user, String password) {
            this.user = user;
            this.password = password;
            return this;
        }

        public Builder consumerGroup(String consumerGroup) {
            this.consumerGroup = consumerGroup;
            return this;
        }

        public Builder partition(int partition) {
            this.partition = partition;
            return this;
        }

        public Builder lanes(int lanes, LaneRouter router) {
            this.lanes = lanes;
            this.router = router;
            return this;
        }

        public Builder maxRows(int maxRows) {
            this.maxRows = maxRows;
            return this;
        }

        public Builder targetNamespace(String targetNamespace) {
            this.targetNamespace = targetNamespace;
            return this;
        }

        public Builder createTables(boolean createTables) {
            this.createTables = createTables;
            return this;
        }

        public Builder schemaChanges(SchemaChangeMode schemaChanges) {
            this.schemaChanges = schemaChanges;
            return this;
        }

        /**
         * @param namespace {@code null} for PostgreSQL's {@code public} / a database named
         *     changegrid
         */
        public Builder checkpointTable(String namespace, String table) {
            this.checkpointNamespace = namespace;
            this.checkpointTable = table;
            return this;
        }

        public Builder epoch(LongSupplier epoch) {
            this.epoch = epoch;
            return this;
        }

        public Builder conflicts(ConflictResolver conflicts) {
            this.conflicts = conflicts;
            return this;
        }

        /** {@link ApplyMode#STAGING} is for PostgreSQL targets only. */
        public Builder mode(ApplyMode mode) {
            this.mode = mode;
            return this;
        }

        /** Parks a table whose change the target refuses for good, instead of stopping. */
        public Builder parkRefusedTables(boolean parkRefusedTables) {
            this.parkRefusedTables = parkRefusedTables;
            return this;
        }

        /** TLS to the target; default {@link DatabaseTls#PREFERRED}, as the drivers' own. */
        public Builder tls(DatabaseTls tls) {
            this.tls = tls;
            return this;
        }

        /**
         * @throws IllegalArgumentException listing every invalid setting
         */
        public ApplierOptions build() {
            List<String> problems = new ArrayList<>();
            if (url == null || !url.startsWith("jdbc:")) {
                problems.add("bad value: name=url, value=" + url + ": must be a JDBC URL");
            }
            if (consumerGroup == null || consumerGroup.isBlank() || consumerGroup.length() > 200) {
                problems.add(
                        "bad value: name=consumerGroup, value="
                                + consumerGroup
                                + ": must be 1..200 characters");
            }
            if (partition < 0) {
                problems.add("bad value: name=partition, value=" + partition + ": must be >= 0");
            }
            if (lanes < 1 || lanes > 64) {
                problems.add("bad value: name=lanes, value=" + lanes + ": must be 1..64");
            }
            if (maxRows < 1) {
                problems.add("bad value: name=maxRows, value=" + maxRows + ": must be >= 1");
            }
            if (checkpointTable == null || checkpointTable.isBlank()) {
                problems.add("bad value: name=checkpointTable, value=" + checkpointTable);
            }
            if (mode == ApplyMode.STAGING
                    && url != null
                    && !url.toLowerCase(java.util.Locale.ROOT).startsWith("jdbc:postgresql:")) {
                problems.add(
                        "bad value: name=mode, value=staging: the staging-table path is built for"
                                + " PostgreSQL targets only; MariaDB/MySQL use statement (see"
                                + " docs/appliers.md), url="
                                + url);
            }
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException(
                        "invalid applier options: " + String.join("; ", problems));
            }
            String namespace =
                    checkpointNamespace != null && !checkpointNamespace.isBlank()
                            ? checkpointNamespace
                            : url.startsWith("jdbc:postgresql:") ? "public" : "changegrid";
            return new ApplierOptions(
                    url,
                    user,
                    password,
                    consumerGroup,
                    partition,
                    lanes,
                    Objects.requireNonNull(router, "router"),
                    maxRows,
                    targetNamespace == null || targetNamespace.isBlank() ? null : targetNamespace,
                    createTables,
                    Objects.requireNonNull(schemaChanges, "schemaChanges"),
                    namespace,
                    checkpointTable,
                    Objects.requireNonNull(epoch, "epoch"),
                    conflicts,
                    Objects.requireNonNull(mode, "mode"),
                    parkRefusedTables,
                    Objects.requireNonNull(tls, "tls"));
        }
    }

    @Override
    public String toString() {
        return "ApplierOptions[url="
                + url
                + ", user="
                + user
                + ", consumerGroup="
                + consumerGroup
                + ", partition="
                + partition
                + ", lanes="
                + lanes
                + ", router="
                + router
                + ", maxRows="
                + maxRows
                + ", targetNamespace="
                + targetNamespace
                + ", createTables="
                + createTables
                + ", schemaChanges="
                + schemaChanges
                + ", checkpoint="
                + checkpointNamespace
                + "."
                + checkpointTable
                + ", conflicts="
                + conflicts
                + ", mode="
                + mode
                + ", parkRefusedTables="
                + parkRefusedTables
                + ", tls="
                + tls
                + "]";
    }
}

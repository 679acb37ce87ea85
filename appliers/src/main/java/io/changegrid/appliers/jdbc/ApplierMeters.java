package io.changegrid.appliers.jdbc;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.List;

/** A {@link JdbcApplier}'s counters as {@code changegrid.applier.*} meters of its partition. */
final class ApplierMeters {

    private ApplierMeters() {}

    /** Registers the meters, read from {@code applier} when scraped. */
    static List<Meter> register(JdbcApplier applier, MeterRegistry registry, Tags tags) {
        return List.of(
                FunctionCounter.builder(
                                "changegrid.applier.rows.applied",
                                applier,
                                JdbcApplier::rowsApplied)
                        .description("Rows written to the target (upserts and deletes)")
                        .tags(tags)
                        .register(registry),
                FunctionCounter.builder(
                                "changegrid.applier.transactions.applied",
                                applier,
                                JdbcApplier::transactionsApplied)
                        .description("Source transactions applied")
                        .tags(tags)
                        .register(registry),
                FunctionCounter.builder("changegrid.applier.commits", applier, JdbcApplier::commits)
                        .description("Commit rounds, every lane committing once")
                        .tags(tags)
                        .register(registry),
                FunctionCounter.builder(
                                "changegrid.applier.changes.parked",
                                applier,
                                JdbcApplier::changesParked)
                        .description("Changes of parked tables recorded in the dead-letter table")
                        .tags(tags)
                        .register(registry));
    }
}

package io.changegrid.consumer.group;

/**
 * How a partition's applier is doing, for its member's status endpoint and the console's appliers
 * view: a callback that writes into a target says so by implementing {@link ApplyingCallback}.
 *
 * @param target where it writes, without credentials or parameters (e.g. {@code
 *     jdbc:postgresql://db1:5432/shop})
 * @param lanes how many lanes (connections) commit in parallel
 * @param rowsApplied rows written to the target since the applier started
 * @param transactionsApplied source transactions applied since it started
 * @param commits commit rounds (every lane committing once) since it started
 * @param lastError the last target error it met (retried, parked or failing), or null
 */
public record ApplierStatus(
        String target,
        int lanes,
        long rowsApplied,
        long transactionsApplied,
        long commits,
        String lastError) {}

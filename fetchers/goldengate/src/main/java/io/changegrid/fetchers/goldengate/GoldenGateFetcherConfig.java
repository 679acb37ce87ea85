package io.changegrid.fetchers.goldengate;

import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.TableFilter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A GoldenGate fetcher's validated configuration: the {@code source.*} settings ({@link
 * GoldenGateSettings}) and what the relay decides (source id, capture, plan, largest transaction).
 *
 * @param transactionIndicator the txind metacolumn's field, or empty to end transactions where the
 *     XID token changes
 * @param schemaDirectory GoldenGate's generated schema files, or null
 * @param tables configured table definitions ({@link ConfiguredTables})
 */
record GoldenGateFetcherConfig(
        Path directory,
        TrailFormat format,
        String finalizedSuffix,
        String activeSuffix,
        String transactionIndicator,
        String xidToken,
        String csnToken,
        Path schemaDirectory,
        List<String> tables,
        Duration heartbeatInterval,
        Duration pollInterval,
        int sourceId,
        TableFilter capture,
        CapturePlan plan,
        int maxTransactionBytes) {

    /** Whether transaction boundaries come from the transaction indicator metacolumn. */
    boolean hasTransactionIndicator() {
        return !transactionIndicator.isEmpty();
    }
}

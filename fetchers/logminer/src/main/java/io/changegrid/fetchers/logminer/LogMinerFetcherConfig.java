package io.changegrid.fetchers.logminer;

import io.changegrid.fetchers.logminer.mining.MiningStatements;
import io.changegrid.fetchers.logminer.mining.OracleMiningStatements;
import io.changegrid.fetchers.logminer.standin.StandInMiningStatements;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.TableFilter;
import java.time.Duration;
import java.util.Properties;

/**
 * A LogMiner fetcher's validated configuration: the {@code source.*} settings ({@link
 * LogMinerSettings}) and what the relay decides (source id, capture, plan, largest transaction).
 *
 * @param start {@code current} or an SCN
 */
public record LogMinerFetcherConfig(
        String url,
        String user,
        String password,
        String start,
        String dialect,
        long windowMaxScns,
        Duration pollInterval,
        int fetchSize,
        Duration heartbeatInterval,
        Duration reconnectBackoffMax,
        int sourceId,
        TableFilter capture,
        CapturePlan plan,
        int maxTransactionBytes) {

    Properties properties() {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        return properties;
    }

    /**
     * The Oracle-only statements, or the stand-in's for {@code source.dialect:
     * postgresql-stand-in}.
     */
    MiningStatements statements() {
        return LogMinerSettings.STAND_IN.equals(dialect)
                ? new StandInMiningStatements()
                : new OracleMiningStatements();
    }
}

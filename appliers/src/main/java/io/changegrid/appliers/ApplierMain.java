package io.changegrid.appliers;

import io.changegrid.appliers.config.ApplierSettings;
import io.changegrid.appliers.group.PartitionAppliers;
import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.JdbcApplier;
import io.changegrid.appliers.schema.RelaySchemas;
import io.changegrid.appliers.typemap.UnmappableTypeException;
import io.changegrid.config.Config;
import io.changegrid.config.ConfigException;
import io.changegrid.config.YamlConfigFile;
import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.config.ConsumerConfig;
import io.changegrid.consumer.group.GroupMemberProcess;
import io.changegrid.consumer.group.config.GroupConfig;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.service.RequestedStop;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Runs a consumer whose callback is the {@link JdbcApplier} and whose checkpoint lives in the
 * target, from a YAML file and {@code --set} overrides (every consumer key, plus {@code target.*}
 * and {@code apply.*}; see {@code docs/appliers.md}). Runs until SIGTERM/SIGINT or an error; a
 * {@code kill -9} at any point loses and doubles nothing.
 *
 * <pre>
 * applier --config applier.yaml --set relays=http://relay1:7070 \
 *         --set target.url=jdbc:postgresql://127.0.0.1:5432/replica --set apply.lanes=4
 * </pre>
 *
 * With {@code cluster.zookeeper} set it runs as a consumer group member (docs/cluster.md): one
 * applier per owned partition ({@link PartitionAppliers}).
 *
 * <p>Exit status: 0 after a stop on request, 1 when it stopped on an error, 2 for an invalid
 * configuration.
 */
@Command(
        name = "applier",
        mixinStandardHelpOptions = true,
        description =
                "Replicates a source's tables from changegrid relays into PostgreSQL or MariaDB/MySQL,"
                        + " exactly once.")
public final class ApplierMain implements Callable<Integer> {

    private static final String LOGBACK_PROPERTY = "logback.configurationFile";

    @Option(
            names = {"-c", "--config"},
            description = "YAML configuration file.")
    private Path configFile;

    @Option(
            names = {"-s", "--set"},
            description = "Overrides one setting: key=value (repeatable).")
    private Map<String, String> overrides = new LinkedHashMap<>();

    @Spec private CommandSpec spec;

    public static void main(String[] args) {
        if (System.getProperty(LOGBACK_PROPERTY) == null) {
            System.setProperty(LOGBACK_PROPERTY, "io/changegrid/consumer/logback-consumer.xml");
        }
        System.exit(new CommandLine(new ApplierMain()).execute(args));
    }

    /**
     * Refuses unmappable column types before anything is applied, for the subscribed tables the
     * relay already knows. A subscription by policies is left to the first row: which tables it
     * selects is the relay's decision.
     */
    private static void checkTypesAtStart(JdbcApplier applier, ConsumerConfig config, Logger log) {
        if (!config.subscription().policies().isEmpty()) {
            log.info(
                    "column types are checked at each table's first row: subscription by policies");
            return;
        }
        Optional<List<TableSchema>> known =
                RelaySchemas.fetch(
                        config.relays(),
                        config.subscription().tables(),
                        Duration.ofSeconds(5),
                        config.credentials());
        if (known.isEmpty()) {
            log.warn(
                    "no relay served its schemas: column types are checked at each table's first row");
            return;
        }
        applier.checkTypes(known.get());
        log.info("column types checked at start: tables={}", known.get().size());
    }

    @Override
    public Integer call() throws Exception {
        Logger log = LoggerFactory.getLogger(ApplierMain.class);
        Config config;
        ConsumerConfig consumerConfig;
        ApplierOptions options;
        try {
            Map<String, Object> tree =
                    configFile == null ? Map.of() : YamlConfigFile.read(configFile);
            config = ApplierSettings.SCHEMA.load(tree, overrides);
            if (GroupConfig.isMember(config)) {
                // One applier per partition this member owns, fenced by the partition's epoch.
                return GroupMemberProcess.run(
                        ApplierSettings.SCHEMA,
                        PartitionAppliers::from,
                        tree,
                        overrides,
                        List.of(),
                        spec.commandLine().getErr());
            }
            consumerConfig = ConsumerConfig.from(config);
            options = ApplierSettings.options(config);
        } catch (ConfigException e) {
            spec.commandLine().getErr().println(e.getMessage());
            return 2;
        }
        log.info("applier starting: config={}", config.describe());
        try (JdbcApplier applier = JdbcApplier.open(options)) {
            try {
                checkTypesAtStart(applier, consumerConfig, log);
            } catch (UnmappableTypeException e) {
                log.error("applier not started: {}", e.getMessage());
                spec.commandLine().getErr().println(e.getMessage());
                return 1;
            }
            Consumer consumer =
                    Consumer.create("applier", consumerConfig, applier, applier.checkpointStore());
            Thread shutdown =
                    new Thread(
                            () -> {
                                consumer.stop();
                                try {
                                    consumer.awaitTermination();
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                }
                            },
                            "applier-shutdown");
            Runtime.getRuntime().addShutdownHook(shutdown);
            RequestedStop.install("applier", consumer::stop);
            try {
                consumer.start();
                consumer.awaitTermination();
            } finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(shutdown);
                } catch (IllegalStateException e) {
                    // The JVM is shutting down: the hook is running and stops the consumer.
                }
            }
            log.info(
                    "applier ended: status={}, rows={}, transactions={}, skipped={}, parked={}",
                    consumer.status(),
                    applier.rowsApplied(),
                    applier.transactionsApplied(),
                    applier.transactionsSkipped(),
                    applier.parkedTables());
            return consumer.failure().isPresent() ? 1 : 0;
        }
    }
}

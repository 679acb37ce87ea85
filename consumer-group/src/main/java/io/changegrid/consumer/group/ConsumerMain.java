package io.changegrid.consumer.group;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigException;
import io.changegrid.config.YamlConfigFile;
import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.checkpoint.FileCheckpointStore;
import io.changegrid.consumer.config.ConsumerConfig;
import io.changegrid.consumer.config.ConsumerSettings;
import io.changegrid.consumer.group.cli.ClusterCommand;
import io.changegrid.consumer.group.config.GroupConfig;
import io.changegrid.consumer.group.config.GroupSettings;
import io.changegrid.consumer.sink.CallbackLoader;
import io.changegrid.service.RequestedStop;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Runs a consumer from a YAML file and command-line overrides with a built-in callback ({@code
 * jsonl}, {@code count}) or a user's callback class, logs its effective configuration once, and
 * runs until SIGTERM/SIGINT or an error.
 *
 * <pre>
 * consumer --config consumer.yaml --set relays=http://relay1:7070,http://relay2:7070 \
 *          --set callback.type=jsonl --set callback.jsonl.file=/data/shop.jsonl
 * </pre>
 *
 * With {@code cluster.zookeeper} set it runs as a member of a consumer group instead ({@link
 * GroupMemberProcess}, docs/cluster.md); {@code consumer cluster status} shows a group.
 *
 * <p>Exit status: 0 after a stop on request, 1 when the consumer stopped on an error, 2 for an
 * invalid configuration.
 */
@Command(
        name = "consumer",
        mixinStandardHelpOptions = true,
        subcommands = {ClusterCommand.class},
        description =
                "Pulls a source's change stream from changegrid relays and hands whole transactions to a"
                        + " callback, checkpointing after every batch.")
public final class ConsumerMain implements Callable<Integer> {

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
        // Before the first logger is made: the process's logging, unless the operator chose one.
        if (System.getProperty(LOGBACK_PROPERTY) == null) {
            System.setProperty(LOGBACK_PROPERTY, "io/changegrid/consumer/logback-consumer.xml");
        }
        System.exit(new CommandLine(new ConsumerMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Logger log = LoggerFactory.getLogger(ConsumerMain.class);
        Config config;
        ConsumerConfig consumerConfig;
        ConsumerCallback callback;
        try {
            Map<String, Object> tree =
                    new LinkedHashMap<>(
                            configFile == null ? Map.of() : YamlConfigFile.read(configFile));
            // The subscription's policies are a list, not settings: docs/policies.md.
            Object policies = tree.remove("policies");
            config = GroupSettings.SCHEMA.load(tree, overrides);
            if (policies != null && !(policies instanceof List)) {
                throw new ConfigException(List.of("policies: expected a list: value=" + policies));
            }
            if (GroupConfig.isMember(config)) {
                return GroupMemberProcess.run(
                        tree,
                        overrides,
                        policies == null ? List.of() : (List<?>) policies,
                        spec.commandLine().getErr());
            }
            consumerConfig =
                    ConsumerConfig.from(config, policies == null ? List.of() : (List<?>) policies);
            callback = CallbackLoader.load(config);
        } catch (ConfigException e) {
            spec.commandLine().getErr().println(e.getMessage());
            return 2;
        }
        log.info("consumer starting: config={}", config.describe());
        Consumer consumer =
                Consumer.create(
                        "consumer",
                        consumerConfig,
                        callback,
                        new FileCheckpointStore(config.get(ConsumerSettings.CHECKPOINT_FILE)));
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
                        "consumer-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdown);
        RequestedStop.install("consumer", consumer::stop);
        StandaloneEndpoint endpoint = null;
        try {
            consumer.start();
            endpoint = StandaloneEndpoint.start(config, "consumer", consumer, callback);
            if (endpoint != null) {
                log.info("consumer status endpoint: url={}", endpoint.url());
            }
            consumer.awaitTermination();
        } finally {
            if (endpoint != null) {
                endpoint.close();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(shutdown);
            } catch (IllegalStateException e) {
                // The JVM is shutting down: the hook is running and stops the consumer.
            }
            if (callback instanceof AutoCloseable closeable) {
                closeable.close();
            }
        }
        log.info("consumer ended: status={}", consumer.status());
        return consumer.failure().isPresent() ? 1 : 0;
    }
}

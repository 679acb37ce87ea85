package io.changegrid.console;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigException;
import io.changegrid.config.YamlConfigFile;
import io.changegrid.console.config.ConsoleConfig;
import io.changegrid.console.config.ConsoleSettings;
import io.changegrid.service.RequestedStop;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Runs the console from a YAML file and command-line overrides until SIGTERM/SIGINT.
 *
 * <pre>
 * console --set cluster.zookeeper=zk1:2181 --set http.port=7080
 * </pre>
 *
 * <p>Exit status: 0 after a stop on request, 2 for an invalid configuration, 1 if it could not
 * start.
 */
@Command(
        name = "console",
        mixinStandardHelpOptions = true,
        description =
                "Serves the grid's web console: relays, consumer groups, topology, and the group"
                        + " control operations, found through ZooKeeper.")
public final class ConsoleMain implements Callable<Integer> {

    @Option(
            names = {"-c", "--config"},
            description = "YAML configuration file.")
    private Path configFile;

    @Option(
            names = {"-s", "--set"},
            description = "Overrides one setting: key=value (repeatable).")
    private Map<String, String> overrides = new LinkedHashMap<>();

    @Spec private CommandSpec spec;

    private static final String LOGBACK_PROPERTY = "logback.configurationFile";

    public static void main(String[] args) {
        // Before the first logger is made: the process's logging, unless the operator chose one.
        if (System.getProperty(LOGBACK_PROPERTY) == null) {
            System.setProperty(LOGBACK_PROPERTY, "io/changegrid/console/logback-console.xml");
        }
        System.exit(new CommandLine(new ConsoleMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Logger log = LoggerFactory.getLogger(ConsoleMain.class);
        Config config;
        try {
            config =
                    ConsoleSettings.SCHEMA.load(
                            configFile == null ? Map.of() : YamlConfigFile.read(configFile),
                            overrides);
        } catch (ConfigException e) {
            spec.commandLine().getErr().println(e.getMessage());
            return 2;
        }
        log.info("console starting: config={}", config.describe());
        CountDownLatch stop = new CountDownLatch(1);
        try (Console console = Console.start(ConsoleConfig.from(config))) {
            RequestedStop.install("console", stop::countDown);
            spec.commandLine().getOut().println("console: " + console.url());
            spec.commandLine().getOut().flush();
            stop.await();
        }
        log.info("console ended on request: exit status 0");
        return 0;
    }
}

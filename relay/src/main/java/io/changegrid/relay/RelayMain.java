package io.changegrid.relay;

import io.changegrid.config.ConfigException;
import io.changegrid.relay.buffer.RefusedBufferFilesException;
import io.changegrid.relay.config.RelayConfiguration;
import io.changegrid.relay.state.CorruptPositionFileException;
import io.changegrid.service.RequestedStop;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * Starts a relay from a YAML file and command-line overrides, logs its effective configuration once
 * (password masked), and runs until SIGTERM/SIGINT.
 *
 * <pre>
 * relay --config relay.yaml --set source.host=db1 --set http.port=7071
 * relay recover-schema --config relay.yaml
 * </pre>
 */
@Command(
        name = "relay",
        mixinStandardHelpOptions = true,
        subcommands = RecoverSchemaCommand.class,
        description =
                "Reads a source's change log (source.type, default mysql: a MySQL/MariaDB binlog) into"
                        + " an off-heap event buffer and serves it over HTTP.")
public final class RelayMain implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(RelayMain.class);

    @Mixin private RelayConfigOptions options;

    public static void main(String[] args) {
        routeJavaUtilLogging();
        System.exit(new CommandLine(new RelayMain()).execute(args));
    }

    /**
     * Sends java.util.logging (the binlog library's) to SLF4J, so one configuration decides what a
     * relay logs. Entry points call it once.
     */
    public static void routeJavaUtilLogging() {
        SLF4JBridgeHandler.removeHandlersForRootLogger();
        SLF4JBridgeHandler.install();
    }

    @Override
    public Integer call() throws Exception {
        RelayConfiguration configuration;
        try {
            configuration = options.load();
        } catch (ConfigException e) {
            System.err.println(e.getMessage());
            return 2;
        }
        LOG.info(
                "relay starting: config={}, policies={}",
                configuration.settings().describe(),
                configuration.plan().isEverything() ? "none" : "yes");
        Relay relay;
        try {
            relay = Relay.start(configuration);
        } catch (ConfigException e) {
            System.err.println(e.getMessage()); // policies that do not fit the source
            return 2;
        } catch (CorruptPositionFileException e) {
            System.err.println(e.getMessage()); // the operator decides: restore or start afresh
            return 1;
        } catch (RefusedBufferFilesException e) {
            System.err.println(e.getMessage()); // never served, never overwritten
            return 1;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(relay::close, "relay-shutdown"));
        RequestedStop.install("relay", relay::close);
        relay.awaitStop();
        return relay.failure() == null ? 0 : 1;
    }
}

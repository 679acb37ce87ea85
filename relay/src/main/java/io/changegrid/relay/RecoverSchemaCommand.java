package io.changegrid.relay;

import io.changegrid.config.ConfigException;
import io.changegrid.relay.state.CorruptPositionFileException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code relay recover-schema}: run with the relay stopped, after its fetcher stopped on DDL it
 * cannot understand. Reads the binlog from the relay's replay point to the statement and records
 * its digest in the state directory; the restarted relay passes it and reads the schemas of the
 * tables it names from the source (docs/relay.md, "Schemas and DDL").
 */
@Command(
        name = "recover-schema",
        mixinStandardHelpOptions = true,
        description =
                "With the relay stopped on DDL it cannot understand: find the statement from the"
                        + " relay's replay point and let the next start pass it, reading the tables'"
                        + " schemas from the source.")
final class RecoverSchemaCommand implements Callable<Integer> {

    @Mixin private RelayConfigOptions options;

    @Spec private CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        try {
            spec.commandLine().getOut().println(Relay.recoverSchema(options.load()));
            return 0;
        } catch (ConfigException e) {
            spec.commandLine().getErr().println(e.getMessage());
            return 2;
        } catch (CorruptPositionFileException | UnsupportedOperationException e) {
            spec.commandLine().getErr().println(e.getMessage());
            return 1;
        }
    }
}

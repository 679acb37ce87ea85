package io.changegrid.relay;

import io.changegrid.gridkit.process.JavaProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Starts a relay as its own JVM, from a YAML file, so that a test can {@code kill -9} it. */
final class RelayJvm {

    private RelayJvm() {}

    /** Starts {@link RelayMain} with {@code configFile}, its output appended to {@code log}. */
    static JavaProcess start(Path configFile, Path log) throws IOException {
        return start(configFile, log, List.of("-Xmx256m", "-XX:MaxDirectMemorySize=256m"));
    }

    /** As {@link #start(Path, Path)}, with these JVM options. */
    static JavaProcess start(Path configFile, Path log, List<String> jvmOptions)
            throws IOException {
        return JavaProcess.start(
                JavaProcess.command(
                        jvmOptions,
                        RelayMain.class.getName(),
                        List.of("--config", configFile.toString())),
                log);
    }
}

package io.changegrid.appliers.it;

import io.changegrid.appliers.ApplierMain;
import io.changegrid.gridkit.process.JavaProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Starts {@link ApplierMain} in its own JVM, configured by {@code --set}, for tests that kill -9.
 */
final class ApplierJvm {

    private ApplierJvm() {}

    /** Starts an applier with {@code settings}, its output appended to {@code log}. */
    static JavaProcess start(Map<String, String> settings, Path log) throws IOException {
        List<String> args = new ArrayList<>();
        settings.forEach(
                (key, value) -> {
                    args.add("--set");
                    args.add(key + "=" + value);
                });
        return JavaProcess.start(
                JavaProcess.command(
                        List.of("-Xmx256m", "-XX:TieredStopAtLevel=1"),
                        ApplierMain.class.getName(),
                        args),
                log);
    }
}

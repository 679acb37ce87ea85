package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.appliers.ApplierMain;
import io.changegrid.gridkit.process.JavaProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Starts {@link ApplierMain} in its own JVM, configured by {@code --set}, for tests that kill -9 it
 * or stop it as a service manager does.
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

    /**
     * Sends SIGTERM, as a service manager does, and asserts the applier ends after its final
     * checkpoint with exit status 0 and a last line saying so.
     */
    static void stopAsRequested(JavaProcess applier) throws Exception {
        applier.process().toHandle().destroy();
        assertThat(applier.process().waitFor(60, TimeUnit.SECONDS)).as(applier.logTail()).isTrue();
        assertThat(applier.process().exitValue()).as(applier.logTail()).isZero();
        assertThat(Files.readAllLines(applier.log()))
                .last()
                .asString()
                .contains("applier ended: status=");
    }
}

package io.changegrid.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A real child JVM gets a real SIGTERM ({@link ProcessHandle#destroy()} sends it on Linux). */
class RequestedStopTest {

    @Test
    void sigtermEndsTheComponentAfterItsStopWithExitStatusZero() throws Exception {
        Process probe = start(500);
        List<String> lines = new ArrayList<>();
        try (BufferedReader out = reader(probe)) {
            awaitLine(out, lines, "probe running");
            probe.toHandle()
                    .destroy(); // SIGTERM; Process.destroy() would also close our end of its output
            assertThat(probe.waitFor(30, TimeUnit.SECONDS)).isTrue();
            out.lines().forEach(lines::add);
        }
        assertThat(probe.exitValue()).isZero();
        assertThat(lines).last().isEqualTo("probe stopped after its final checkpoint");
    }

    @Test
    void aSecondSigtermExitsAtOnceWithTheSignalsStatus() throws Exception {
        Process probe = start(TimeUnit.MINUTES.toMillis(5));
        List<String> lines = new ArrayList<>();
        try (BufferedReader out = reader(probe)) {
            awaitLine(out, lines, "probe running");
            probe.toHandle()
                    .destroy(); // SIGTERM; Process.destroy() would also close our end of its output
            Thread.sleep(300); // the first signal is being handled: the stop has begun
            probe.toHandle()
                    .destroy(); // SIGTERM; Process.destroy() would also close our end of its output
            assertThat(probe.waitFor(30, TimeUnit.SECONDS)).isTrue();
            out.lines().forEach(lines::add);
        }
        assertThat(probe.exitValue()).isEqualTo(128 + 15);
        assertThat(lines).doesNotContain("probe stopped after its final checkpoint");
    }

    private static Process start(long stopMillis) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        StopProbe.class.getName(),
                        Long.toString(stopMillis))
                .redirectErrorStream(true)
                .start();
    }

    private static BufferedReader reader(Process process) {
        return new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    private static void awaitLine(BufferedReader out, List<String> lines, String wanted)
            throws IOException {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            lines.add(line);
            if (line.equals(wanted)) {
                return;
            }
        }
        throw new AssertionError("the probe ended before printing '" + wanted + "': " + lines);
    }
}

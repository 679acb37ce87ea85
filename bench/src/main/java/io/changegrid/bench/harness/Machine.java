package io.changegrid.bench.harness;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the runs are measured on: cores, and whether a configuration needs more than there are. */
public final class Machine {

    private Machine() {}

    /** Cores this JVM may use. */
    public static int cores() {
        return Runtime.getRuntime().availableProcessors();
    }

    /** The CPU model from {@code /proc/cpuinfo}, or the OS architecture where there is none. */
    public static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(line -> line.startsWith("model name"))
                    .map(line -> line.substring(line.indexOf(':') + 1).trim())
                    .findFirst()
                    .orElse(System.getProperty("os.arch"));
        } catch (IOException e) {
            return System.getProperty(
                    "os.arch"); // not Linux: the architecture still says something
        }
    }

    /**
     * The warning for a configuration of {@code busy} processes that each keep a core busy, or
     * {@code null} when the machine has a core for each; also printed to {@code out}.
     *
     * @param what the processes, e.g. "3 relays + MariaDB"
     */
    public static String oversubscription(PrintStream out, String what, int busy) {
        int cores = cores();
        if (busy <= cores) {
            return null;
        }
        String warning =
                String.format(
                        "%s = %d busy processes on %d cores: they share the CPU, so the figure"
                                + " shows this machine's limit, not how the configuration scales",
                        what, busy, cores);
        out.println("WARNING: " + warning);
        return warning;
    }
}

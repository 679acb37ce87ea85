package io.changegrid.gridkit.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a process still runs, counting a zombie as gone.
 *
 * <p>A process killed with {@code kill -9} stays a zombie until its parent reaps it, which can take
 * seconds (in containers whose init is slow to reap, for instance), and {@link
 * ProcessHandle#isAlive()} reports a zombie as alive. A zombie has released its files and will
 * never run again, which is all the reaper of scratch directories needs to know.
 */
public final class ProcessLiveness {
    private ProcessLiveness() {}

    /** Whether {@code process} runs: alive and not a zombie. */
    public static boolean running(ProcessHandle process) {
        return process.isAlive() && !zombie(process.pid());
    }

    /** Linux only: elsewhere (no procfs) this says no and {@link ProcessHandle} alone decides. */
    private static boolean zombie(long pid) {
        try {
            // "pid (comm) state ...": comm may hold spaces and parentheses; look after the last
            // ')'.
            var stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            var commEnd = stat.lastIndexOf(')');
            return commEnd > 0 && stat.length() > commEnd + 2 && stat.charAt(commEnd + 2) == 'Z';
        } catch (IOException | RuntimeException e) {
            return false; // no procfs, or the process just went away: isAlive() has the answer
        }
    }
}

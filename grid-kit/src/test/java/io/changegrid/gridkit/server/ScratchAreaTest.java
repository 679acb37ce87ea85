package io.changegrid.gridkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reaping after a {@code kill -9}: {@code tail -f} plays the orphaned server, because it runs until
 * killed and, like {@code mariadbd}, names its directory in its arguments.
 */
class ScratchAreaTest {
    /** This JVM's pid with a start time it does not have: an owner that is gone. */
    private static final ScratchOwner GONE =
            new ScratchOwner(
                    ProcessHandle.current().pid(), Instant.parse("2000-01-01T00:00:00Z"), 0);

    @TempDir Path root;

    @Test
    void shouldKeepDirectoryWhenOwnerJvmIsAlive() {
        var area = new ScratchArea(root, "tail");
        var live = area.create("live-");

        assertThat(area.reapAbandoned()).isEmpty();
        assertThat(live.path()).isDirectory();
    }

    @Test
    void shouldKillOrphanServerAndRemoveDirectoryWhenOwnerJvmIsGone() throws Exception {
        var area = new ScratchArea(root, "tail");
        var dir = Files.createDirectory(root.resolve("abandoned"));
        var orphan = startTail(Files.createFile(dir.resolve("error.log")));
        try {
            GONE.withServer(orphan.pid()).writeTo(dir);

            var next = area.create("next-");

            assertThat(orphan.waitFor(10, TimeUnit.SECONDS)).as("orphan killed").isTrue();
            assertThat(dir).doesNotExist();
            assertThat(next.path()).isDirectory();
        } finally {
            orphan.destroyForcibly();
        }
    }

    @Test
    void shouldLeaveProcessAliveWhenItDoesNotRunInTheDirectory() throws Exception {
        var area = new ScratchArea(root, "tail");
        var dir = Files.createDirectory(root.resolve("abandoned"));
        // Stands for a recycled pid: right command, but nothing to do with this directory.
        var stranger = startTail(Path.of("/dev/null"));
        try {
            GONE.withServer(stranger.pid()).writeTo(dir);

            assertThat(area.reapAbandoned()).containsExactly(dir);

            assertThat(stranger.isAlive()).isTrue();
            assertThat(dir).doesNotExist();
        } finally {
            stranger.destroyForcibly();
        }
    }

    @Test
    void shouldKeepUnclaimedDirectoryWhenItIsYoung() throws IOException {
        var area = new ScratchArea(root, "tail");
        var young = Files.createDirectory(root.resolve("being-created"));

        assertThat(area.reapAbandoned()).isEmpty();
        assertThat(young).isDirectory();
    }

    private static Process startTail(Path file) throws IOException {
        return new ProcessBuilder("tail", "-f", file.toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
    }
}

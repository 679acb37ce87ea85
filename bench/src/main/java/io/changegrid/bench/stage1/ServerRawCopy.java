package io.changegrid.bench.stage1;

import io.changegrid.bench.harness.BenchSource;
import io.changegrid.fetchers.mysql.BinlogPosition;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The server's limit in stage 1: MariaDB's own client copying the same binlog range raw ({@code
 * mariadb-binlog --read-from-remote-server --raw}, bytes only, no decoding) into {@code /dev/shm},
 * timed. What the server's dump thread can send is the ceiling of any reader, the relay's and the
 * bare library reader's alike.
 *
 * <p>The copy starts at the range's first position and runs to the end of the last binlog ({@code
 * --to-last-log}): after the load nothing else is written, so that is the range's end. The files
 * written are counted and deleted.
 */
final class ServerRawCopy {

    private static final Path SHM = Path.of("/dev/shm");

    /**
     * What the copy did.
     *
     * @param bytes binlog bytes written (the range, with each file's few header bytes)
     * @param seconds from start to exit of the client
     */
    record Result(long bytes, double seconds) {
        double bytesPerSec() {
            return bytes / seconds;
        }
    }

    private ServerRawCopy() {}

    /**
     * Copies {@code from} to the end of the binlog.
     *
     * @throws IllegalStateException naming the command's exit and output if it fails
     */
    static Result run(BenchSource source, BinlogPosition from, Path log)
            throws IOException, InterruptedException {
        Path dir = Files.isDirectory(SHM) ? SHM : Files.createTempDirectory("changegrid-raw");
        String prefix =
                "changegrid-raw-" + ProcessHandle.current().pid() + "-" + System.nanoTime() + "-";
        List<String> command = new ArrayList<>();
        command.add("mariadb-binlog");
        command.add("--read-from-remote-server");
        command.add("--raw");
        command.add("--to-last-log");
        command.add("--host=" + source.host());
        command.add("--port=" + source.port());
        command.add("--user=" + source.user());
        command.add("--start-position=" + from.offset());
        command.add("--result-file=" + dir.resolve(prefix));
        command.add(from.file());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.redirectOutput(log.toFile());
        // The password through the environment, not the command line other users can read.
        builder.environment().put("MYSQL_PWD", source.password());
        long started = System.nanoTime();
        Process process = builder.start();
        boolean exited = process.waitFor(30, TimeUnit.MINUTES);
        double seconds = (System.nanoTime() - started) / 1e9;
        long bytes = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, prefix + "*")) {
            for (Path file : files) {
                bytes += Files.size(file);
                Files.delete(file);
            }
        }
        if (!exited) {
            process.destroyForcibly();
            throw new IllegalStateException("mariadb-binlog did not finish in 30 min: log=" + log);
        }
        if (process.exitValue() != 0 || bytes == 0) {
            throw new IllegalStateException(
                    "mariadb-binlog --raw failed: exit="
                            + process.exitValue()
                            + ", bytes="
                            + bytes
                            + ", command="
                            + String.join(" ", command)
                            + ", output="
                            + Files.readString(log).strip());
        }
        return new Result(bytes, seconds);
    }
}

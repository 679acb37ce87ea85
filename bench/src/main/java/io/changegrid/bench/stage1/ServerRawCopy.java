package io.changegrid.bench.stage1;

import io.changegrid.bench.harness.BenchSource;
import io.changegrid.bench.harness.BenchSource.BinlogFile;
import io.changegrid.fetchers.mysql.BinlogPosition;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The server's limit in stage 1: MariaDB's own client copying the same binlog range raw ({@code
 * mariadb-binlog --read-from-remote-server --raw}, bytes only, no decoding) into {@code /dev/null},
 * timed. What the server's dump thread can send is the ceiling of any reader, the relay's and the
 * bare library reader's alike.
 *
 * <p>The copy starts at the range's first position and runs to the end of the last binlog ({@code
 * --to-last-log}): after the load nothing else is written, so that is the range's end. The client
 * writes each binlog file to a file of its own name under a prefix; every such name is made a
 * symbolic link to {@code /dev/null} first, so the copy is thrown away as it arrives. It used to be
 * written to {@code /dev/shm}: that cost the client a page allocation per 4 KB (a third of the
 * copy's time: 1.9 GB in 3.9 s against 2.1–3.2 s to {@code /dev/null}), and at 4.8M rows the 13.5
 * GB copy pushed the source's own binlog out of the page cache, so the next reader read 3.4–3.8 GB
 * of it from disk (2026-11-27).
 */
final class ServerRawCopy {

    private static final Path NULL = Path.of("/dev/null");

    /**
     * What the copy did.
     *
     * @param bytes the range's binlog bytes: from its first position to the end of the last file
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
            throws IOException, InterruptedException, SQLException {
        Path dir = Files.createTempDirectory("changegrid-raw");
        String prefix = "copy-";
        long bytes = 0;
        for (BinlogFile file : filesFrom(source, from)) {
            Files.createSymbolicLink(dir.resolve(prefix + file.name()), NULL);
            bytes += file.name().equals(from.file()) ? file.size() - from.offset() : file.size();
        }
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
        if (!exited) {
            process.destroyForcibly().waitFor(); // so that it writes no file after the clean-up
        }
        // Links only, unless a binlog file appeared after the listing: the client wrote that one.
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                if (!Files.isSymbolicLink(file)) {
                    bytes += Files.size(file);
                }
                Files.delete(file);
            }
        }
        Files.delete(dir);
        if (!exited) {
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

    /** The source's binlog files from {@code from}'s on, in order. */
    private static List<BinlogFile> filesFrom(BenchSource source, BinlogPosition from)
            throws SQLException {
        List<BinlogFile> files = new ArrayList<>();
        for (BinlogFile file : source.binlogFiles()) {
            if (file.name().equals(from.file()) || !files.isEmpty()) {
                files.add(file);
            }
        }
        if (files.isEmpty()) {
            throw new IllegalStateException(
                    "the range's first binlog file is not on the source: file="
                            + from.file()
                            + " (SHOW BINARY LOGS)");
        }
        return files;
    }
}

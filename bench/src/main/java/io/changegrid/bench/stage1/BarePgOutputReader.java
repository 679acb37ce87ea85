package io.changegrid.bench.stage1;

import com.fasterxml.jackson.databind.JsonNode;
import io.changegrid.bench.harness.BenchJvm;
import io.changegrid.bench.harness.ResultFile;
import io.changegrid.gridkit.process.JavaProcess;
import io.changegrid.relay.RelayMain;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.postgresql.PGConnection;
import org.postgresql.replication.LogSequenceNumber;
import org.postgresql.replication.PGReplicationStream;

/**
 * The ceiling of stage 1 on PostgreSQL: a bare pgjdbc {@link PGReplicationStream} on a pgoutput
 * slot (protocol 1, the relay's publication), read the way the relay reads it, looking at each
 * message's first byte only, to count the row messages (Insert, Update, Delete) and note each
 * Begin's commit LSN. What it measures is the server's decoding and pgjdbc's reading: the part of
 * the relay's work that no relay can avoid. {@link #run} starts it in its own JVM, as cold as a
 * relay's, with the relay's heap; {@link #main} is that JVM.
 */
public final class BarePgOutputReader {

    /**
     * What the bare reader did.
     *
     * @param rows row messages counted
     * @param bytes pgoutput message bytes received, up to the last row
     * @param seconds from the first message to the last row
     * @param cpuSeconds CPU of the reader's JVM in that window
     * @param serverCpuSeconds CPU of the server's WAL sender (decoding) in that window, or -1
     * @param lastCommitLsn the commit LSN of the last transaction with rows: the SCN a relay's last
     *     transaction has
     */
    record Result(
            long rows,
            long bytes,
            double seconds,
            double cpuSeconds,
            double serverCpuSeconds,
            long lastCommitLsn) {}

    /**
     * The relay's read pattern ({@code PgOutputFetcher}): take what is pending, else wait 10 ms; so
     * the two readers differ only in what they do with each message.
     */
    private static final long IDLE_WAIT_MILLIS = 10;

    private static final byte BEGIN = 'B';
    private static final byte INSERT = 'I';
    private static final byte UPDATE = 'U';
    private static final byte DELETE = 'D';

    private BarePgOutputReader() {}

    /**
     * Reads {@code rows} row changes from {@code slot} in a new JVM with heap {@code heap}.
     *
     * @throws IllegalStateException with the log if it fails
     */
    static Result run(PostgresLoad source, String slot, long rows, String heap, Path log)
            throws IOException, InterruptedException {
        List<String> command =
                BenchJvm.command(
                        heap,
                        List.of(),
                        BarePgOutputReader.class.getName(),
                        List.of(
                                source.host(),
                                Integer.toString(source.port()),
                                PostgresLoad.DATABASE,
                                source.user(),
                                slot,
                                PostgresLoad.PUBLICATION,
                                source.from(),
                                Long.toString(rows)));
        Files.deleteIfExists(log); // the result is read back from it: no earlier run's line
        Process process = JavaProcess.start(command, log).process();
        if (!process.waitFor(30, TimeUnit.MINUTES) || process.exitValue() != 0) {
            JavaProcess.stop(process);
            throw new IllegalStateException("bare pgoutput reader failed: log=" + log);
        }
        for (String line : Files.readAllLines(log)) {
            if (line.startsWith("{\"rows\"")) {
                JsonNode result = ResultFile.JSON.readTree(line);
                return new Result(
                        result.get("rows").asLong(),
                        result.get("bytes").asLong(),
                        result.get("seconds").asDouble(),
                        result.get("cpuSeconds").asDouble(),
                        result.get("serverCpuSeconds").asDouble(),
                        result.get("lastCommitLsn").asLong());
            }
        }
        throw new IllegalStateException("bare pgoutput reader printed no result: log=" + log);
    }

    /**
     * {@code host port database user slot publication from rows}: reads until {@code rows} row
     * messages arrived and prints one JSON line.
     */
    public static void main(String[] args) throws SQLException, InterruptedException {
        RelayMain.routeJavaUtilLogging();
        Properties properties = new Properties();
        properties.setProperty("user", args[3]);
        properties.setProperty("password", "");
        properties.setProperty("replication", "database");
        properties.setProperty("assumeMinServerVersion", "10");
        properties.setProperty("preferQueryMode", "simple");
        String url = "jdbc:postgresql://" + args[0] + ":" + args[1] + "/" + args[2];
        Result result;
        try (Connection connection = DriverManager.getConnection(url, properties)) {
            result =
                    read(
                            connection,
                            args[4],
                            args[5],
                            LogSequenceNumber.valueOf(args[6]),
                            Long.parseLong(args[7]));
        }
        System.out.printf(
                Locale.ROOT,
                "{\"rows\":%d,\"bytes\":%d,\"seconds\":%.4f,\"cpuSeconds\":%.4f,"
                        + "\"serverCpuSeconds\":%.4f,\"lastCommitLsn\":%d}%n",
                result.rows(),
                result.bytes(),
                result.seconds(),
                result.cpuSeconds(),
                result.serverCpuSeconds(),
                result.lastCommitLsn());
    }

    private static Result read(
            Connection connection,
            String slot,
            String publication,
            LogSequenceNumber from,
            long expected)
            throws SQLException, InterruptedException {
        // On a replication connection the backend is the WAL sender that decodes for it.
        ProcessHandle walSender = walSender(connection);
        try (PGReplicationStream stream =
                connection
                        .unwrap(PGConnection.class)
                        .getReplicationAPI()
                        .replicationStream()
                        .logical()
                        .withSlotName(slot)
                        .withSlotOption("proto_version", 1)
                        .withSlotOption("publication_names", publication)
                        .withStartPosition(from)
                        .start()) {
            long rows = 0;
            long bytes = 0;
            long lastCommitLsn = -1;
            long firstNanos = 0;
            double cpuFirst = 0;
            double serverCpuFirst = 0;
            while (rows < expected) {
                ByteBuffer message = stream.readPending();
                if (message == null) {
                    TimeUnit.MILLISECONDS.sleep(IDLE_WAIT_MILLIS);
                    continue;
                }
                if (firstNanos == 0) {
                    firstNanos = System.nanoTime();
                    cpuFirst = JavaProcess.cpuSeconds(ProcessHandle.current());
                    serverCpuFirst = cpuSeconds(walSender);
                }
                bytes += message.remaining();
                byte type = message.get(message.position());
                if (type == INSERT || type == UPDATE || type == DELETE) {
                    rows++;
                } else if (type == BEGIN) {
                    lastCommitLsn = message.getLong(message.position() + 1);
                }
            }
            long lastNanos = System.nanoTime();
            double cpu = JavaProcess.cpuSeconds(ProcessHandle.current()) - cpuFirst;
            double serverCpu = walSender == null ? -1 : cpuSeconds(walSender) - serverCpuFirst;
            return new Result(
                    rows, bytes, (lastNanos - firstNanos) / 1e9, cpu, serverCpu, lastCommitLsn);
        }
    }

    /** The WAL sender process of this connection, when it is visible on this machine. */
    private static ProcessHandle walSender(Connection connection) throws SQLException {
        try (var statement = connection.createStatement();
                var rows = statement.executeQuery("SELECT pg_backend_pid()")) {
            rows.next();
            return ProcessHandle.of(rows.getLong(1)).orElse(null);
        }
    }

    private static double cpuSeconds(ProcessHandle process) {
        return process == null ? 0 : JavaProcess.cpuSeconds(process);
    }
}

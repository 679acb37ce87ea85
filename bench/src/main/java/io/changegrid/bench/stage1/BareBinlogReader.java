package io.changegrid.bench.stage1;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import io.changegrid.bench.harness.BenchJvm;
import io.changegrid.bench.harness.BenchSource;
import io.changegrid.bench.harness.ResultFile;
import io.changegrid.fetchers.mysql.BinlogPosition;
import io.changegrid.gridkit.process.JavaProcess;
import io.changegrid.relay.RelayMain;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The ceiling of stage 1: a bare {@link BinaryLogClient} with the library's default deserializer
 * reading the same binlog range and doing nothing with the rows but counting them. {@link #run}
 * starts it in its own JVM, as cold as a relay's, with the relay's heap; {@link #main} is that JVM.
 */
public final class BareBinlogReader {

    /** Server id of the bare reader; relays use theirs. */
    private static final long SERVER_ID = 9_999;

    /** What the bare reader did: rows counted, seconds to the last row, CPU of its thread. */
    record Result(long rows, double seconds, double cpuSeconds) {}

    private BareBinlogReader() {}

    /**
     * Reads the range in a new JVM with heap {@code heap}.
     *
     * @throws IllegalStateException with the log if it fails
     */
    static Result run(
            BenchSource source, BinlogPosition from, BinlogPosition to, String heap, Path log)
            throws IOException, InterruptedException {
        List<String> command =
                BenchJvm.command(
                        heap,
                        List.of(),
                        BareBinlogReader.class.getName(),
                        List.of(
                                source.host(),
                                Integer.toString(source.port()),
                                source.user(),
                                source.password(),
                                from.toString(),
                                to.toString()));
        Files.deleteIfExists(log); // the result is read back from it: no earlier run's line
        Process process = JavaProcess.start(command, log).process();
        if (process.waitFor() != 0) {
            throw new IllegalStateException("bare reader failed: log=" + log);
        }
        for (String line : Files.readAllLines(log)) {
            if (line.startsWith("{\"rows\"")) {
                JsonNode result = ResultFile.JSON.readTree(line);
                return new Result(
                        result.get("rows").asLong(),
                        result.get("seconds").asDouble(),
                        result.get("cpuSeconds").asDouble());
            }
        }
        throw new IllegalStateException("bare reader printed no result: log=" + log);
    }

    /** {@code host port user password from to}: reads and prints one JSON line. */
    public static void main(String[] args) throws IOException {
        RelayMain.routeJavaUtilLogging();
        Result result =
                read(
                        args[0],
                        Integer.parseInt(args[1]),
                        args[2],
                        args[3],
                        BinlogPosition.parse(args[4]),
                        BinlogPosition.parse(args[5]));
        System.out.printf(
                Locale.ROOT,
                "{\"rows\":%d,\"seconds\":%.4f,\"cpuSeconds\":%.4f}%n",
                result.rows(),
                result.seconds(),
                result.cpuSeconds());
    }

    private static Result read(
            String host,
            int port,
            String user,
            String password,
            BinlogPosition from,
            BinlogPosition to)
            throws IOException {
        BinaryLogClient client = new BinaryLogClient(host, port, user, password);
        client.setServerId(SERVER_ID);
        client.setKeepAlive(false);
        client.setBinlogFilename(from.file());
        client.setBinlogPosition(from.offset());
        long end = to.scn();
        long[] rows = {0};
        long[] lastRowNanos = {0};
        String[] file = {from.file()};
        client.registerEventListener(
                event -> {
                    EventHeaderV4 header = event.getHeader();
                    EventType type = header.getEventType();
                    if (type == EventType.ROTATE) {
                        file[0] = ((RotateEventData) event.getData()).getBinlogFilename();
                        return;
                    }
                    if (EventType.isWrite(type)) {
                        rows[0] += ((WriteRowsEventData) event.getData()).getRows().size();
                        lastRowNanos[0] = System.nanoTime();
                    } else if (EventType.isUpdate(type)) {
                        rows[0] += ((UpdateRowsEventData) event.getData()).getRows().size();
                        lastRowNanos[0] = System.nanoTime();
                    } else if (EventType.isDelete(type)) {
                        rows[0] += ((DeleteRowsEventData) event.getData()).getRows().size();
                        lastRowNanos[0] = System.nanoTime();
                    }
                    if (header.getNextPosition() > 0
                            && new BinlogPosition(file[0], header.getNextPosition()).scn() >= end) {
                        try {
                            client.disconnect();
                        } catch (IOException e) {
                            throw new IllegalStateException("bare reader could not stop", e);
                        }
                    }
                });
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpuStart = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        client.connect();
        double cpu = (threads.getCurrentThreadCpuTime() - cpuStart) / 1e9;
        return new Result(rows[0], (lastRowNanos[0] - start) / 1e9, cpu);
    }
}

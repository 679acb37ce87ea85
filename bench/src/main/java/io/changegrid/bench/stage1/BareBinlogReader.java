package io.changegrid.bench.stage1;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import io.changegrid.fetchers.mysql.BinlogPosition;
import io.changegrid.testkit.MariaDbServer;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The ceiling of stage 1: a bare {@link BinaryLogClient} with the library's default deserializer
 * reading the same binlog range and doing nothing with the rows but counting them.
 */
final class BareBinlogReader {

    /** What the bare reader did. */
    record Result(long rows, double seconds, double cpuSeconds) {}

    private BareBinlogReader() {}

    static Result read(MariaDbServer server, BinlogPosition from, BinlogPosition to)
            throws IOException {
        BinaryLogClient client =
                new BinaryLogClient(server.host(), server.port(), server.user(), server.password());
        client.setServerId(9_999);
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

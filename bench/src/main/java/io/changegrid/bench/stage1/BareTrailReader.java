package io.changegrid.bench.stage1;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The ceiling of the GoldenGate source: reading the trail files and parsing every line with
 * Jackson's streaming parser, every value decoded to text, and nothing else (no types, no frames,
 * no buffer), on one thread, as the fetcher's thread does.
 */
final class BareTrailReader {

    /** What one read of the files took. */
    record Result(long lines, long bytes, double seconds, double cpuSeconds) {}

    private BareTrailReader() {}

    static Result run(GoldenGateTrail trail) throws IOException {
        JsonFactory json = new JsonFactory();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpuBefore = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        long lines = 0;
        long bytes = 0;
        long checksum = 0;
        byte[] buffer = new byte[1 << 20];
        for (Path file : trail.files()) {
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                int end = 0;
                while (true) {
                    int read = channel.read(ByteBuffer.wrap(buffer, end, buffer.length - end));
                    if (read <= 0) {
                        break;
                    }
                    bytes += read;
                    end += read;
                    int lineStart = 0;
                    for (int i = 0; i < end; i++) {
                        if (buffer[i] == '\n') {
                            checksum += parse(json, buffer, lineStart, i - lineStart);
                            lines++;
                            lineStart = i + 1;
                        }
                    }
                    System.arraycopy(buffer, lineStart, buffer, 0, end - lineStart);
                    end -= lineStart;
                    if (end == buffer.length) {
                        byte[] bigger = new byte[buffer.length * 2];
                        System.arraycopy(buffer, 0, bigger, 0, end);
                        buffer = bigger;
                    }
                }
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double cpu = (threads.getCurrentThreadCpuTime() - cpuBefore) / 1e9;
        if (checksum == 42) {
            System.err.print(""); // keeps the parsing from being optimised away
        }
        return new Result(lines, bytes, seconds, cpu);
    }

    private static long parse(JsonFactory json, byte[] line, int offset, int length)
            throws IOException {
        long sum = 0;
        try (JsonParser parser = json.createParser(line, offset, length)) {
            JsonToken token;
            while ((token = parser.nextToken()) != null) {
                if (token.isScalarValue()) {
                    sum += parser.getTextLength();
                }
            }
        }
        return sum;
    }
}

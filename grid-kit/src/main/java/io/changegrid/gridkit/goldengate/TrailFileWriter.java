package io.changegrid.gridkit.goldengate;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.Map;

/**
 * Writes JSON formatter operation records the way GoldenGate for Big Data's File Writer handler
 * does, so that the GoldenGate fetcher can be tested and measured without GoldenGate:
 *
 * <ul>
 *   <li>one JSON object per operation and line, metacolumns first ({@code table}, {@code op_type},
 *       {@code op_ts}, {@code current_ts}, {@code pos}, {@code primary_keys}, {@code tokens} with
 *       TK-XID/TK-CSN, optionally {@code txind}), then {@code before} and {@code after};
 *   <li>{@code pos}: a trail sequence number and RBA, 10 + 10 digits, advancing by each record's
 *       simulated trail length and moving to the next sequence number when the simulated trail file
 *       is full;
 *   <li>the file being written ends with the active suffix; it rolls at a transaction boundary once
 *       it reaches the size limit or its age the roll interval, and is then finalized by renaming
 *       it to the finalized suffix;
 *   <li>with {@code splitLines}, each line is written in two writes, so a reader sees partial last
 *       lines as it would while GoldenGate writes.
 * </ul>
 *
 * <p>Threading: one writer thread; {@link #roll()} and {@link #close()} may come from another, all
 * methods are synchronized.
 */
public final class TrailFileWriter implements AutoCloseable {

    /**
     * How the writer rolls and names files, and what it writes.
     *
     * @param directory where the files go
     * @param group the name prefix (the Replicat group)
     * @param maxFileBytes roll once the file is this large
     * @param rollInterval roll once the file is this old
     * @param finalizedSuffix a finalized file's name ending
     * @param activeSuffix the file being written's name ending
     * @param transactionIndicator write the {@code txind} metacolumn (0 begin .. 3 whole)
     * @param trailSequence the first simulated trail sequence number
     * @param trailFileBytes the simulated trail file size, after which the sequence number moves
     * @param splitLines write each line in two writes
     */
    public record Options(
            Path directory,
            String group,
            long maxFileBytes,
            Duration rollInterval,
            String finalizedSuffix,
            String activeSuffix,
            boolean transactionIndicator,
            long trailSequence,
            long trailFileBytes,
            boolean splitLines) {

        /** Defaults as the deploy/goldengate properties set them: 64 MiB or 1 minute, .json. */
        public static Options in(Path directory) {
            return new Options(
                    directory,
                    "ggjson",
                    64L << 20,
                    Duration.ofMinutes(1),
                    ".json",
                    ".json.tmp",
                    false,
                    1,
                    100L << 20,
                    false);
        }

        public Options withRolling(long maxFileBytes, Duration rollInterval) {
            return new Options(
                    directory,
                    group,
                    maxFileBytes,
                    rollInterval,
                    finalizedSuffix,
                    activeSuffix,
                    transactionIndicator,
                    trailSequence,
                    trailFileBytes,
                    splitLines);
        }

        public Options withTransactionIndicator(boolean on) {
            return new Options(
                    directory,
                    group,
                    maxFileBytes,
                    rollInterval,
                    finalizedSuffix,
                    activeSuffix,
                    on,
                    trailSequence,
                    trailFileBytes,
                    splitLines);
        }

        public Options withSplitLines(boolean on) {
            return new Options(
                    directory,
                    group,
                    maxFileBytes,
                    rollInterval,
                    finalizedSuffix,
                    activeSuffix,
                    transactionIndicator,
                    trailSequence,
                    trailFileBytes,
                    on);
        }

        public Options withTrail(long sequence, long fileBytes) {
            return new Options(
                    directory,
                    group,
                    maxFileBytes,
                    rollInterval,
                    finalizedSuffix,
                    activeSuffix,
                    transactionIndicator,
                    sequence,
                    fileBytes,
                    splitLines);
        }
    }

    /** A trail file's header: the RBA of its first record. */
    private static final long TRAIL_HEADER_BYTES = 1_416;

    /** The trail record's header and token area beside the row data, roughly. */
    private static final long RECORD_OVERHEAD_BYTES = 64;

    private static final DateTimeFormatter OP_TS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter CURRENT_TS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS").withZone(ZoneOffset.UTC);

    private final Options options;
    private final JsonFactory json = new JsonFactory();
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(2048);
    private long sequence;
    private long rba = TRAIL_HEADER_BYTES;
    private long fileNumber;
    private FileChannel file;
    private Path filePath;
    private long fileBytes;
    private long fileOpenedNanos;
    private String lastPos;
    private int finalizedFiles;

    public TrailFileWriter(Options options) throws IOException {
        this.options = options;
        this.sequence = options.trailSequence();
        Files.createDirectories(options.directory());
    }

    /**
     * Writes one transaction's operations, rolling the file before it when due.
     *
     * @param xid the TK-XID token
     * @param csn the TK-CSN token
     * @param commitTime the op_ts of every operation
     */
    public synchronized void write(
            String xid, String csn, Instant commitTime, java.util.List<TrailOperation> operations)
            throws IOException {
        if (operations.isEmpty()) {
            throw new IllegalArgumentException("a transaction needs an operation: xid=" + xid);
        }
        if (file != null
                && (fileBytes >= options.maxFileBytes()
                        || System.nanoTime() - fileOpenedNanos
                                >= options.rollInterval().toNanos())) {
            finalizeFile();
        }
        if (file == null) {
            openFile();
        }
        for (int i = 0; i < operations.size(); i++) {
            int txind =
                    operations.size() == 1 ? 3 : i == 0 ? 0 : i == operations.size() - 1 ? 2 : 1;
            writeLine(render(operations.get(i), xid, csn, commitTime, txind));
        }
    }

    /** Finalizes the file being written now, as a roll by time would. */
    public synchronized void roll() throws IOException {
        if (file != null) {
            finalizeFile();
        }
    }

    /** The last {@code pos} written, or null. */
    public synchronized String lastPos() {
        return lastPos;
    }

    /** How many files were finalized so far. */
    public synchronized int finalizedFiles() {
        return finalizedFiles;
    }

    /** The file being written, or null. */
    public synchronized Path activeFile() {
        return filePath;
    }

    /**
     * Finalizes the file being written, as GoldenGate does on a clean shutdown with rollOnShutdown.
     */
    @Override
    public synchronized void close() throws IOException {
        roll();
    }

    private void openFile() throws IOException {
        String base =
                options.group()
                        + "_"
                        + DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS")
                                .withZone(ZoneOffset.UTC)
                                .format(Instant.now())
                        + "_"
                        + String.format("%06d", fileNumber++);
        filePath = options.directory().resolve(base + options.activeSuffix());
        file =
                FileChannel.open(
                        filePath,
                        StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.APPEND);
        fileBytes = 0;
        fileOpenedNanos = System.nanoTime();
    }

    private void finalizeFile() throws IOException {
        file.close();
        String name = filePath.getFileName().toString();
        String base = name.substring(0, name.length() - options.activeSuffix().length());
        Files.move(
                filePath,
                filePath.resolveSibling(base + options.finalizedSuffix()),
                StandardCopyOption.ATOMIC_MOVE);
        file = null;
        filePath = null;
        finalizedFiles++;
    }

    private void writeLine(byte[] bytes) throws IOException {
        if (options.splitLines() && bytes.length > 1) {
            int half = bytes.length / 2;
            writeFully(ByteBuffer.wrap(bytes, 0, half));
            Thread.yield();
            writeFully(ByteBuffer.wrap(bytes, half, bytes.length - half));
        } else {
            writeFully(ByteBuffer.wrap(bytes));
        }
        fileBytes += bytes.length;
    }

    private void writeFully(ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            file.write(buffer);
        }
    }

    private byte[] render(TrailOperation op, String xid, String csn, Instant commitTime, int txind)
            throws IOException {
        if (rba >= options.trailFileBytes()) {
            sequence++;
            rba = TRAIL_HEADER_BYTES;
        }
        lastPos = String.format("%010d%010d", sequence, rba);
        line.reset();
        try (JsonGenerator out = json.createGenerator(line)) {
            out.writeStartObject();
            out.writeStringField("table", op.table());
            out.writeStringField("op_type", String.valueOf(op.opType()));
            out.writeStringField("op_ts", OP_TS.format(commitTime));
            out.writeStringField("current_ts", CURRENT_TS.format(Instant.now()));
            out.writeStringField("pos", lastPos);
            out.writeArrayFieldStart("primary_keys");
            for (String key : op.primaryKeys()) {
                out.writeString(key);
            }
            out.writeEndArray();
            out.writeObjectFieldStart("tokens");
            out.writeStringField("TK-XID", xid);
            out.writeStringField("TK-CSN", csn);
            out.writeEndObject();
            if (options.transactionIndicator()) {
                out.writeStringField("txind", Integer.toString(txind));
            }
            if (op.before() != null) {
                out.writeFieldName("before");
                image(out, op.before());
            }
            if (op.after() != null) {
                out.writeFieldName("after");
                image(out, op.after());
            }
            out.writeEndObject();
        }
        line.write('\n');
        byte[] bytes = line.toByteArray();
        rba += bytes.length + RECORD_OVERHEAD_BYTES;
        return bytes;
    }

    private static void image(JsonGenerator out, Map<String, Object> image) throws IOException {
        out.writeStartObject();
        for (Map.Entry<String, Object> column : image.entrySet()) {
            Object value = column.getValue();
            if (value == TrailOperation.MISSING) {
                out.writeBooleanField(column.getKey() + "_isMissing", true);
                continue;
            }
            out.writeFieldName(column.getKey());
            if (value == null) {
                out.writeNull();
            } else if (value instanceof Boolean b) {
                out.writeBoolean(b);
            } else if (value instanceof java.math.BigDecimal d) {
                out.writeNumber(d);
            } else if (value instanceof java.math.BigInteger i) {
                out.writeNumber(i);
            } else if (value instanceof Long
                    || value instanceof Integer
                    || value instanceof Short
                    || value instanceof Byte) {
                out.writeNumber(((Number) value).longValue());
            } else if (value instanceof Double d) {
                out.writeNumber(d);
            } else if (value instanceof Float f) {
                out.writeNumber(f);
            } else if (value instanceof byte[] bytes) {
                out.writeString(Base64.getEncoder().encodeToString(bytes));
            } else {
                out.writeString(value.toString());
            }
        }
        out.writeEndObject();
    }
}

package io.changegrid.consumer.sink;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.api.EventView;
import io.changegrid.events.json.EventJsonWriter;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Appends each event's JSON form ({@link EventJsonWriter}, see {@code docs/event-format.md}) to a
 * file, one event per line. A batch's lines are flushed and the file synced in {@link #onEndBatch},
 * before the consumer saves the checkpoint, so every checkpointed event is on disk; a rolled-back
 * batch's lines are cut off again. After a crash the lines of the last un-checkpointed batches may
 * appear twice (at-least-once).
 *
 * <p>An I/O error is thrown, which stops the consumer (FAIL) with the error.
 *
 * <p>Threading: the consumer's dispatcher thread; {@link #close} after the consumer stopped.
 */
public final class JsonLinesFileCallback implements ConsumerCallback, AutoCloseable {

    private static final JsonFactory JSON = new JsonFactory();

    private final Path file;
    private final FileChannel channel;
    private final JsonGenerator json;
    private long batchStart;
    private long lines;

    /** Appends to {@code file}, creating it (and its directory) if missing. */
    public JsonLinesFileCallback(Path file) throws IOException {
        this.file = file;
        Path directory = file.toAbsolutePath().getParent();
        Files.createDirectories(directory);
        this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        channel.position(channel.size());
        this.json =
                JSON.createGenerator(
                        new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16));
        json.setRootValueSeparator(null);
    }

    @Override
    public CallbackResult onStartBatch() {
        batchStart = position();
        return CallbackResult.SUCCESS;
    }

    @Override
    public CallbackResult onEvent(EventView event) {
        try {
            EventJsonWriter.write(json, event.toChangeEvent());
            json.writeRaw('\n');
        } catch (IOException e) {
            throw new UncheckedIOException("event not written: file=" + file, e);
        }
        lines++;
        return CallbackResult.SUCCESS;
    }

    @Override
    public CallbackResult onEndBatch(long checkpointScn) {
        try {
            json.flush();
            channel.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException("batch not synced: file=" + file, e);
        }
        return CallbackResult.SUCCESS;
    }

    @Override
    public void onRollback(long checkpointScn) {
        try {
            json.flush();
            channel.truncate(batchStart);
            channel.position(batchStart);
        } catch (IOException e) {
            throw new UncheckedIOException("rolled-back batch not removed: file=" + file, e);
        }
    }

    /** Lines written so far, rolled-back ones included. */
    public long lines() {
        return lines;
    }

    /** The file written. */
    public Path file() {
        return file;
    }

    @Override
    public void close() throws IOException {
        try (channel;
                json) {
            json.flush();
            channel.force(false);
        }
    }

    private long position() {
        try {
            json.flush();
            return channel.position();
        } catch (IOException e) {
            throw new UncheckedIOException("file position not read: file=" + file, e);
        }
    }
}

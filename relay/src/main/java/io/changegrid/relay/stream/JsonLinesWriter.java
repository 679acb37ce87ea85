package io.changegrid.relay.stream;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.changegrid.events.frame.ChangeEventDecoder;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.json.EventJsonWriter;
import io.changegrid.relay.process.FatalErrors;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;

/**
 * Writes frames as JSON lines in chunks of about {@value #CHUNK_BYTES} bytes, rendering the next
 * chunk once the connection has taken the previous one. Rendering a whole response before writing
 * any of it made the relay and a JSON consumer take turns: the consumer waited for the last line to
 * be rendered, and the relay waited idle while the consumer parsed. Chunks let the consumer parse
 * the first lines while the rest is rendered.
 *
 * <p>Threading: {@link #process} runs on whichever thread completed the previous write, never on
 * two at once; the frames' buffer is not touched by anyone else until {@code done} completes.
 */
final class JsonLinesWriter extends IteratingCallback {

    static final int CHUNK_BYTES = 64 * 1024;
    private static final JsonFactory JSON = new JsonFactory();

    private final Response response;
    private final ByteBuffer frames;
    private final int length;
    private final ChangeEventDecoder decoder;
    private final Callback done;
    private final EventFrame frame = new EventFrame();
    private final Chunk chunk = new Chunk(CHUNK_BYTES + CHUNK_BYTES / 4);
    private final JsonGenerator json;
    private int offset;
    private boolean lastWritten;

    /**
     * @param frames the frames to render, from position 0
     * @param length how many bytes of frames
     * @param done completed once the last chunk is written, or on the first failure
     */
    JsonLinesWriter(
            Response response,
            ByteBuffer frames,
            int length,
            ChangeEventDecoder decoder,
            Callback done) {
        this.response = response;
        this.frames = frames;
        this.length = length;
        this.decoder = decoder;
        this.done = done;
        try {
            this.json = JSON.createGenerator(chunk);
        } catch (IOException e) {
            throw new IllegalStateException("JSON generator over memory not created", e);
        }
        json.setRootValueSeparator(null);
    }

    @Override
    protected Action process() throws IOException {
        try {
            return renderNext();
        } catch (Error e) {
            // IteratingCallback would take it for a failed write; the process must end instead.
            FatalErrors.halt("stream JSON rendering", e);
            throw e;
        }
    }

    private Action renderNext() throws IOException {
        if (lastWritten) {
            return Action.SUCCEEDED;
        }
        chunk.reset();
        while (offset < length && chunk.size() + json.getOutputBuffered() < CHUNK_BYTES) {
            frame.wrap(frames, offset);
            EventJsonWriter.write(json, decoder.decode(frame), frame.continues());
            json.writeRaw('\n');
            offset += frame.length();
        }
        json.flush();
        lastWritten = offset >= length;
        response.write(lastWritten, chunk.bytes(), this);
        return Action.SCHEDULED;
    }

    @Override
    protected void onCompleteSuccess() {
        closeGenerator();
        done.succeeded();
    }

    @Override
    protected void onCompleteFailure(Throwable cause) {
        closeGenerator();
        done.failed(cause);
    }

    private void closeGenerator() {
        try {
            json.close(); // hands its buffers back to Jackson's recycler
        } catch (IOException e) {
            // Into memory: cannot happen, and nothing would be lost.
        }
    }

    /** A reusable in-memory chunk; unsynchronized, unlike ByteArrayOutputStream. */
    private static final class Chunk extends OutputStream {
        private byte[] bytes;
        private int size;

        Chunk(int capacity) {
            this.bytes = new byte[capacity];
        }

        int size() {
            return size;
        }

        void reset() {
            size = 0;
        }

        ByteBuffer bytes() {
            return ByteBuffer.wrap(bytes, 0, size);
        }

        @Override
        public void write(int b) {
            ensure(1);
            bytes[size++] = (byte) b;
        }

        @Override
        public void write(byte[] source, int from, int count) {
            ensure(count);
            System.arraycopy(source, from, bytes, size, count);
            size += count;
        }

        private void ensure(int more) {
            if (size + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
            }
        }
    }
}

package io.changegrid.relay;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigException;
import io.changegrid.fetchers.FetcherProvider;
import io.changegrid.relay.buffer.BufferIdentity;
import io.changegrid.relay.buffer.BufferRecovery;
import io.changegrid.relay.buffer.EventBuffer;
import io.changegrid.relay.buffer.EventBufferConfig;
import io.changegrid.relay.buffer.SegmentFiles;
import io.changegrid.relay.config.RelayConfiguration;
import io.changegrid.relay.config.RelaySettings;
import io.changegrid.relay.state.PositionStore;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relay's event buffer as its settings say: memory or mapped files, and with {@code
 * buffer.persistent} the segment files a restarted relay recovers its buffer from (docs/relay.md,
 * "Positions, restarts and crashes").
 */
final class RelayBuffer {

    private static final Logger LOG = LoggerFactory.getLogger(RelayBuffer.class);

    private RelayBuffer() {}

    /**
     * The files of a persistent buffer ({@code buffer.persistent}), locked and checked, or null.
     *
     * @throws ConfigException if persistence is asked of direct storage
     */
    static SegmentFiles segmentFiles(RelayConfiguration configuration, FetcherProvider source) {
        Config config = configuration.settings();
        if (!config.get(RelaySettings.BUFFER_PERSISTENT)) {
            return null;
        }
        if (config.get(RelaySettings.BUFFER_STORAGE) != RelaySettings.BufferStorage.MAPPED) {
            throw new ConfigException(
                    List.of(
                            "bad value: path="
                                    + RelaySettings.BUFFER_PERSISTENT.path()
                                    + ": a persistent buffer needs "
                                    + RelaySettings.BUFFER_STORAGE.path()
                                    + "=mapped"));
        }
        long capacity = config.get(RelaySettings.BUFFER_CAPACITY);
        int segment = Math.toIntExact(config.get(RelaySettings.BUFFER_SEGMENT));
        return SegmentFiles.open(
                config.get(RelaySettings.BUFFER_DIRECTORY),
                identity(configuration, source),
                (int) (capacity / segment),
                segment);
    }

    /**
     * Every setting that decides what the buffer's frames hold: recovered frames are served only
     * under the same ones. Objects without a value {@code toString} (a masking salt's hasher) lose
     * their identity hash here, so that the same policies give the same text in every process.
     */
    static BufferIdentity identity(RelayConfiguration configuration, FetcherProvider source) {
        Config config = configuration.settings();
        String content =
                String.join(
                                "\n",
                                "source.type=" + source.type(),
                                "source=" + source.describe(config),
                                "capture.include=" + config.get(RelaySettings.CAPTURE_INCLUDE),
                                "capture.exclude=" + config.get(RelaySettings.CAPTURE_EXCLUDE),
                                "capture.partition=" + configuration.plan().partition(),
                                "policies="
                                        + configuration
                                                .plan()
                                                .policies()
                                                .map(Object::toString)
                                                .orElse("none")
                                                .replaceAll("@[0-9a-f]+", "@"),
                                "schemaFingerprint=" + configuration.plan().schemaFingerprint())
                        // Only when on, so that the files of relays without parts stay theirs.
                        + (config.get(RelaySettings.BUFFER_TRANSACTION_PARTS)
                                ? "\nbuffer.transactionParts=true"
                                : "");
        return BufferIdentity.of(config.get(RelaySettings.SOURCE_ID), content);
    }

    /** Closes (and unlocks) a persistent buffer's files; nothing without them. */
    static void close(SegmentFiles files) {
        if (files != null) {
            files.close();
        }
    }

    /** The buffer's storage as the settings say: a persistent buffer's files, or memory. */
    static EventBufferConfig config(Config config, SegmentFiles files) {
        long capacity = config.get(RelaySettings.BUFFER_CAPACITY);
        int segment = Math.toIntExact(config.get(RelaySettings.BUFFER_SEGMENT));
        if (files != null) {
            return EventBufferConfig.direct(capacity, segment).withStorage(files);
        }
        return switch (config.get(RelaySettings.BUFFER_STORAGE)) {
            case DIRECT -> EventBufferConfig.direct(capacity, segment);
            case MAPPED ->
                    EventBufferConfig.mapped(
                            capacity, segment, config.get(RelaySettings.BUFFER_DIRECTORY));
        };
    }

    /**
     * Recovers a persistent buffer from its files (null without one, or when nothing could be
     * recovered: the log says why).
     */
    static BufferRecovery.Recovered recover(
            SegmentFiles segmentFiles,
            EventBuffer buffer,
            Config config,
            Optional<PositionStore.SavedPosition> saved) {
        if (segmentFiles == null) {
            return null;
        }
        long began = System.nanoTime();
        BufferRecovery.Result result =
                BufferRecovery.recover(
                        segmentFiles,
                        buffer,
                        config.get(RelaySettings.SOURCE_ID),
                        saved.map(s -> new BufferRecovery.Saved(s.lastScn(), s.replayFloorScn()))
                                .orElse(null));
        if (result instanceof BufferRecovery.Recovered r) {
            LOG.info(
                    "event buffer recovered: directory={}, segments={}, entries={}, bytes={},"
                            + " oldestScn={}, lastScn={}, tornTailBytesDropped={}, in={}ms;"
                            + " fetching from {}",
                    segmentFiles.directory(),
                    r.segments().size(),
                    r.entries(),
                    r.bytes(),
                    buffer.oldestScn(),
                    r.lastScn(),
                    r.droppedBytes(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began),
                    r.resumePosition());
            return r;
        }
        String reason = ((BufferRecovery.NotRecovered) result).reason();
        if (saved.isEmpty()) {
            LOG.info(
                    "event buffer starts empty: {}; directory={}",
                    reason,
                    segmentFiles.directory());
        } else {
            LOG.warn(
                    "event buffer not recovered, re-reading the source from the replay point: {};"
                            + " directory={}",
                    reason,
                    segmentFiles.directory());
        }
        return null;
    }
}

package io.changegrid.fetchers.goldengate;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.fetchers.FetchPosition;
import io.changegrid.fetchers.Fetcher;
import io.changegrid.fetchers.TransactionSink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the operation records GoldenGate for Big Data's File Writer handler writes into a directory
 * and hands whole transactions to a sink: the control loop of a GoldenGate fetcher. A duty cycle:
 * read what is there ({@link TrailReader}), hand it to the {@link GoldenGateTransactionAssembler},
 * and when nothing is new, heartbeat and wait {@code source.pollInterval}.
 *
 * <p>There is nothing to reconnect to: every error is bad input or a lost file, and stops {@link
 * #run} with a {@link FetchFailedException} naming the file and offset; nothing past the last whole
 * transaction was handed over.
 *
 * <p>Threading: {@link #run} blocks the calling thread (the relay's fetcher thread); {@link #stop}
 * and the getters may be called from any thread.
 */
public final class GoldenGateFetcher implements Fetcher {

    private static final Logger LOG = LoggerFactory.getLogger(GoldenGateFetcher.class);
    private static final int LINES_PER_POLL = 4096;

    private final GoldenGateFetcherConfig config;
    private final SchemaRegistry registry;
    private final GoldenGateTransactionAssembler assembler;
    private final TrailReader reader;
    private volatile boolean stopped;

    private GoldenGateFetcher(
            GoldenGateFetcherConfig config,
            SchemaRegistry registry,
            ResumePoint resume,
            TransactionSink sink) {
        this.config = config;
        this.registry = registry;
        this.assembler = new GoldenGateTransactionAssembler(config, registry, sink, resume);
        this.reader =
                new TrailReader(
                        new TrailDirectory(
                                config.directory(),
                                config.finalizedSuffix(),
                                config.activeSuffix(),
                                config.format()),
                        resume);
    }

    /**
     * Checks the directory, registers the captured tables' schemas and positions the fetcher at
     * {@code resumePosition}, or at the earliest file without one.
     *
     * @throws FetchFailedException naming every problem
     */
    static GoldenGateFetcher open(
            GoldenGateFetcherConfig config, String resumePosition, TransactionSink sink)
            throws IOException {
        if (!Files.isDirectory(config.directory())) {
            throw new FetchFailedException(
                    "not a directory: source.directory=" + config.directory());
        }
        ResumePoint resume;
        try {
            resume =
                    resumePosition == null || resumePosition.isEmpty()
                            ? null
                            : ResumePoint.parse(resumePosition);
        } catch (IllegalArgumentException e) {
            throw new FetchFailedException(e.getMessage(), e);
        }
        SchemaRegistry registry = SourceTables.registry(config);
        LOG.info(
                "goldengate fetcher positioned: directory={}, format={}, transactions={}, resume={}, tables={}",
                config.directory(),
                config.format(),
                config.hasTransactionIndicator()
                        ? "txind field " + config.transactionIndicator()
                        : "token " + config.xidToken(),
                resume == null ? "earliest file" : resume,
                registry.latestVersions().size());
        return new GoldenGateFetcher(config, registry, resume, sink);
    }

    @Override
    public void run() throws InterruptedException {
        long idleMillis = Math.max(1, config.pollInterval().toMillis());
        try {
            while (!stopped) {
                int work;
                try {
                    work = reader.poll(assembler, LINES_PER_POLL);
                } catch (IOException e) {
                    throw new UncheckedIOException(
                            "reading the File Writer's directory failed: directory="
                                    + config.directory()
                                    + ", resume="
                                    + assembler.committedText(),
                            e);
                }
                if (work == 0) {
                    assembler.idle();
                    TimeUnit.MILLISECONDS.sleep(idleMillis);
                }
            }
        } finally {
            try {
                reader.close();
            } catch (IOException e) {
                LOG.debug("closing the file being read failed; it is dropped anyway", e);
            }
            LOG.info("goldengate fetcher stopped: position={}", assembler.committedText());
        }
    }

    @Override
    public void stop() {
        stopped = true;
    }

    @Override
    public FetchPosition position() {
        return new FetchPosition(assembler.committedScn(), assembler.committedText());
    }

    @Override
    public long lagScn() {
        return -1; // the trail's end position is not known without GoldenGate's own API
    }

    @Override
    public SchemaRegistry sourceSchemas() {
        return registry;
    }

    @Override
    public SchemaRegistry publishedSchemas() {
        return assembler.published();
    }
}

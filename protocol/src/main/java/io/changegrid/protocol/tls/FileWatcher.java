package io.changegrid.protocol.tls;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an action when any of some files changes (modification time, size or inode), polling on a
 * daemon thread of its own: certificates and token files are replaced by tools (cert-manager, Vault
 * agents) that rename a new file into place, which polling sees on every file system while inotify
 * misses it on some mounts (a Kubernetes secret volume swaps a symlink). A failed action is logged
 * and tried again at the next change, so a half-written file is re-read once complete.
 *
 * <p>A Jetty life cycle: added to a server as a bean, it starts and stops with it.
 */
public final class FileWatcher extends AbstractLifeCycle {

    /** How often servers and clients look at their TLS files for changes. */
    public static final Duration INTERVAL = Duration.ofSeconds(1);

    private static final Logger LOG = LoggerFactory.getLogger(FileWatcher.class);

    /** The action run on a change; an exception is logged, the previous state kept. */
    @FunctionalInterface
    public interface Action {
        void changed() throws Exception;
    }

    private final String name;
    private final List<Path> files;
    private final Duration interval;
    private final Action action;
    private List<Object> seen;
    private ScheduledExecutorService poller;

    /**
     * @param name names the thread and the log lines, e.g. {@code http.tls}
     */
    public FileWatcher(String name, List<Path> files, Duration interval, Action action) {
        this.name = name;
        this.files = List.copyOf(files);
        this.interval = interval;
        this.action = action;
    }

    @Override
    protected void doStart() {
        seen = fingerprint();
        poller =
                Executors.newSingleThreadScheduledExecutor(
                        runnable -> {
                            Thread thread = new Thread(runnable, "watch-" + name);
                            thread.setDaemon(true);
                            return thread;
                        });
        long millis = interval.toMillis();
        poller.scheduleWithFixedDelay(this::poll, millis, millis, TimeUnit.MILLISECONDS);
    }

    @Override
    protected void doStop() {
        poller.shutdownNow();
    }

    /** Looks once; runs the action if anything changed since the last look. */
    void poll() {
        List<Object> now = fingerprint();
        if (now.equals(seen)) {
            return;
        }
        seen = now;
        try {
            action.changed();
            LOG.info("files re-read after a change: name={}, files={}", name, files);
        } catch (Exception e) {
            // Keep serving with what was read before; the next change is tried again.
            LOG.error(
                    "files changed but could not be re-read, keeping the previous ones: name={},"
                            + " files={}, reason={}",
                    name,
                    files,
                    e.toString());
        }
    }

    private List<Object> fingerprint() {
        List<Object> print = new ArrayList<>();
        for (Path file : files) {
            try {
                BasicFileAttributes attributes =
                        Files.readAttributes(file, BasicFileAttributes.class);
                print.add(
                        List.of(
                                attributes.lastModifiedTime(),
                                attributes.size(),
                                Objects.toString(attributes.fileKey())));
            } catch (IOException e) {
                print.add("missing"); // being replaced: looked at again next time
            }
        }
        return print;
    }
}

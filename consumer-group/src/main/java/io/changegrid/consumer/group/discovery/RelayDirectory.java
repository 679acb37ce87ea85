package io.changegrid.consumer.group.discovery;

import io.changegrid.protocol.RelayRegistration;
import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relays registered for one source, kept current with a ZooKeeper watch: every change of the
 * registered set (a relay started, stopped or lost its session) is read again and handed to the
 * listener, as is the set after a session expiry, when watches must be set anew.
 *
 * <p>Threading: reads run on one thread of the directory's own ({@code relay-directory}), which
 * also calls the listener; {@link #relays} from any thread.
 */
public final class RelayDirectory implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RelayDirectory.class);

    private final ZooKeeperSession zooKeeper;
    private final int sourceId;
    private final String path;
    private final Consumer<List<RelayRegistration>> listener;
    private final ExecutorService reads;
    private final Watcher watcher = this::changed;
    private volatile List<RelayRegistration> relays = List.of();
    private volatile boolean closed;

    /**
     * @param listener told the registered relays, sorted by name, each time they change
     */
    public RelayDirectory(
            ZooKeeperSession zooKeeper, int sourceId, Consumer<List<RelayRegistration>> listener) {
        this.zooKeeper = zooKeeper;
        this.sourceId = sourceId;
        this.path = RelayRegistration.sourcePath(sourceId);
        this.listener = listener;
        this.reads =
                Executors.newSingleThreadExecutor(
                        runnable -> {
                            Thread thread = new Thread(runnable, "relay-directory");
                            thread.setDaemon(true);
                            return thread;
                        });
    }

    /**
     * Reads the registered relays once (so {@link #relays} is current when this returns), then
     * watches them.
     */
    public void start() throws IOException, InterruptedException {
        zooKeeper.onNewSession(this::refreshLater);
        try {
            reads.submit(this::refresh).get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IOException("relay registrations not read: path=" + path, e.getCause());
        }
    }

    /** The relays registered now, sorted by name. */
    public List<RelayRegistration> relays() {
        return relays;
    }

    public int sourceId() {
        return sourceId;
    }

    @Override
    public void close() {
        closed = true;
        reads.shutdownNow();
    }

    private void changed(WatchedEvent event) {
        if (event.getType() != Watcher.Event.EventType.None) {
            refreshLater();
        }
    }

    private void refreshLater() {
        if (closed) {
            return;
        }
        try {
            reads.execute(this::refresh);
        } catch (RejectedExecutionException e) {
            // Closed meanwhile: nobody listens any more.
        }
    }

    private void refresh() {
        if (closed) {
            return;
        }
        List<RelayRegistration> found = new ArrayList<>();
        try {
            List<String> names;
            try {
                names = zooKeeper.call(zk -> zk.getChildren(path, watcher));
            } catch (KeeperException.NoNodeException e) {
                // No relay of this source registered yet: watch for the first.
                if (zooKeeper.call(zk -> zk.exists(path, watcher)) != null) {
                    refreshLater();
                }
                names = List.of();
            }
            names = new ArrayList<>(names);
            Collections.sort(names);
            for (String name : names) {
                String child = path + "/" + name;
                try {
                    byte[] data = zooKeeper.call(zk -> zk.getData(child, false, null));
                    found.add(RelayRegistration.decode(child, data));
                } catch (KeeperException.NoNodeException e) {
                    // Gone between listing and reading: the next watch event lists again.
                } catch (IOException e) {
                    LOG.warn("relay registration skipped: {}", e.getMessage());
                }
            }
        } catch (KeeperException e) {
            LOG.warn(
                    "relay registrations not read, keeping the last known ones: path={}, error={}",
                    path,
                    e.getMessage());
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (!found.equals(relays)) {
            relays = List.copyOf(found);
            LOG.info(
                    "relays of source {}: {}",
                    sourceId,
                    found.stream().map(RelayRegistration::endpoint).toList());
            listener.accept(relays);
        }
    }
}

package io.changegrid.consumer.group.control;

import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A member's view of its group's control node, kept current with a ZooKeeper watch (set anew after
 * a session expiry) and handed to a listener at every change. {@link #current} is a volatile read,
 * cheap enough for a dispatcher's delivery gate.
 *
 * <p>Threading: reads run on one thread of the watch's own ({@code group-control}), which also
 * calls the listener; {@link #current} from any thread.
 */
public final class ControlWatch implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ControlWatch.class);

    private final ZooKeeperSession zooKeeper;
    private final String path;
    private final Consumer<GroupControl> listener;
    private final ExecutorService reads;
    private final Watcher watcher = this::changed;
    private volatile GroupControl current = GroupControl.NONE;
    private volatile boolean closed;

    public ControlWatch(ZooKeeperSession zooKeeper, String group, Consumer<GroupControl> listener) {
        this.zooKeeper = zooKeeper;
        this.path = new GroupControls(zooKeeper, group).path();
        this.listener = listener;
        this.reads =
                Executors.newSingleThreadExecutor(
                        runnable -> {
                            Thread thread = new Thread(runnable, "group-control");
                            thread.setDaemon(true);
                            return thread;
                        });
    }

    /** Reads the node once (so {@link #current} holds when this returns), then watches it. */
    public void start() throws IOException, InterruptedException {
        zooKeeper.onNewSession(this::refreshLater);
        try {
            reads.submit(this::refresh).get();
        } catch (ExecutionException e) {
            throw new IOException("group control not read: path=" + path, e.getCause());
        }
    }

    /** The control as last read. */
    public GroupControl current() {
        return current;
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
        GroupControl read;
        try {
            Stat exists = zooKeeper.call(zk -> zk.exists(path, watcher));
            if (exists == null) {
                read = GroupControl.NONE;
            } else {
                try {
                    byte[] data = zooKeeper.call(zk -> zk.getData(path, watcher, null));
                    read = GroupControl.decode(path, data);
                } catch (KeeperException.NoNodeException e) {
                    read = GroupControl.NONE; // deleted between the two calls; exists() watches
                }
            }
        } catch (KeeperException | IOException e) {
            LOG.warn(
                    "group control not read, keeping the last known one: path={}, error={}",
                    path,
                    e.getMessage());
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (!read.equals(current)) {
            current = read;
            LOG.info("group control: path={}, control={}", path, read);
            listener.accept(read);
        }
    }
}

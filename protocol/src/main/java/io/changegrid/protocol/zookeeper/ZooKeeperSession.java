package io.changegrid.protocol.zookeeper;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A ZooKeeper client that outlives its sessions: a {@link ZooKeeper} handle is dead once its
 * session expired, so on expiry this opens a new one and tells its {@linkplain #onNewSession
 * listeners}, which set their watches again, and its {@linkplain #onEverySession listeners}, which
 * make their ephemeral nodes again. {@link #call} retries an operation across a lost connection or
 * an expired session until a deadline of twice the session timeout; {@link #attempt} tries once,
 * for callers that retry on a schedule of their own.
 *
 * <p>A consumer group {@linkplain #open opens} a session and waits for it: it cannot work without
 * ZooKeeper. A relay {@linkplain #start starts} one without waiting: it serves while ZooKeeper is
 * down and registers once it is up.
 *
 * <p>A retried write may have been applied before its connection was lost; callers whose writes are
 * conditional (a version check) see that as a version conflict, and tell it apart by reading the
 * node back.
 *
 * <p>With {@link ZooKeeperCredentials} every handle authenticates ({@code digest}) before its first
 * operation, and {@link #acl} gives the ACL of a node this session creates ({@link ZooKeeperAcls}).
 * With an enabled {@link ZooKeeperTls} every handle connects over TLS.
 *
 * <p>Threading: thread-safe. Listeners run on one thread of their own ({@code zookeeper-events}),
 * never on ZooKeeper's event thread, so they may block on ZooKeeper calls.
 */
public final class ZooKeeperSession implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperSession.class);
    private static final long RETRY_PAUSE_MILLIS = 50;

    /** One ZooKeeper operation on the current handle. */
    @FunctionalInterface
    public interface Operation<T> {
        T apply(ZooKeeper zooKeeper) throws KeeperException, InterruptedException;
    }

    private final String connectString;
    private final int sessionTimeoutMillis;
    private final ZooKeeperCredentials credentials; // null: no authentication
    private final ZooKeeperTls tls;
    private final List<Runnable> newSessionListeners = new CopyOnWriteArrayList<>();
    private final List<Runnable> everySessionListeners = new CopyOnWriteArrayList<>();
    private final ExecutorService events;
    private final Object lock = new Object();
    private ZooKeeper handle; // guarded by lock
    private HandleWatcher currentWatcher; // guarded by lock
    private int generations; // guarded by lock
    private boolean connected; // guarded by lock
    private boolean closed; // guarded by lock

    private ZooKeeperSession(
            String connectString,
            Duration sessionTimeout,
            ZooKeeperCredentials credentials,
            ZooKeeperTls tls) {
        this.connectString = connectString;
        this.credentials = credentials;
        this.tls = tls == null ? ZooKeeperTls.NONE : tls;
        this.sessionTimeoutMillis = Math.toIntExact(sessionTimeout.toMillis());
        this.events =
                Executors.newSingleThreadExecutor(
                        runnable -> {
                            Thread thread = new Thread(runnable, "zookeeper-events");
                            thread.setDaemon(true);
                            return thread;
                        });
    }

    /**
     * Connects, waiting up to the session timeout for the first session.
     *
     * @param connectString {@code host:port[,host:port...][/chroot]}
     * @throws IOException if no server answered in time
     */
    public static ZooKeeperSession open(String connectString, Duration sessionTimeout)
            throws IOException, InterruptedException {
        return open(connectString, sessionTimeout, null);
    }

    /**
     * As {@link #open(String, Duration)}, authenticated with {@code credentials} in every session,
     * and creating nodes with {@link ZooKeeperAcls}.
     *
     * @param credentials digest credentials, or null for none
     */
    public static ZooKeeperSession open(
            String connectString, Duration sessionTimeout, ZooKeeperCredentials credentials)
            throws IOException, InterruptedException {
        return open(connectString, sessionTimeout, credentials, ZooKeeperTls.NONE);
    }

    /**
     * As {@link #open(String, Duration, ZooKeeperCredentials)}, over TLS when {@code tls} is
     * enabled.
     */
    public static ZooKeeperSession open(
            String connectString,
            Duration sessionTimeout,
            ZooKeeperCredentials credentials,
            ZooKeeperTls tls)
            throws IOException, InterruptedException {
        ZooKeeperSession session = start(connectString, sessionTimeout, credentials, tls);
        if (!session.awaitConnected(System.nanoTime() + sessionTimeout.toNanos())) {
            session.close();
            throw new IOException(
                    "ZooKeeper not reachable: connectString="
                            + connectString
                            + ", waitedMillis="
                            + sessionTimeout.toMillis());
        }
        return session;
    }

    /**
     * Starts connecting without waiting: the first session is established in the background,
     * whenever a server answers, and {@linkplain #onEverySession listeners} learn of it.
     *
     * @param connectString {@code host:port[,host:port...][/chroot]}
     * @throws IllegalArgumentException if the connect string is malformed
     */
    public static ZooKeeperSession start(String connectString, Duration sessionTimeout) {
        return start(connectString, sessionTimeout, null);
    }

    /**
     * As {@link #start(String, Duration)}, authenticated with {@code credentials} in every session.
     *
     * @param credentials digest credentials, or null for none
     */
    public static ZooKeeperSession start(
            String connectString, Duration sessionTimeout, ZooKeeperCredentials credentials) {
        return start(connectString, sessionTimeout, credentials, ZooKeeperTls.NONE);
    }

    /**
     * As {@link #start(String, Duration, ZooKeeperCredentials)}, over TLS when {@code tls} is
     * enabled.
     */
    public static ZooKeeperSession start(
            String connectString,
            Duration sessionTimeout,
            ZooKeeperCredentials credentials,
            ZooKeeperTls tls) {
        ZooKeeperSession session =
                new ZooKeeperSession(connectString, sessionTimeout, credentials, tls);
        synchronized (session.lock) {
            session.handle = session.newHandle();
        }
        return session;
    }

    /** The connect string this session was opened with. */
    public String connectString() {
        return connectString;
    }

    /** The session timeout asked for. */
    public Duration sessionTimeout() {
        return Duration.ofMillis(sessionTimeoutMillis);
    }

    /**
     * Runs after every new session following an expiry (not after the first), on the {@code
     * zookeeper-events} thread: the place to set watches again.
     */
    public void onNewSession(Runnable listener) {
        newSessionListeners.add(listener);
    }

    /**
     * Runs after every session is established, the first included, on the {@code zookeeper-events}
     * thread: the place to make ephemeral nodes (again). Runs at once (on that thread) if the
     * current session is already established, so a listener added late misses none.
     */
    public void onEverySession(Runnable listener) {
        synchronized (lock) {
            everySessionListeners.add(listener);
            if (!closed && currentWatcher != null && currentWatcher.connectedOnce) {
                events.execute(listener);
            }
        }
    }

    /**
     * The id of the current session, or 0 before it is established and once closed. It changes when
     * a session expires, so a caller can tell whether what it made belongs to this one.
     */
    public long sessionId() {
        synchronized (lock) {
            return closed || currentWatcher == null || !currentWatcher.connectedOnce
                    ? 0
                    : handle.getSessionId();
        }
    }

    /**
     * Runs an operation once on the current handle, without retrying: for callers that retry on a
     * schedule of their own. An expired session is replaced (as {@link #call} does) before its
     * exception is rethrown; the new session's {@linkplain #onEverySession listeners} follow.
     *
     * @throws KeeperException what the operation threw; a session expiry also once closed
     */
    public <T> T attempt(Operation<T> operation) throws KeeperException, InterruptedException {
        ZooKeeper zooKeeper = current();
        if (zooKeeper == null) {
            throw new KeeperException.SessionExpiredException();
        }
        try {
            return operation.apply(zooKeeper);
        } catch (KeeperException.SessionExpiredException e) {
            replaceExpired(zooKeeper);
            throw e;
        }
    }

    /**
     * Runs an operation, retrying it while the connection is lost or the session is replaced.
     *
     * @throws KeeperException what the operation threw for any other reason, or the connection loss
     *     when it lasted past twice the session timeout
     */
    public <T> T call(Operation<T> operation) throws KeeperException, InterruptedException {
        long deadline =
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2L * sessionTimeoutMillis);
        while (true) {
            ZooKeeper zooKeeper = current();
            if (zooKeeper == null) {
                throw new KeeperException.SessionExpiredException();
            }
            try {
                return operation.apply(zooKeeper);
            } catch (KeeperException.ConnectionLossException
                    | KeeperException.SessionExpiredException
                    | KeeperException.SessionMovedException e) {
                if (System.nanoTime() >= deadline || current() == null) {
                    throw e;
                }
                if (e instanceof KeeperException.SessionExpiredException) {
                    replaceExpired(zooKeeper);
                }
                awaitConnected(deadline);
                Thread.sleep(RETRY_PAUSE_MILLIS);
            }
        }
    }

    /** The digest credentials every session of this one authenticates with, or null for none. */
    public ZooKeeperCredentials credentials() {
        return credentials;
    }

    /** TLS of this session's connections; {@link ZooKeeperTls#NONE} when plain. */
    public ZooKeeperTls tls() {
        return tls;
    }

    /** The ACL a node at {@code path} is created with by this session ({@link ZooKeeperAcls}). */
    public List<ACL> acl(String path) {
        return ZooKeeperAcls.forPath(path, credentials);
    }

    /** Creates {@code path} and its missing parents as persistent empty nodes. */
    public void createPath(String path) throws KeeperException, InterruptedException {
        int next = 0;
        while (next >= 0) {
            next = path.indexOf('/', next + 1);
            String prefix = next < 0 ? path : path.substring(0, next);
            try {
                call(zk -> zk.create(prefix, new byte[0], acl(prefix), CreateMode.PERSISTENT));
            } catch (KeeperException.NodeExistsException e) {
                // Made by another member, or by a retried create: either way it is there.
            }
        }
    }

    /** Closes the handle; idempotent. */
    @Override
    public void close() {
        ZooKeeper last;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            last = handle;
            lock.notifyAll();
        }
        events.shutdownNow();
        if (last != null) {
            try {
                last.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return "ZooKeeperSession[" + connectString + "]";
    }

    /** The current handle, or null once closed. */
    private ZooKeeper current() {
        synchronized (lock) {
            return closed ? null : handle;
        }
    }

    private boolean awaitConnected(long deadlineNanos) throws InterruptedException {
        synchronized (lock) {
            while (!connected && !closed) {
                long remaining = deadlineNanos - System.nanoTime();
                if (remaining <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(lock, remaining);
            }
            return connected;
        }
    }

    /** Opens a handle with a watcher of its own; the caller holds {@link #lock}. */
    private ZooKeeper newHandle() {
        HandleWatcher watcher = new HandleWatcher(generations++);
        try {
            // Without TLS settings the handle reads the JVM's properties, as before.
            ZooKeeper zooKeeper =
                    tls.enabled()
                            ? new ZooKeeper(
                                    connectString,
                                    sessionTimeoutMillis,
                                    watcher,
                                    tls.clientConfig())
                            : new ZooKeeper(connectString, sessionTimeoutMillis, watcher);
            if (credentials != null) {
                // Sent with the connection, and again by the client on every reconnect.
                zooKeeper.addAuthInfo(ZooKeeperCredentials.SCHEME, credentials.authInfo());
            }
            currentWatcher = watcher;
            return zooKeeper;
        } catch (IOException e) {
            // Only a malformed connect string fails here; connecting itself is asynchronous.
            throw new IllegalArgumentException(
                    "bad ZooKeeper connect string: connectString=" + connectString, e);
        }
    }

    /** Swaps in a new handle if {@code expired} is still the current one. */
    private void replaceExpired(ZooKeeper expired) {
        synchronized (lock) {
            if (closed || handle != expired) {
                return;
            }
            connected = false;
            handle = newHandle();
        }
        LOG.warn(
                "ZooKeeper session expired, opening a new one: connectString={}, sessionId=0x{}",
                connectString,
                Long.toHexString(expired.getSessionId()));
        try {
            expired.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The watcher of one handle: reacts to connection state changes of that handle only. */
    private final class HandleWatcher implements Watcher {

        private final int generation;
        private boolean connectedOnce; // guarded by lock

        HandleWatcher(int generation) {
            this.generation = generation;
        }

        @Override
        public void process(WatchedEvent event) {
            if (event.getType() != Event.EventType.None) {
                return;
            }
            switch (event.getState()) {
                case SyncConnected, ConnectedReadOnly -> connected();
                case Disconnected -> disconnected();
                case Expired -> expired();
                default -> {}
            }
        }

        private void connected() {
            boolean renewed;
            synchronized (lock) {
                if (closed || currentWatcher != this) {
                    return;
                }
                connected = true;
                lock.notifyAll();
                renewed = generation > 0 && !connectedOnce;
                if (!connectedOnce) {
                    // Under the lock, so that onEverySession neither misses this session nor
                    // runs a listener twice for it.
                    for (Runnable listener : everySessionListeners) {
                        events.execute(listener);
                    }
                }
                connectedOnce = true;
            }
            if (renewed) {
                for (Runnable listener : newSessionListeners) {
                    events.execute(listener);
                }
            }
        }

        private void disconnected() {
            synchronized (lock) {
                if (currentWatcher == this) {
                    connected = false;
                }
            }
        }

        private void expired() {
            ZooKeeper expired;
            synchronized (lock) {
                if (currentWatcher != this) {
                    return;
                }
                expired = handle;
            }
            // Not on this handle's own event thread, which closing it would stop.
            events.execute(() -> replaceExpired(expired));
        }
    }
}

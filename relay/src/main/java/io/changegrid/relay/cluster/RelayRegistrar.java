package io.changegrid.relay.cluster;

import io.changegrid.config.Config;
import io.changegrid.policy.Policy;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.select.TablePattern;
import io.changegrid.protocol.RelayRegistration;
import io.changegrid.protocol.RelaySelection;
import io.changegrid.relay.config.RelayConfiguration;
import io.changegrid.relay.config.RelaySettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a relay registered in ZooKeeper ({@link RelayRegistration}, the protocol module's record
 * that consumer groups read) for as long as it runs: the ephemeral node is made when a session is
 * established, made again after a session expiry (with a new session; an expired ZooKeeper handle
 * is dead), and disappears when the relay closes this or its session times out after a crash.
 *
 * <p>ZooKeeper is not needed to serve: the relay starts and streams while ZooKeeper is down, and
 * registers once it is reachable.
 *
 * <p>Threading: ZooKeeper's event thread only hands work to one thread of the registrar's own
 * ({@code relay-registrar}), which makes every ZooKeeper call; a failed attempt is scheduled again
 * on it after a backoff rather than waited for there, so {@link #close} never waits for a retry.
 */
public final class RelayRegistrar implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RelayRegistrar.class);

    /** Waits between failed attempts: from half a second, doubling, to 8 s. */
    private static final Duration RETRY_FIRST = Duration.ofMillis(500);

    private static final Duration RETRY_MAX = Duration.ofSeconds(8);

    private final String connectString;
    private final int sessionTimeoutMillis;
    private final RelayRegistration registration;
    private final byte[] data;
    private final ScheduledExecutorService work;
    private volatile ZooKeeper zooKeeper; // replaced on the work thread only
    private volatile boolean closed;
    private volatile boolean registered;
    private volatile int failedAttempts; // in a row; written on the work thread only

    private RelayRegistrar(
            String connectString, Duration sessionTimeout, RelayRegistration registration) {
        this.connectString = connectString;
        this.sessionTimeoutMillis = Math.toIntExact(sessionTimeout.toMillis());
        this.registration = registration;
        this.data = registration.encode();
        this.work =
                Executors.newSingleThreadScheduledExecutor(
                        runnable -> {
                            Thread thread = new Thread(runnable, "relay-registrar");
                            thread.setDaemon(true);
                            return thread;
                        });
    }

    /** Starts keeping {@code registration} in the ZooKeeper at {@code connectString}. */
    public static RelayRegistrar start(
            String connectString, Duration sessionTimeout, RelayRegistration registration) {
        RelayRegistrar registrar = new RelayRegistrar(connectString, sessionTimeout, registration);
        registrar.submit(registrar::connect);
        return registrar;
    }

    /**
     * Registers a relay as its settings say ({@code cluster.*}) with what it captures (its capture
     * filter and plan), once its HTTP API listens on {@code httpPort}.
     *
     * @return the registrar, or null when {@code cluster.zookeeper} is empty
     */
    public static RelayRegistrar forRelay(RelayConfiguration configuration, int httpPort) {
        Config config = configuration.settings();
        String zooKeeper = config.get(RelaySettings.CLUSTER_ZOOKEEPER).trim();
        if (zooKeeper.isEmpty()) {
            return null;
        }
        String endpoint = config.get(RelaySettings.CLUSTER_ADVERTISED_URL);
        if (endpoint.isEmpty()) {
            String host = config.get(RelaySettings.HTTP_HOST);
            if (host.equals("0.0.0.0") || host.equals("::")) {
                try {
                    host = InetAddress.getLocalHost().getHostName();
                } catch (UnknownHostException e) {
                    host = "localhost";
                }
            }
            endpoint = "http://" + host + ":" + httpPort;
        }
        if (endpoint.endsWith("/")) {
            endpoint = endpoint.substring(0, endpoint.length() - 1);
        }
        return start(
                zooKeeper,
                config.get(RelaySettings.CLUSTER_SESSION_TIMEOUT),
                new RelayRegistration(
                        config.get(RelaySettings.SOURCE_ID),
                        endpoint,
                        config.get(RelaySettings.CAPTURE_INCLUDE),
                        config.get(RelaySettings.CAPTURE_EXCLUDE),
                        configuration.plan().partition(),
                        configuration.plan().partitions(),
                        selections(configuration.plan())));
    }

    /**
     * What a relay's policies select, in order, as it registers them: {@link
     * RelaySelection#EVERYTHING} without policies. A relay's policies' partitioners are registered
     * only when it publishes one partition; a relay publishing all of them publishes every row
     * whatever they say.
     */
    static List<RelaySelection> selections(CapturePlan plan) {
        if (plan.policies().isEmpty()) {
            return List.of(RelaySelection.EVERYTHING);
        }
        boolean split = plan.partition() != CapturePlan.ALL_PARTITIONS;
        List<RelaySelection> selects = new ArrayList<>();
        for (Policy policy : plan.policies().get().policies()) {
            selects.add(
                    new RelaySelection(
                            policy.include().stream().map(TablePattern::text).toList(),
                            policy.exclude().stream().map(TablePattern::text).toList(),
                            policy.where() != null,
                            policy.transform().database() != null
                                    || policy.transform().table() != null,
                            // CapturePlan.of checked that every policy of a split has one.
                            split ? policy.partitioner().canonicalForm() : null));
        }
        return selects;
    }

    /** Whether the node exists under the current session, as far as this registrar knows. */
    public boolean isRegistered() {
        return registered;
    }

    public RelayRegistration registration() {
        return registration;
    }

    /** The current handle; tests expire its session as a server would. */
    ZooKeeper handle() {
        return zooKeeper;
    }

    /** Failed registration attempts in a row; tests wait for retries with it. */
    int failedAttempts() {
        return failedAttempts;
    }

    /**
     * Removes the registration (by closing the session) and stops, at once: a retry waiting for its
     * turn is dropped and a ZooKeeper call in progress interrupted. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        work.shutdownNow();
        try {
            if (!work.awaitTermination(sessionTimeoutMillis, TimeUnit.MILLISECONDS)) {
                LOG.warn(
                        "relay registrar's thread did not stop, closing its session anyway: path={}",
                        registration.path());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeHandle();
        LOG.info("relay unregistered: path={}", registration.path());
    }

    private void submit(Runnable task) {
        try {
            work.execute(task);
        } catch (RejectedExecutionException e) {
            // Closed: nothing more to register.
        }
    }

    /** Opens a new handle (the first, or after an expiry); registration follows on connect. */
    private void connect() {
        if (closed) {
            return;
        }
        closeHandle();
        try {
            zooKeeper = new ZooKeeper(connectString, sessionTimeoutMillis, new SessionWatcher());
        } catch (IOException | IllegalArgumentException e) {
            LOG.error(
                    "relay not registered, bad ZooKeeper connect string: cluster.zookeeper={}, error={}",
                    connectString,
                    e.getMessage());
        }
    }

    private void register(ZooKeeper session) {
        if (closed || session != zooKeeper) {
            return;
        }
        try {
            createParents(session);
            try {
                session.create(
                        registration.path(),
                        data,
                        ZooDefs.Ids.OPEN_ACL_UNSAFE,
                        CreateMode.EPHEMERAL);
            } catch (KeeperException.NodeExistsException e) {
                Stat stat = new Stat();
                byte[] existing = session.getData(registration.path(), false, stat);
                if (stat.getEphemeralOwner() != session.getSessionId()
                        || !Arrays.equals(existing, data)) {
                    // Left by this relay's previous process (its session not yet expired) or by a
                    // relay that had this endpoint before: this relay answers there now.
                    session.delete(registration.path(), stat.getVersion());
                    register(session);
                    return;
                }
            }
            registered = true;
            failedAttempts = 0;
            LOG.info(
                    "relay registered: path={}, endpoint={}, zooKeeper={}",
                    registration.path(),
                    registration.endpoint(),
                    connectString);
        } catch (KeeperException.ConnectionLossException | KeeperException.NoNodeException e) {
            retryLater(session);
        } catch (KeeperException.SessionExpiredException e) {
            submit(this::connect);
        } catch (KeeperException e) {
            LOG.warn(
                    "relay registration failed, trying again: path={}, error={}",
                    registration.path(),
                    e.getMessage());
            retryLater(session);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Tries again after a backoff, without holding the work thread meanwhile. */
    private void retryLater(ZooKeeper session) {
        if (closed) {
            return;
        }
        int attempt = failedAttempts + 1;
        failedAttempts = attempt;
        try {
            work.schedule(
                    () -> register(session), retryDelayMillis(attempt), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // Closed: nothing more to register.
        }
    }

    /** The wait before retry {@code attempt} (1 for the first). */
    static long retryDelayMillis(int attempt) {
        long delay = RETRY_FIRST.toMillis() << Math.min(attempt - 1, 20);
        return Math.min(delay, RETRY_MAX.toMillis());
    }

    private void createParents(ZooKeeper session) throws KeeperException, InterruptedException {
        String parent = registration.sourcePath();
        int next = 0;
        while (next >= 0) {
            next = parent.indexOf('/', next + 1);
            String prefix = next < 0 ? parent : parent.substring(0, next);
            try {
                session.create(
                        prefix, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            } catch (KeeperException.NodeExistsException e) {
                // Made by another relay, or earlier by this one.
            }
        }
    }

    private void closeHandle() {
        ZooKeeper previous = zooKeeper;
        zooKeeper = null;
        registered = false;
        if (previous != null) {
            try {
                previous.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Connection state of one handle, handed to the work thread. */
    private final class SessionWatcher implements Watcher {

        @Override
        public void process(WatchedEvent event) {
            if (event.getType() != Event.EventType.None || closed) {
                return;
            }
            switch (event.getState()) {
                case SyncConnected -> submit(this::registerIfCurrent);
                case Expired -> {
                    registered = false;
                    LOG.warn(
                            "relay's ZooKeeper session expired, registering again: path={}",
                            registration.path());
                    submit(RelayRegistrar.this::connect);
                }
                default -> {}
            }
        }

        private void registerIfCurrent() {
            ZooKeeper session = zooKeeper;
            if (session != null && !registered) {
                register(session);
            }
        }
    }
}

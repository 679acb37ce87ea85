package io.changegrid.relay.cluster;

import io.changegrid.config.Config;
import io.changegrid.policy.Policy;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.select.TablePattern;
import io.changegrid.protocol.RelayRegistration;
import io.changegrid.protocol.RelaySelection;
import io.changegrid.protocol.zookeeper.ZooKeeperChroot;
import io.changegrid.protocol.zookeeper.ZooKeeperCredentials;
import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import io.changegrid.protocol.zookeeper.ZooKeeperTls;
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
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a relay registered in ZooKeeper ({@link RelayRegistration}, the protocol module's record
 * that consumer groups read) for as long as it runs: the ephemeral node is made when a session is
 * established, made again in the new session after a session expiry (the protocol module's {@link
 * ZooKeeperSession}, the same client consumer groups use, replaces an expired one), and disappears
 * when the relay closes this or its session times out after a crash.
 *
 * <p>ZooKeeper is not needed to serve: the relay {@linkplain ZooKeeperSession#start starts} its
 * session without waiting, streams while ZooKeeper is down, and registers once it is reachable.
 *
 * <p>Threading: the session's event thread only hands work to one thread of the registrar's own
 * ({@code relay-registrar}), which makes every ZooKeeper call; a failed attempt is scheduled again
 * on it after a backoff rather than waited for there, so {@link #close} never waits for a retry.
 */
public final class RelayRegistrar implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RelayRegistrar.class);

    /** Waits between failed attempts: from half a second, doubling, to 8 s. */
    private static final Duration RETRY_FIRST = Duration.ofMillis(500);

    private static final Duration RETRY_MAX = Duration.ofSeconds(8);

    private final ZooKeeperSession session;
    private final RelayRegistration registration;
    private final byte[] data;
    private final ScheduledExecutorService work;
    private volatile boolean closed;
    private volatile long registeredSession; // the session id the node was made in; 0 for none
    private volatile int failedAttempts; // in a row; written on the work thread only
    private int round; // one per session, so a retry of an earlier session stops; work thread only

    private RelayRegistrar(ZooKeeperSession session, RelayRegistration registration) {
        this.session = session;
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

    /**
     * Starts keeping {@code registration} in the ZooKeeper at {@code connectString}, without
     * waiting for ZooKeeper.
     *
     * @throws IllegalArgumentException if the connect string is malformed
     */
    public static RelayRegistrar start(
            String connectString, Duration sessionTimeout, RelayRegistration registration) {
        return start(connectString, sessionTimeout, registration, null);
    }

    /**
     * As {@link #start(String, Duration, RelayRegistration)}, authenticated as the relays'
     * principal, whose registration nodes only it can write ({@link
     * io.changegrid.protocol.zookeeper.ZooKeeperAcls}).
     *
     * @param credentials the relays' digest credentials, or null for none
     */
    public static RelayRegistrar start(
            String connectString,
            Duration sessionTimeout,
            RelayRegistration registration,
            ZooKeeperCredentials credentials) {
        return start(connectString, sessionTimeout, registration, credentials, ZooKeeperTls.NONE);
    }

    /**
     * As {@link #start(String, Duration, RelayRegistration, ZooKeeperCredentials)}, connecting over
     * TLS when {@code tls} is enabled.
     */
    public static RelayRegistrar start(
            String connectString,
            Duration sessionTimeout,
            RelayRegistration registration,
            ZooKeeperCredentials credentials,
            ZooKeeperTls tls) {
        ZooKeeperSession session =
                ZooKeeperSession.start(connectString, sessionTimeout, credentials, tls);
        RelayRegistrar registrar = new RelayRegistrar(session, registration);
        session.onEverySession(() -> registrar.submit(registrar::sessionStarted));
        return registrar;
    }

    /**
     * Registers a relay as its settings say ({@code cluster.*}) with what it captures (its capture
     * filter and plan), once its HTTP API listens on {@code httpPort}.
     *
     * @return the registrar, or null when {@code cluster.zookeeper} is empty or malformed (logged:
     *     the relay serves without registering, as it does while ZooKeeper is down)
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
            String scheme = RelaySettings.HTTP_TLS.read(config).hasKey() ? "https" : "http";
            endpoint = scheme + "://" + host + ":" + httpPort;
        }
        if (endpoint.endsWith("/")) {
            endpoint = endpoint.substring(0, endpoint.length() - 1);
        }
        RelayRegistration registration =
                new RelayRegistration(
                        config.get(RelaySettings.SOURCE_ID),
                        endpoint,
                        config.get(RelaySettings.CAPTURE_INCLUDE),
                        config.get(RelaySettings.CAPTURE_EXCLUDE),
                        configuration.plan().partition(),
                        configuration.plan().partitions(),
                        selections(configuration.plan()));
        try {
            return start(
                    zooKeeper,
                    config.get(RelaySettings.CLUSTER_SESSION_TIMEOUT),
                    registration,
                    ZooKeeperCredentials.of(
                            config.get(RelaySettings.CLUSTER_AUTH.user()),
                            config.get(RelaySettings.CLUSTER_AUTH.password())),
                    ZooKeeperTls.read(config));
        } catch (IllegalArgumentException e) {
            LOG.error(
                    "relay not registered, bad ZooKeeper connect string: cluster.zookeeper={}, error={}",
                    zooKeeper,
                    e.getMessage());
            return null;
        }
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

    /** Whether the node was made in the current session, as far as this registrar knows. */
    public boolean isRegistered() {
        long made = registeredSession;
        return made != 0 && made == session.sessionId();
    }

    public RelayRegistration registration() {
        return registration;
    }

    /** The session the node is kept in; tests expire it as a server would. */
    ZooKeeperSession session() {
        return session;
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
            if (!work.awaitTermination(
                    session.sessionTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn(
                        "relay registrar's thread did not stop, closing its session anyway: path={}",
                        registration.path());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        registeredSession = 0;
        session.close();
        LOG.info("relay unregistered: path={}", registration.path());
    }

    private void submit(Runnable task) {
        try {
            work.execute(task);
        } catch (RejectedExecutionException e) {
            // Closed: nothing more to register.
        }
    }

    /** A session was established (the first, or one after an expiry): register in it. */
    private void sessionStarted() {
        round++;
        failedAttempts = 0;
        register(round);
    }

    private void register(int attemptRound) {
        if (closed || attemptRound != round) {
            return;
        }
        try {
            registeredSession = session.attempt(this::createNode);
            failedAttempts = 0;
            LOG.info(
                    "relay registered: path={}, endpoint={}, zooKeeper={}",
                    registration.path(),
                    registration.endpoint(),
                    session.connectString());
        } catch (KeeperException.NoNodeException e) {
            createChroot(); // a fresh ensemble: nothing under the connect string's chroot yet
            retryLater(attemptRound);
        } catch (KeeperException.ConnectionLossException e) {
            retryLater(attemptRound);
        } catch (KeeperException.SessionExpiredException e) {
            // The session opens a new one, and registering in it starts another round.
            LOG.warn(
                    "relay's ZooKeeper session expired, registering again: path={}",
                    registration.path());
        } catch (KeeperException e) {
            LOG.warn(
                    "relay registration failed, trying again: path={}, error={}",
                    registration.path(),
                    e.getMessage());
            retryLater(attemptRound);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // A task of the work thread's executor would swallow it: say it, and keep trying.
            LOG.error("relay registration failed, trying again: path={}", registration.path(), e);
            retryLater(attemptRound);
        }
    }

    /**
     * Makes the ephemeral node in {@code zooKeeper}'s session, replacing a node another session
     * left there.
     *
     * @return the session id the node belongs to
     */
    private long createNode(ZooKeeper zooKeeper) throws KeeperException, InterruptedException {
        createParents(zooKeeper);
        while (true) {
            try {
                zooKeeper.create(
                        registration.path(),
                        data,
                        session.acl(registration.path()),
                        CreateMode.EPHEMERAL);
                return zooKeeper.getSessionId();
            } catch (KeeperException.NodeExistsException e) {
                Stat stat = new Stat();
                byte[] existing = zooKeeper.getData(registration.path(), false, stat);
                if (stat.getEphemeralOwner() == zooKeeper.getSessionId()
                        && Arrays.equals(existing, data)) {
                    return zooKeeper.getSessionId();
                }
                // Left by this relay's previous process (its session not yet expired) or by a
                // relay that had this endpoint before: this relay answers there now.
                zooKeeper.delete(registration.path(), stat.getVersion());
            }
        }
    }

    private void createChroot() {
        String connectString = session.connectString();
        try {
            if (ZooKeeperChroot.create(
                    connectString,
                    session.sessionTimeout(),
                    session.credentials(),
                    session.tls())) {
                LOG.info("ZooKeeper chroot present: {}", ZooKeeperChroot.of(connectString));
            }
        } catch (IOException | KeeperException e) {
            LOG.warn(
                    "relay cannot create its ZooKeeper chroot, trying again: chroot={}, error={}",
                    ZooKeeperChroot.of(connectString),
                    e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closing
        }
    }

    /** Tries again after a backoff, without holding the work thread meanwhile. */
    private void retryLater(int attemptRound) {
        if (closed) {
            return;
        }
        int attempt = failedAttempts + 1;
        failedAttempts = attempt;
        try {
            work.schedule(
                    () -> register(attemptRound), retryDelayMillis(attempt), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // Closed: nothing more to register.
        }
    }

    /** The wait before retry {@code attempt} (1 for the first). */
    static long retryDelayMillis(int attempt) {
        long delay = RETRY_FIRST.toMillis() << Math.min(attempt - 1, 20);
        return Math.min(delay, RETRY_MAX.toMillis());
    }

    private void createParents(ZooKeeper zooKeeper) throws KeeperException, InterruptedException {
        String parent = registration.sourcePath();
        int next = 0;
        while (next >= 0) {
            next = parent.indexOf('/', next + 1);
            String prefix = next < 0 ? parent : parent.substring(0, next);
            try {
                zooKeeper.create(prefix, new byte[0], session.acl(prefix), CreateMode.PERSISTENT);
            } catch (KeeperException.NodeExistsException e) {
                // Made by another relay, or earlier by this one.
            }
        }
    }
}

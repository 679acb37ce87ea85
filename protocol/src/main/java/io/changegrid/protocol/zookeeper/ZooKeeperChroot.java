package io.changegrid.protocol.zookeeper;

import java.io.IOException;
import java.time.Duration;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * The chroot of a connect string ({@code zk1:2181,zk2:2181/changegrid}), which ZooKeeper does not
 * create: a client whose chroot is missing gets NoNode for every node it makes, so relays would
 * never register and a consumer group would never be set up on a fresh ensemble. Relays and group
 * members create it, as Kafka does its own, over a session without the chroot.
 */
public final class ZooKeeperChroot {

    private ZooKeeperChroot() {}

    /** The chroot path of {@code connectString}, or the empty string if it has none. */
    public static String of(String connectString) {
        int slash = connectString.indexOf('/');
        if (slash < 0) {
            return "";
        }
        String chroot = connectString.substring(slash);
        return chroot.equals("/") ? "" : chroot;
    }

    /**
     * Creates the chroot of {@code connectString} and its missing parents as persistent empty nodes
     * that every principal may create children under ({@link ZooKeeperAcls#shared}); does nothing
     * if it has none or they exist.
     *
     * @param credentials the creating relay's or member's digest credentials, or null for none
     * @return whether the connect string has a chroot
     * @throws IOException if no server answered within {@code timeout}
     */
    public static boolean create(
            String connectString, Duration timeout, ZooKeeperCredentials credentials)
            throws IOException, KeeperException, InterruptedException {
        return create(connectString, timeout, credentials, ZooKeeperTls.NONE);
    }

    /** As {@link #create(String, Duration, ZooKeeperCredentials)}, over TLS when enabled. */
    public static boolean create(
            String connectString,
            Duration timeout,
            ZooKeeperCredentials credentials,
            ZooKeeperTls tls)
            throws IOException, KeeperException, InterruptedException {
        String chroot = of(connectString);
        if (chroot.isEmpty()) {
            return false;
        }
        String servers = connectString.substring(0, connectString.indexOf('/'));
        try (ZooKeeperSession session = ZooKeeperSession.open(servers, timeout, credentials, tls)) {
            int next = 0;
            while (next >= 0) {
                next = chroot.indexOf('/', next + 1);
                String prefix = next < 0 ? chroot : chroot.substring(0, next);
                try {
                    session.call(
                            zk ->
                                    zk.create(
                                            prefix,
                                            new byte[0],
                                            ZooKeeperAcls.shared(credentials),
                                            CreateMode.PERSISTENT));
                } catch (KeeperException.NodeExistsException e) {
                    // Made by another relay or member, or earlier: it is there.
                }
            }
        }
        return true;
    }
}

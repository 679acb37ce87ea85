package io.changegrid.consumer.group.zookeeper;

import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * Expires a session the way a server does after a long pause: another client attaches to the
 * session with its id and password, then closes it.
 */
public final class SessionExpiry {

    private SessionExpiry() {}

    public static void expire(ZooKeeperSession session) throws Exception {
        long id = session.call(ZooKeeper::getSessionId);
        byte[] password = session.call(ZooKeeper::getSessionPasswd);
        CountDownLatch attached = new CountDownLatch(1);
        ZooKeeper intruder =
                new ZooKeeper(
                        session.connectString(),
                        4_000,
                        event -> {
                            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                                attached.countDown();
                            }
                        },
                        id,
                        password);
        try {
            if (!attached.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException(
                        "could not attach to the session: sessionId=0x" + Long.toHexString(id));
            }
        } finally {
            intruder.close();
        }
    }
}

package io.changegrid.protocol.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A principal's ZooKeeper {@code digest} credentials: one per role, shared by the relays of a grid
 * and by the members of one consumer group (see {@link ZooKeeperAcls} and docs/security.md).
 *
 * @param user the digest user name (no {@code :})
 * @param password its password; never printed
 */
public record ZooKeeperCredentials(String user, String password) {

    /** ZooKeeper's built-in user/password scheme. */
    public static final String SCHEME = "digest";

    public ZooKeeperCredentials {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        if (user.isEmpty() || user.contains(":")) {
            throw new IllegalArgumentException(
                    "bad ZooKeeper user: value=" + user + ": non-empty, without ':'");
        }
    }

    /**
     * The credentials a component's settings give, or null when the user is empty (ZooKeeper
     * without authentication, nodes open as before).
     */
    public static ZooKeeperCredentials of(String user, String password) {
        return user == null || user.isBlank() ? null : new ZooKeeperCredentials(user, password);
    }

    /** What {@code addAuthInfo("digest", ...)} takes: {@code user:password}. */
    byte[] authInfo() {
        return (user + ":" + password).getBytes(StandardCharsets.UTF_8);
    }

    /** Masks the password. */
    @Override
    public String toString() {
        return "ZooKeeperCredentials[user=" + user + ", password=****]";
    }
}

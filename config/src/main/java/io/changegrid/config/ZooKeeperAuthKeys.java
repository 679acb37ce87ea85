package io.changegrid.config;

import java.util.List;

/**
 * The ZooKeeper credentials of a relay or a consumer-group member, {@code cluster.zookeeperUser}
 * and {@code cluster.zookeeperPassword}: defined once for both programs, which share the ACL rules
 * (the protocol module's {@code ZooKeeperAcls}).
 *
 * @param user the digest user setting (empty: no authentication)
 * @param password the password setting (secret; best a {@code ${file:...}} reference)
 */
public record ZooKeeperAuthKeys(ConfigKey<String> user, ConfigKey<String> password) {

    /** The keys, documented for {@code role} (e.g. {@code the relays}). */
    public static ZooKeeperAuthKeys forRole(String role) {
        return new ZooKeeperAuthKeys(
                ConfigKey.of(
                                "cluster.zookeeperUser",
                                ValueKind.STRING,
                                "",
                                "ZooKeeper digest user of "
                                        + role
                                        + ": the nodes made are then writable by that user only and"
                                        + " readable by all (docs/security.md). Empty: no"
                                        + " authentication, open nodes.")
                        .validatedBy(v -> !v.contains(":"), "without ':'"),
                ConfigKey.of(
                                "cluster.zookeeperPassword",
                                ValueKind.STRING,
                                "",
                                "Password of cluster.zookeeperUser; best a ${file:/path} or"
                                        + " ${env:NAME} reference.")
                        .asSecret());
    }

    /** Both keys, in documentation order. */
    public List<ConfigKey<?>> list() {
        return List.of(user, password);
    }
}

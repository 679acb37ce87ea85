package io.changegrid.protocol.zookeeper;

import io.changegrid.protocol.RelayRegistration;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;

/**
 * The ACL of every node the grid creates itself, decided in one place.
 *
 * <p>Without credentials every node is open ({@code world:anyone}, all permissions), as before.
 * With credentials a node belongs to the principal that made it (all permissions for its {@code
 * digest} identity, named explicitly) and anyone may read it: relays' registrations are written by
 * the relays' principal, a group's checkpoints and epochs by that group's principal, and consumers
 * read registrations without the relays' credentials. The shared roots ({@code /changegrid}, {@code
 * /changegrid/relays}, {@code /changegrid/groups}) also let anyone create children, so that the
 * first relay and each group can make their own subtree whoever made the root; a subtree, once
 * made, is its creator's.
 *
 * <p>Why not the {@code auth} scheme ({@code CREATOR_ALL_ACL}): it grants every identity the
 * creating session holds, and a session over TLS also holds its client certificate's ({@code
 * x509}). Components that share a certificate (or a CA-issued name) would then share every node,
 * whatever their digest users; {@code SecureLocalClusterIT} caught a client without the group's
 * password rewriting a checkpoint that way.
 *
 * <p>Reads are limited to authenticated clients by the server, not by these ACLs: {@code
 * enforceAuthEnabled=true} with {@code enforce.auth.schemes=digest} (docs/security.md).
 */
public final class ZooKeeperAcls {

    /** Roots every principal may create children under. */
    static final Set<String> SHARED_ROOTS =
            Set.of("/changegrid", RelayRegistration.RELAYS_ROOT, "/changegrid/groups");

    private static final Id ANYONE = ZooDefs.Ids.ANYONE_ID_UNSAFE;

    private ZooKeeperAcls() {}

    /**
     * The ACL to create {@code path} with.
     *
     * @param credentials the creating session's, or null for none
     */
    public static List<ACL> forPath(String path, ZooKeeperCredentials credentials) {
        if (credentials == null) {
            return ZooDefs.Ids.OPEN_ACL_UNSAFE;
        }
        return acl(
                credentials,
                SHARED_ROOTS.contains(path)
                        ? ZooDefs.Perms.READ | ZooDefs.Perms.CREATE
                        : ZooDefs.Perms.READ);
    }

    /**
     * The ACL of a node every principal may create children under: a connect string's chroot and
     * its parents, made by whichever relay or member comes first ({@link ZooKeeperChroot}).
     *
     * @param credentials the creating session's, or null for none
     */
    public static List<ACL> shared(ZooKeeperCredentials credentials) {
        return credentials == null
                ? ZooDefs.Ids.OPEN_ACL_UNSAFE
                : acl(credentials, ZooDefs.Perms.READ | ZooDefs.Perms.CREATE);
    }

    /** All for the credentials' digest identity, {@code others} for anyone. */
    private static List<ACL> acl(ZooKeeperCredentials credentials, int others) {
        // Not List.of: the client's ACL check calls contains(null), which List.of refuses (NPE).
        return Collections.unmodifiableList(
                Arrays.asList(
                        new ACL(ZooDefs.Perms.ALL, digest(credentials)), new ACL(others, ANYONE)));
    }

    /** {@code digest:user:base64(sha1(user:password))}, as the server derives it at login. */
    static Id digest(ZooKeeperCredentials credentials) {
        try {
            return new Id(
                    ZooKeeperCredentials.SCHEME,
                    DigestAuthenticationProvider.generateDigest(
                            credentials.user() + ":" + credentials.password()));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(
                    "ZooKeeper digest algorithm missing: user=" + credentials.user(), e);
        }
    }
}

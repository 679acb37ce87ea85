package io.changegrid.testkit;

import io.changegrid.gridkit.server.EmbeddedZooKeeper;

/**
 * JUnit 5 extension that gives a test class one {@link EmbeddedZooKeeper}, started before its first
 * test and removed after its last, also when tests fail.
 *
 * <pre>{@code
 * class ClusterMembershipIT {
 *     @RegisterExtension
 *     static final EmbeddedZooKeeperExtension ZOOKEEPER = new EmbeddedZooKeeperExtension();
 *
 *     @Test
 *     void shouldJoinClusterWhenRelayStarts() {
 *         var relay = Relay.start(ZOOKEEPER.zooKeeper().connectString(), ...);
 *     }
 * }
 * }</pre>
 */
public final class EmbeddedZooKeeperExtension extends ClassScopedFixture<EmbeddedZooKeeper> {

    /** One in-process ZooKeeper per test class. */
    public EmbeddedZooKeeperExtension() {
        super(EmbeddedZooKeeper.class);
    }

    @Override
    protected EmbeddedZooKeeper start() {
        return EmbeddedZooKeeper.start();
    }

    /**
     * The running server.
     *
     * @throws IllegalStateException before the class's {@code @BeforeAll} phase
     */
    public EmbeddedZooKeeper zooKeeper() {
        return fixture();
    }
}

package io.changegrid.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.testcontainers.DockerClientFactory;

/**
 * Whether Testcontainers can reach a Docker engine, and if not, a reason a person can act on.
 *
 * <p>Testcontainers caches its answer for the JVM, so asking again is cheap.
 */
final class DockerEngine {
    private static final Path DEFAULT_SOCKET = Path.of("/var/run/docker.sock");

    private DockerEngine() {}

    /** Empty when a Docker engine answers; otherwise why not, in a form for a skip message. */
    static Optional<String> unavailableReason() {
        if (DockerClientFactory.instance().isDockerAvailable()) {
            return Optional.empty();
        }
        var dockerHost = System.getenv("DOCKER_HOST");
        var socket =
                Files.exists(DEFAULT_SOCKET)
                        ? DEFAULT_SOCKET + " exists but no engine answered"
                        : DEFAULT_SOCKET + " absent";
        return Optional.of(
                "no Docker engine reachable (DOCKER_HOST="
                        + (dockerHost == null ? "unset" : dockerHost)
                        + ", "
                        + socket
                        + ")");
    }
}

package io.changegrid.console.http;

import io.changegrid.protocol.security.AccessEntry;
import io.changegrid.protocol.security.AccessFile;
import io.changegrid.protocol.security.Principal;
import io.changegrid.protocol.security.RequestAuthenticator;
import io.changegrid.protocol.security.SecurityConfig;
import io.changegrid.protocol.security.SecuritySettings;
import io.changegrid.protocol.tls.ClientAuth;
import io.changegrid.protocol.tls.FileWatcher;
import io.changegrid.protocol.tls.HttpsConnectors;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Who may use the console: a principal recognized by the grid's {@link RequestAuthenticator} (a
 * token of {@code security.tokens}, a client certificate, or anonymous when allowed) and, when an
 * access file is configured, holding its operations role ({@code operations: true}) — the same
 * files and rules as a relay's {@code /v1/status}. Without an access file every recognized
 * principal may use it, as on a relay.
 *
 * <p>Thread-safe: the files' contents are swapped in whole by their watchers' threads.
 */
public final class OperatorAccess {

    private final RequestAuthenticator authenticator;
    private final Path accessFile;
    private volatile AccessFile access;

    private OperatorAccess(RequestAuthenticator authenticator, Path accessFile) {
        this.authenticator = authenticator;
        this.accessFile = accessFile;
        this.access = accessFile == null ? null : AccessFile.read(accessFile);
    }

    /**
     * The access {@code security} describes, its files read once now.
     *
     * @param clientAuth whether the console's TLS asks for client certificates
     * @throws IOException naming a token file that cannot be read
     * @throws io.changegrid.config.ConfigException listing the access file's problems
     */
    public static OperatorAccess from(SecurityConfig security, ClientAuth clientAuth)
            throws IOException {
        return new OperatorAccess(
                RequestAuthenticator.from(security, clientAuth), security.access());
    }

    /** Everyone, anonymous: a console on a trusted address (tests, the quickstart). */
    public static OperatorAccess open() {
        return new OperatorAccess(RequestAuthenticator.open(), null);
    }

    /** Whether anyone is asked for credentials (tokens or client certificates). */
    public boolean authenticates() {
        return authenticator.authenticates();
    }

    /** Recognizes requests. */
    RequestAuthenticator authenticator() {
        return authenticator;
    }

    /** Whether {@code principal} may read the grid and operate it. */
    boolean mayOperate(Principal principal) {
        AccessFile now = access;
        if (now == null) {
            return true;
        }
        AccessEntry entry = now.entry(principal.name());
        return entry != null && entry.operations();
    }

    /** Watchers that re-read the token and access files when they change. */
    List<FileWatcher> watchers() {
        List<FileWatcher> watchers = new ArrayList<>(authenticator.watchers());
        if (accessFile != null) {
            watchers.add(
                    new FileWatcher(
                            SecuritySettings.ACCESS.path(),
                            List.of(accessFile),
                            HttpsConnectors.RELOAD_INTERVAL,
                            () -> access = AccessFile.read(accessFile)));
        }
        return watchers;
    }
}

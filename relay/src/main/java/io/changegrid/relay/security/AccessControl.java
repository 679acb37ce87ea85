package io.changegrid.relay.security;

import io.changegrid.config.Config;
import io.changegrid.protocol.security.Authentication;
import io.changegrid.protocol.security.Principal;
import io.changegrid.protocol.security.RequestAuthenticator;
import io.changegrid.protocol.security.SecurityConfig;
import io.changegrid.protocol.security.SecuritySettings;
import io.changegrid.protocol.tls.FileWatcher;
import io.changegrid.protocol.tls.HttpsConnectors;
import io.changegrid.relay.config.RelaySettings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.server.Request;

/**
 * Who a request comes from and what it may do: the relay's token file ({@link
 * RequestAuthenticator}, shared with the console) and access file, each re-read when it changes
 * ({@link #watchers}), and the rules of {@code security.*}.
 *
 * <p>Thread-safe: the files' current contents are swapped in whole by the watchers' threads and
 * read without locks by request threads.
 */
public final class AccessControl {

    private final RequestAuthenticator authenticator;
    private final Path accessFile;
    private volatile AccessRules rules;

    private AccessControl(RequestAuthenticator authenticator, Path accessFile) {
        this.authenticator = authenticator;
        this.accessFile = accessFile;
        this.rules = accessFile == null ? AccessRules.everything() : AccessRules.read(accessFile);
    }

    /**
     * The access control a relay's settings describe, its files read once now.
     *
     * @throws IOException naming a file that cannot be read
     * @throws io.changegrid.config.ConfigException listing the access file's problems
     */
    public static AccessControl from(Config config) throws IOException {
        SecurityConfig security = SecuritySettings.read(config);
        return new AccessControl(
                RequestAuthenticator.from(
                        security, config.get(RelaySettings.HTTP_TLS.clientAuthKey())),
                security.access());
    }

    /** No security: everyone anonymous, allowed everything (embedded relays and tests). */
    public static AccessControl open() {
        return new AccessControl(RequestAuthenticator.open(), null);
    }

    /** Whether anyone is authenticated at all (tokens or client certificates may be shown). */
    public boolean authenticates() {
        return authenticator.authenticates();
    }

    /** Whether requests that show nothing are served. */
    public boolean anonymousAllowed() {
        return authenticator.anonymousAllowed();
    }

    /**
     * Watchers that re-read the token and access files when they change; start them with the
     * server.
     */
    public List<FileWatcher> watchers() {
        List<FileWatcher> watchers = new ArrayList<>(authenticator.watchers());
        if (accessFile != null) {
            watchers.add(
                    new FileWatcher(
                            SecuritySettings.ACCESS.path(),
                            List.of(accessFile),
                            HttpsConnectors.RELOAD_INTERVAL,
                            () -> rules = AccessRules.read(accessFile)));
        }
        return watchers;
    }

    /** Recognizes the request's principal: its token, else its certificate, else anonymous. */
    public Authentication authenticate(Request request) {
        return authenticator.authenticate(request);
    }

    /** What the principal may do, by the access file as it is now. */
    public Grant grant(Principal principal) {
        return rules.grant(principal.name());
    }
}

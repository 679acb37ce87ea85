package io.changegrid.relay.security;

import io.changegrid.config.Config;
import io.changegrid.protocol.tls.ClientAuth;
import io.changegrid.protocol.tls.FileWatcher;
import io.changegrid.protocol.tls.HttpsConnectors;
import io.changegrid.relay.config.CertificatePrincipal;
import io.changegrid.relay.config.RelaySettings;
import java.io.IOException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Request;

/**
 * Who a request comes from and what it may do: the relay's token file and access file, each re-read
 * when it changes ({@link #watchers}), and the rules of {@code security.*}. A request is recognized
 * by its bearer token first, then by its TLS client certificate, else it is anonymous if that is
 * allowed ({@link AnonymousAccess}).
 *
 * <p>Thread-safe: the files' current contents are swapped in whole by the watchers' threads and
 * read without locks by request threads.
 */
public final class AccessControl {

    /** The outcome of recognizing a request: a principal, or why there is none. */
    public record Authentication(Principal principal, String refusal) {}

    private final Path tokensFile;
    private final Path accessFile;
    private final boolean anonymousAllowed;
    private final CertificatePrincipal certificateName;
    private volatile TokenTable tokens;
    private volatile AccessRules rules;

    private AccessControl(
            Path tokensFile,
            Path accessFile,
            boolean anonymousAllowed,
            CertificatePrincipal certificateName)
            throws IOException {
        this.tokensFile = tokensFile;
        this.accessFile = accessFile;
        this.anonymousAllowed = anonymousAllowed;
        this.certificateName = certificateName;
        this.tokens = tokensFile == null ? TokenTable.EMPTY : TokenTable.read(tokensFile);
        this.rules = accessFile == null ? AccessRules.everything() : AccessRules.read(accessFile);
    }

    /**
     * The access control a relay's settings describe, its files read once now.
     *
     * @throws IOException naming a file that cannot be read
     * @throws io.changegrid.config.ConfigException listing the access file's problems
     */
    public static AccessControl from(Config config) throws IOException {
        Path tokens = path(config.get(RelaySettings.SECURITY_TOKENS));
        Path access = path(config.get(RelaySettings.SECURITY_ACCESS));
        ClientAuth clientAuth = config.get(RelaySettings.HTTP_TLS.clientAuthKey());
        boolean authenticates = tokens != null || clientAuth != ClientAuth.NONE;
        boolean anonymous =
                switch (config.get(RelaySettings.SECURITY_ANONYMOUS)) {
                    case AUTO -> !authenticates;
                    case ALLOW -> true;
                    case DENY -> false;
                };
        return new AccessControl(
                tokens,
                access,
                anonymous,
                config.get(RelaySettings.SECURITY_CERTIFICATE_PRINCIPAL));
    }

    /** No security: everyone anonymous, allowed everything (embedded relays and tests). */
    public static AccessControl open() {
        try {
            return new AccessControl(null, null, true, CertificatePrincipal.CN);
        } catch (IOException e) {
            throw new IllegalStateException("no file is read", e);
        }
    }

    /** Whether anyone is authenticated at all (tokens or client certificates may be shown). */
    public boolean authenticates() {
        return tokensFile != null || !anonymousAllowed;
    }

    /** Whether requests that show nothing are served. */
    public boolean anonymousAllowed() {
        return anonymousAllowed;
    }

    /**
     * Watchers that re-read the token and access files when they change; start them with the
     * server.
     */
    public List<FileWatcher> watchers() {
        List<FileWatcher> watchers = new ArrayList<>();
        if (tokensFile != null) {
            watchers.add(
                    new FileWatcher(
                            RelaySettings.SECURITY_TOKENS.path(),
                            List.of(tokensFile),
                            HttpsConnectors.RELOAD_INTERVAL,
                            () -> tokens = TokenTable.read(tokensFile)));
        }
        if (accessFile != null) {
            watchers.add(
                    new FileWatcher(
                            RelaySettings.SECURITY_ACCESS.path(),
                            List.of(accessFile),
                            HttpsConnectors.RELOAD_INTERVAL,
                            () -> rules = AccessRules.read(accessFile)));
        }
        return watchers;
    }

    /** Recognizes the request's principal: its token, else its certificate, else anonymous. */
    public Authentication authenticate(Request request) {
        String authorization = request.getHeaders().get(HttpHeader.AUTHORIZATION);
        if (authorization != null) {
            if (!authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
                return new Authentication(
                        null,
                        "unsupported Authorization scheme; send Authorization: Bearer <token>");
            }
            String principal = tokens.principalOf(authorization.substring(7).trim());
            return principal == null
                    ? new Authentication(null, "unknown bearer token")
                    : new Authentication(new Principal(principal, Principal.By.TOKEN), null);
        }
        if (request.getAttribute(EndPoint.SslSessionData.ATTRIBUTE)
                        instanceof EndPoint.SslSessionData tls
                && tls.peerCertificates() != null
                && tls.peerCertificates().length > 0) {
            X509Certificate leaf = tls.peerCertificates()[0];
            String name = CertificateNames.principal(leaf, certificateName);
            return name == null
                    ? new Authentication(
                            null,
                            "client certificate names no principal: subject="
                                    + leaf.getSubjectX500Principal().getName()
                                    + ", "
                                    + RelaySettings.SECURITY_CERTIFICATE_PRINCIPAL.path()
                                    + "="
                                    + certificateName.name().toLowerCase(java.util.Locale.ROOT))
                    : new Authentication(new Principal(name, Principal.By.CERTIFICATE), null);
        }
        return anonymousAllowed
                ? new Authentication(Principal.ANONYMOUS, null)
                : new Authentication(
                        null,
                        "no credentials: send Authorization: Bearer <token> or a client certificate");
    }

    /** What the principal may do, by the access file as it is now. */
    public Grant grant(Principal principal) {
        return rules.grant(principal.name());
    }

    private static Path path(String text) {
        return text == null || text.isBlank() ? null : Path.of(text.trim());
    }
}

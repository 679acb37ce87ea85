package io.changegrid.protocol.security;

import io.changegrid.protocol.tls.ClientAuth;
import io.changegrid.protocol.tls.FileWatcher;
import io.changegrid.protocol.tls.HttpsConnectors;
import java.io.IOException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Locale;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Request;

/**
 * Who a request to one of the grid's servers comes from (a relay's API, the console): its bearer
 * token first ({@code Authorization: Bearer}, looked up in the token file), then its TLS client
 * certificate's name, else anonymous when that is allowed ({@link AnonymousAccess}). The one seam
 * every server authenticates through; what a principal may then do is each server's own rule.
 *
 * <p>Thread-safe: the token file's contents are swapped in whole by its watcher's thread ({@link
 * #watchers}) and read without locks by request threads.
 */
public final class RequestAuthenticator {

    private final Path tokensFile;
    private final boolean anonymousAllowed;
    private final CertificatePrincipal certificateName;
    private volatile TokenTable tokens;

    private RequestAuthenticator(
            Path tokensFile, boolean anonymousAllowed, CertificatePrincipal certificateName)
            throws IOException {
        this.tokensFile = tokensFile;
        this.anonymousAllowed = anonymousAllowed;
        this.certificateName = certificateName;
        this.tokens = tokensFile == null ? TokenTable.EMPTY : TokenTable.read(tokensFile);
    }

    /**
     * The authenticator a server's settings describe, its token file read once now.
     *
     * @param clientAuth whether the server's TLS asks for client certificates
     * @throws IOException naming a token file that cannot be read
     */
    public static RequestAuthenticator from(SecurityConfig security, ClientAuth clientAuth)
            throws IOException {
        boolean authenticates = security.tokens() != null || clientAuth != ClientAuth.NONE;
        boolean anonymous =
                switch (security.anonymous()) {
                    case AUTO -> !authenticates;
                    case ALLOW -> true;
                    case DENY -> false;
                };
        return new RequestAuthenticator(
                security.tokens(), anonymous, security.certificatePrincipal());
    }

    /** Nobody is asked for anything: every request is anonymous (embedded servers and tests). */
    public static RequestAuthenticator open() {
        try {
            return new RequestAuthenticator(null, true, CertificatePrincipal.CN);
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

    /** A watcher that re-reads the token file when it changes; start it with the server. */
    public List<FileWatcher> watchers() {
        if (tokensFile == null) {
            return List.of();
        }
        return List.of(
                new FileWatcher(
                        SecuritySettings.TOKENS.path(),
                        List.of(tokensFile),
                        HttpsConnectors.RELOAD_INTERVAL,
                        () -> tokens = TokenTable.read(tokensFile)));
    }

    /** Recognizes the request's principal: its token, else its certificate, else anonymous. */
    public Authentication authenticate(Request request) {
        String authorization = request.getHeaders().get(HttpHeader.AUTHORIZATION);
        if (authorization != null) {
            if (!authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
                return Authentication.refused(
                        "unsupported Authorization scheme; send Authorization: Bearer <token>");
            }
            String principal = tokens.principalOf(authorization.substring(7).trim());
            return principal == null
                    ? Authentication.refused("unknown bearer token")
                    : Authentication.of(new Principal(principal, Principal.By.TOKEN));
        }
        if (request.getAttribute(EndPoint.SslSessionData.ATTRIBUTE)
                        instanceof EndPoint.SslSessionData tls
                && tls.peerCertificates() != null
                && tls.peerCertificates().length > 0) {
            X509Certificate leaf = tls.peerCertificates()[0];
            String name = CertificateNames.principal(leaf, certificateName);
            return name == null
                    ? Authentication.refused(
                            "client certificate names no principal: subject="
                                    + leaf.getSubjectX500Principal().getName()
                                    + ", "
                                    + SecuritySettings.CERTIFICATE_PRINCIPAL.path()
                                    + "="
                                    + certificateName.name().toLowerCase(Locale.ROOT))
                    : Authentication.of(new Principal(name, Principal.By.CERTIFICATE));
        }
        return anonymousAllowed
                ? Authentication.of(Principal.ANONYMOUS)
                : Authentication.refused(
                        "no credentials: send Authorization: Bearer <token> or a client certificate");
    }
}

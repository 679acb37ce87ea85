package io.changegrid.relay.security;

import io.changegrid.config.Config;
import io.changegrid.protocol.security.Listening;
import io.changegrid.protocol.tls.ClientAuth;
import io.changegrid.protocol.tls.TlsConfig;
import io.changegrid.relay.config.RelaySettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The warnings a relay gives at start about how exposed its HTTP API is: reachable from other
 * machines with neither tokens nor client certificates (anyone who reaches the port reads every
 * table), or with tokens sent in clear text.
 */
public final class RelayExposure {

    private static final Logger LOG = LoggerFactory.getLogger(RelayExposure.class);

    private RelayExposure() {}

    /** Logs a WARN for each exposure of the relay's settings; returns how many. */
    public static int warnIfOpen(Config config) {
        String host = config.get(RelaySettings.HTTP_HOST);
        TlsConfig tls = RelaySettings.HTTP_TLS.read(config);
        boolean tokens = !config.get(RelaySettings.SECURITY_TOKENS).isBlank();
        boolean certificates = tls.clientAuth() != ClientAuth.NONE;
        int warnings = 0;
        if (!Listening.isLoopback(host) && !tokens && !certificates) {
            LOG.warn(
                    "!!! INSECURE: the relay's HTTP API listens on a non-loopback address without"
                            + " authentication: {}={}, {} and {}.clientAuth unset; anyone who reaches the"
                            + " port can read every captured table. See docs/security.md.",
                    RelaySettings.HTTP_HOST.path(),
                    host,
                    RelaySettings.SECURITY_TOKENS.path(),
                    RelaySettings.HTTP_TLS.prefix());
            warnings++;
        }
        if (tokens && !tls.hasKey() && !Listening.isLoopback(host)) {
            LOG.warn(
                    "!!! INSECURE: bearer tokens are configured but {}.* is not: tokens and data cross"
                            + " the network in clear text: {}={}",
                    RelaySettings.HTTP_TLS.prefix(),
                    RelaySettings.HTTP_HOST.path(),
                    host);
            warnings++;
        }
        return warnings;
    }
}

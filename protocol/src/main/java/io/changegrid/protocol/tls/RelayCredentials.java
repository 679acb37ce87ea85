package io.changegrid.protocol.tls;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigKey;
import io.changegrid.config.ValueKind;
import java.util.ArrayList;
import java.util.List;

/**
 * How a client proves itself to relays and checks them: TLS files ({@code relay.tls.*}, for {@code
 * https://} relays and mutual TLS) and a bearer token ({@code relay.token}). Defined once here; the
 * consumer, a consumer group's members, the appliers and the CLI put {@link #KEYS} into their own
 * schemas and read them back with {@link #read}. Immutable.
 *
 * @param tls the trust store and the optional client certificate
 * @param bearerToken sent as {@code Authorization: Bearer <token>} with every request, or empty
 */
public record RelayCredentials(TlsConfig tls, String bearerToken) {

    /** Plain relays trusted by the JDK's CAs, no token. */
    public static final RelayCredentials NONE = new RelayCredentials(TlsConfig.NONE, "");

    /** The client's TLS settings, under {@code relay.tls}. */
    public static final TlsSettings TLS = TlsSettings.client("relay.tls");

    /** The bearer token. */
    public static final ConfigKey<String> TOKEN =
            ConfigKey.of(
                            "relay.token",
                            ValueKind.STRING,
                            "",
                            "The bearer token sent to relays (Authorization: Bearer), naming this client's"
                                    + " principal (docs/security.md); empty sends none.")
                    .asSecret();

    /** Every key, in documentation order. */
    public static final List<ConfigKey<?>> KEYS = keys();

    public RelayCredentials {
        tls = tls == null ? TlsConfig.NONE : tls;
        bearerToken = bearerToken == null ? "" : bearerToken.trim();
    }

    /**
     * The credentials of a loaded configuration whose schema holds {@link #KEYS}.
     *
     * @throws io.changegrid.config.ConfigException naming every bad key
     */
    public static RelayCredentials read(Config config) {
        return new RelayCredentials(TLS.read(config), config.get(TOKEN));
    }

    @Override
    public String toString() {
        return "RelayCredentials[tls="
                + tls
                + ", token="
                + (bearerToken.isEmpty() ? "none" : "****")
                + "]";
    }

    private static List<ConfigKey<?>> keys() {
        List<ConfigKey<?>> keys = new ArrayList<>(TLS.keys());
        keys.add(TOKEN);
        return List.copyOf(keys);
    }
}

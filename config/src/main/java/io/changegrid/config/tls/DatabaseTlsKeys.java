package io.changegrid.config.tls;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigKey;
import io.changegrid.config.ValueKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The two TLS settings of a database connection, {@code <prefix>.tls.mode} and {@code
 * <prefix>.tls.caFile}: the one shape every fetcher ({@code source.tls.*}) and applier ({@code
 * target.tls.*}) uses.
 *
 * @param mode the mode setting
 * @param caFile the CA file setting (empty: the JVM's trust store)
 */
public record DatabaseTlsKeys(ConfigKey<TlsMode> mode, ConfigKey<String> caFile) {

    /**
     * The keys under {@code prefix}.
     *
     * @param what the connection, in the docs' words, e.g. {@code the source server}
     */
    public static DatabaseTlsKeys under(String prefix, String what) {
        return new DatabaseTlsKeys(
                ConfigKey.of(
                        prefix + ".tls.mode",
                        ValueKind.oneOf(TlsMode.class),
                        TlsMode.PREFERRED,
                        "TLS to "
                                + what
                                + ": disabled, preferred (TLS if offered, unverified), required"
                                + " (TLS, unverified), verify-ca (certificate signed by the CA file) or"
                                + " verify-identity (and naming the host). See docs/security.md."),
                ConfigKey.of(
                                prefix + ".tls.caFile",
                                ValueKind.STRING,
                                "",
                                "PEM file of the CA(s) that sign "
                                        + what
                                        + "'s certificate, for verify-ca and verify-identity; empty: the JVM's"
                                        + " trust store.")
                        .validatedBy(
                                path -> path.isEmpty() || Path.of(path).isAbsolute(),
                                "empty or an absolute path"));
    }

    /** Both keys, in documentation order. */
    public List<ConfigKey<?>> list() {
        return List.of(mode, caFile);
    }

    /**
     * The settings of a loaded configuration.
     *
     * @throws IllegalArgumentException naming the key when the CA file does not exist
     */
    public DatabaseTls from(Config config) {
        String file = config.get(caFile);
        Path ca = file.isEmpty() ? null : Path.of(file);
        if (ca != null && !Files.isReadable(ca)) {
            throw new IllegalArgumentException(
                    "CA file not readable: path=" + caFile.path() + ", value=" + file);
        }
        return new DatabaseTls(config.get(mode), ca);
    }
}

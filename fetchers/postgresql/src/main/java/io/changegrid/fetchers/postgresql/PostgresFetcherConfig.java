package io.changegrid.fetchers.postgresql;

import io.changegrid.config.tls.DatabaseTls;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.TableFilter;
import java.time.Duration;
import java.util.Properties;

/**
 * A PostgreSQL fetcher's validated configuration: the {@code source.*} settings ({@link
 * PostgresSettings}) and what the relay decides (source id, capture, plan, largest transaction).
 *
 * <p>Its {@link #toString()} masks the password: a record's own would print it.
 */
record PostgresFetcherConfig(
        String host,
        int port,
        String database,
        String user,
        String password,
        String slot,
        String publication,
        boolean createPublication,
        StartPosition start,
        Duration heartbeatInterval,
        Duration statusInterval,
        Duration connectTimeout,
        Duration reconnectBackoffMax,
        int sourceId,
        TableFilter capture,
        CapturePlan plan,
        int maxTransactionBytes,
        DatabaseTls tls) {

    /** A configuration with TLS as the server prefers ({@link DatabaseTls#PREFERRED}). */
    PostgresFetcherConfig(
            String host,
            int port,
            String database,
            String user,
            String password,
            String slot,
            String publication,
            boolean createPublication,
            StartPosition start,
            Duration heartbeatInterval,
            Duration statusInterval,
            Duration connectTimeout,
            Duration reconnectBackoffMax,
            int sourceId,
            TableFilter capture,
            CapturePlan plan,
            int maxTransactionBytes) {
        this(
                host,
                port,
                database,
                user,
                password,
                slot,
                publication,
                createPublication,
                start,
                heartbeatInterval,
                statusInterval,
                connectTimeout,
                reconnectBackoffMax,
                sourceId,
                capture,
                plan,
                maxTransactionBytes,
                DatabaseTls.PREFERRED);
    }

    String jdbcUrl() {
        return "jdbc:postgresql://" + host + ":" + port + "/" + database;
    }

    /**
     * Properties of a catalog connection, or of a replication connection when {@code replication}.
     */
    Properties properties(boolean replication) {
        Properties properties = tls.postgresProperties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        properties.setProperty(
                "connectTimeout", Long.toString(Math.max(1, connectTimeout.toSeconds())));
        properties.setProperty("ApplicationName", "changegrid-relay");
        if (replication) {
            properties.setProperty("replication", "database");
            properties.setProperty("assumeMinServerVersion", "10");
            properties.setProperty("preferQueryMode", "simple");
        }
        return properties;
    }

    /** This configuration with the password masked, for logs. */
    @Override
    public String toString() {
        return "PostgresFetcherConfig[host="
                + host
                + ", port="
                + port
                + ", database="
                + database
                + ", user="
                + user
                + ", password=****, slot="
                + slot
                + ", publication="
                + publication
                + ", sourceId="
                + sourceId
                + ", tls="
                + tls
                + "]";
    }
}

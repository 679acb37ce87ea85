package io.changegrid.fetchers.postgresql;

import io.changegrid.events.schema.TableSchema;
import io.changegrid.fetchers.KeyRangeQuery;
import io.changegrid.fetchers.SnapshotReader;
import io.changegrid.fetchers.UnsupportedSnapshotTypeException;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshot reads of a PostgreSQL source (docs/bootstrap.md). The watermark is {@code
 * pg_current_wal_insert_lsn()}: a transaction's SCN is its commit LSN, so every commit inserted
 * into the WAL before the call lies below it. The insert position rather than {@code
 * pg_current_wal_lsn()} (the write position, which lags it): waiting for the fetcher to pass the
 * watermark then also waits for commits inserted but not yet written.
 *
 * <p>Each column is read as the server's output text (the driver's binary transfer is off, so
 * {@code getString} is that text unchanged) and parsed by {@link PgValues}, exactly as pgoutput's
 * text values are: the snapshot's values are the fetcher's, by construction. (Not {@code
 * col::text}: casts to text differ from the output functions for {@code boolean}, {@code char(n)}
 * and {@code inet}.) Key values are bound as text cast to the column's type. A plain connection
 * (not a replication one), an autocommit read-only session; nothing is written, nothing locked
 * beyond a read.
 *
 * <p>Threading: one caller at a time.
 */
final class PgSnapshotReader implements SnapshotReader {

    private static final Logger LOG = LoggerFactory.getLogger(PgSnapshotReader.class);

    private static final KeyRangeQuery.Dialect DIALECT =
            new KeyRangeQuery.Dialect() {
                @Override
                public String quote(String identifier) {
                    return '"' + identifier.replace("\"", "\"\"") + '"';
                }

                @Override
                public String placeholder(TableSchema table, int k) {
                    return "CAST(? AS " + table.column(table.keyIndex(k)).sourceType() + ")";
                }

                @Override
                public boolean rowValueRanges() {
                    return true;
                }
            };

    private final PostgresFetcherConfig config;
    private final Map<Long, PgValueKind[]> kinds = new HashMap<>();
    private Connection connection;

    PgSnapshotReader(PostgresFetcherConfig config) {
        this.config = config;
    }

    @Override
    public long watermark() throws SQLException {
        try (Statement statement = connection().createStatement();
                ResultSet rows = statement.executeQuery("SELECT pg_current_wal_insert_lsn()")) {
            rows.next();
            return Lsn.parse(rows.getString(1)).value();
        }
    }

    @Override
    public List<Object[]> readChunk(TableSchema table, Object[] afterKey, int limit)
            throws SQLException {
        KeyRangeQuery query = KeyRangeQuery.of(table, DIALECT, afterKey == null, limit);
        String sql = query.sql();
        try {
            PgValueKind[] columnKinds = kinds(table);
            List<Object[]> chunk = new ArrayList<>(Math.min(limit, 4096));
            try (PreparedStatement statement = connection().prepareStatement(sql)) {
                List<Integer> parameters = query.parameters();
                for (int p = 0; p < parameters.size(); p++) {
                    statement.setString(p + 1, keyText(afterKey[parameters.get(p)]));
                }
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        Object[] row = new Object[table.columnCount()];
                        for (int i = 0; i < row.length; i++) {
                            String text = rows.getString(i + 1);
                            row[i] =
                                    text == null
                                            ? null
                                            : PgValues.parse(
                                                    columnKinds[i], text, table.column(i).width());
                        }
                        chunk.add(row);
                    }
                }
            }
            return chunk;
        } catch (SQLException e) {
            close(); // a broken connection is opened afresh by the next call
            throw new SQLException(
                    "snapshot chunk not read: table=" + table.qualifiedName() + ", sql=" + sql, e);
        }
    }

    /** How each column's text is parsed, from the catalog, per schema version. */
    private PgValueKind[] kinds(TableSchema table) throws SQLException {
        long version = ((long) table.tableId() << 32) | table.version();
        PgValueKind[] known = kinds.get(version);
        if (known != null) {
            return known;
        }
        PgCatalog catalog = new PgCatalog(connection());
        Integer oid = null;
        for (PgCatalog.Table each :
                catalog.capturedTables(io.changegrid.policy.capture.TableFilter.all())) {
            if (each.schema().equals(table.database()) && each.name().equals(table.table())) {
                oid = each.oid();
            }
        }
        if (oid == null) {
            throw new SQLException(
                    "table not found for a snapshot: table=" + table.qualifiedName());
        }
        Map<String, PgValueKind> byName = new HashMap<>();
        for (PgCatalog.TypedColumn typed : catalog.columns(oid)) {
            byName.put(typed.column().name(), typed.kind());
        }
        PgValueKind[] resolved = new PgValueKind[table.columnCount()];
        for (int i = 0; i < resolved.length; i++) {
            resolved[i] = byName.get(table.column(i).name());
            if (resolved[i] == null) {
                throw new UnsupportedSnapshotTypeException(table, table.column(i));
            }
        }
        kinds.put(version, resolved);
        return resolved;
    }

    /** A key value as PostgreSQL's input text of its type. */
    private static String keyText(Object value) {
        if (value instanceof byte[] bytes) {
            return "\\x" + HexFormat.of().formatHex(bytes);
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.toPlainString();
        }
        return value.toString();
    }

    private Connection connection() throws SQLException {
        if (connection == null) {
            Connection opened =
                    DriverManager.getConnection(config.jdbcUrl(), config.properties(false));
            try (Statement statement = opened.createStatement()) {
                // The text forms PgValues reads, whatever the server's defaults.
                statement.execute("SET DateStyle = ISO");
                statement.execute("SET IntervalStyle = postgres");
                statement.execute("SET default_transaction_read_only = on");
            } catch (SQLException e) {
                opened.close();
                throw e;
            }
            opened.setAutoCommit(true);
            connection = opened;
        }
        return connection;
    }

    @Override
    public void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.debug("snapshot connection did not close cleanly; it is dropped anyway", e);
            }
            connection = null;
        }
    }
}

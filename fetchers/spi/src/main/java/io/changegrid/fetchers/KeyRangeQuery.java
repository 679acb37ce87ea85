package io.changegrid.fetchers;

import io.changegrid.events.schema.TableSchema;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The one statement a snapshot chunk costs the source: the table's columns, in key order, after a
 * key, a limited number of rows. Written once for every JDBC source; a source says how it quotes
 * identifiers, how a key value is bound ({@code ?} or {@code CAST(? AS type)}), and whether its
 * optimiser reads a row-value comparison {@code (a, b) > (?, ?)} as an index range (PostgreSQL
 * does; MariaDB does not, so there a composite key is compared column by column: {@code a > ? OR (a
 * = ? AND b > ?)}, which every optimiser turns into ranges).
 *
 * <p>{@link #parameters()} says which key value goes to each {@code ?}, in order.
 *
 * @param sql the statement
 * @param parameters for each {@code ?}, the index of the key value (in key order) bound to it
 */
public record KeyRangeQuery(String sql, List<Integer> parameters) {

    /** How one source writes the statement. */
    public interface Dialect {
        /** The identifier quoted, e.g. {@code `a``b`} or {@code "a""b"}. */
        String quote(String identifier);

        /** The placeholder of the key column {@code k}'s value, e.g. {@code ?}. */
        String placeholder(TableSchema table, int k);

        /** Whether a row-value comparison is read as an index range. */
        boolean rowValueRanges();
    }

    /**
     * The chunk query of {@code table}.
     *
     * @param first whether the chunk starts at the table's first row (no key condition)
     * @param limit the most rows read
     * @throws NoPrimaryKeyException if the table has no primary key
     */
    public static KeyRangeQuery of(TableSchema table, Dialect dialect, boolean first, int limit) {
        NoPrimaryKeyException.check(table);
        if (limit < 1) {
            throw new IllegalArgumentException("chunk limit must be >= 1: limit=" + limit);
        }
        UnaryOperator<String> q = dialect::quote;
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < table.columnCount(); i++) {
            sql.append(i == 0 ? "" : ", ").append(q.apply(table.column(i).name()));
        }
        sql.append(" FROM ")
                .append(q.apply(table.database()))
                .append('.')
                .append(q.apply(table.table()));
        List<Integer> parameters = new java.util.ArrayList<>();
        List<String> key = table.keyColumns();
        if (!first) {
            sql.append(" WHERE ");
            if (key.size() == 1 || dialect.rowValueRanges()) {
                StringBuilder columns = new StringBuilder();
                StringBuilder values = new StringBuilder();
                for (int k = 0; k < key.size(); k++) {
                    columns.append(k == 0 ? "" : ", ").append(q.apply(key.get(k)));
                    values.append(k == 0 ? "" : ", ").append(dialect.placeholder(table, k));
                    parameters.add(k);
                }
                sql.append(key.size() == 1 ? columns : "(" + columns + ")")
                        .append(" > ")
                        .append(key.size() == 1 ? values : "(" + values + ")");
            } else {
                // k1 > ? OR (k1 = ? AND k2 > ?) OR (k1 = ? AND k2 = ? AND k3 > ?) ...
                for (int k = 0; k < key.size(); k++) {
                    sql.append(k == 0 ? "(" : " OR (");
                    for (int e = 0; e < k; e++) {
                        sql.append(q.apply(key.get(e)))
                                .append(" = ")
                                .append(dialect.placeholder(table, e))
                                .append(" AND ");
                        parameters.add(e);
                    }
                    sql.append(q.apply(key.get(k)))
                            .append(" > ")
                            .append(dialect.placeholder(table, k))
                            .append(')');
                    parameters.add(k);
                }
            }
        }
        sql.append(" ORDER BY ");
        for (int k = 0; k < key.size(); k++) {
            sql.append(k == 0 ? "" : ", ").append(q.apply(key.get(k)));
        }
        sql.append(" LIMIT ").append(limit);
        return new KeyRangeQuery(sql.toString(), List.copyOf(parameters));
    }
}

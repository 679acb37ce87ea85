package io.changegrid.fetchers.logminer.schema;

import io.changegrid.policy.capture.TableFilter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads captured tables' definitions from Oracle's data dictionary views ({@code ALL_TABLES},
 * {@code ALL_TAB_COLUMNS}, {@code ALL_CONSTRAINTS}, {@code ALL_CONS_COLUMNS}), the online catalog
 * LogMiner renders {@code SQL_REDO} with. Plain SQL on both Oracle and the stand-in.
 *
 * <p>Threading: the fetcher's thread; the connection is the caller's.
 */
public final class OracleCatalog {

    /** A table's name. */
    public record TableName(String owner, String table) {
        @Override
        public String toString() {
            return owner + "." + table;
        }
    }

    /** A table's columns, or the columns the fetcher cannot carry. */
    public record Definition(
            TableName name, List<OracleColumn> columns, List<String> key, List<String> refused) {}

    static final String TABLES =
            "SELECT OWNER, TABLE_NAME FROM ALL_TABLES ORDER BY OWNER, TABLE_NAME";
    static final String COLUMNS =
            "SELECT COLUMN_NAME, DATA_TYPE, DATA_LENGTH, CHAR_LENGTH, DATA_PRECISION, DATA_SCALE, NULLABLE"
                    + " FROM ALL_TAB_COLUMNS WHERE OWNER = ? AND TABLE_NAME = ? ORDER BY COLUMN_ID";
    static final String KEY =
            "SELECT CC.COLUMN_NAME FROM ALL_CONSTRAINTS C JOIN ALL_CONS_COLUMNS CC"
                    + " ON CC.OWNER = C.OWNER AND CC.CONSTRAINT_NAME = C.CONSTRAINT_NAME"
                    + " WHERE C.OWNER = ? AND C.TABLE_NAME = ? AND C.CONSTRAINT_TYPE = 'P'"
                    + " ORDER BY CC.POSITION";

    private final Connection connection;

    public OracleCatalog(Connection connection) {
        this.connection = connection;
    }

    /**
     * The tables the filter captures, by owner and name (so table ids are alike on every relay).
     */
    public List<TableName> capturedTables(TableFilter capture) throws SQLException {
        List<TableName> tables = new ArrayList<>();
        try (var statement = connection.prepareStatement(TABLES);
                var rows = statement.executeQuery()) {
            while (rows.next()) {
                var name = new TableName(rows.getString(1), rows.getString(2));
                if (capture.matches(name.owner(), name.table())) {
                    tables.add(name);
                }
            }
        }
        return tables;
    }

    /** A table's definition now, or one with no columns when the table does not exist. */
    public Definition definition(TableName name) throws SQLException {
        List<OracleColumn> columns = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        try (var statement = connection.prepareStatement(COLUMNS)) {
            statement.setString(1, name.owner());
            statement.setString(2, name.table());
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    String column = rows.getString(1);
                    String dataType = rows.getString(2);
                    int charLength = rows.getInt(4);
                    int length = charLength > 0 ? charLength : rows.getInt(3);
                    OracleType type =
                            OracleType.of(dataType, length, integer(rows, 5), integer(rows, 6));
                    if (type == null) {
                        refused.add(column + " " + dataType);
                    } else {
                        columns.add(new OracleColumn(column, type, "Y".equals(rows.getString(7))));
                    }
                }
            }
        }
        List<String> key = new ArrayList<>();
        try (var statement = connection.prepareStatement(KEY)) {
            statement.setString(1, name.owner());
            statement.setString(2, name.table());
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    key.add(rows.getString(1));
                }
            }
        }
        return new Definition(name, List.copyOf(columns), List.copyOf(key), List.copyOf(refused));
    }

    private static Integer integer(ResultSet rows, int column) throws SQLException {
        int value = rows.getInt(column);
        return rows.wasNull() ? null : value;
    }
}

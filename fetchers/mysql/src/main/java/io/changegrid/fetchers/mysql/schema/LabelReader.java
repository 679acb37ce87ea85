package io.changegrid.fetchers.mysql.schema;

import io.changegrid.events.schema.Column;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the exact labels of an ENUM or SET column from a MariaDB server. information_schema and
 * SHOW CREATE TABLE hold them in {@code utf8mb3} (MariaDB 10.11's system character set), which
 * writes a character outside it, such as an emoji, as {@code ?}: a label read from there that
 * contains {@code ?} may have lost characters, and is read again here.
 *
 * <p>How: an anonymous block declares a variable anchored to the column ({@code DECLARE v TYPE OF
 * db.t.c}), so it has the column's labels as the table stores them; setting it to each member's
 * number (ENUM) or bit (SET) gives each label, read as hex of its bytes in the column's character
 * set. Nothing is written and nothing reaches the binlog; SELECT on the table is the only privilege
 * it needs.
 *
 * <p>Stateless; thread-safe (each call uses the connection it is given).
 */
final class LabelReader {

    private static final Logger LOG = LoggerFactory.getLogger(LabelReader.class);

    private LabelReader() {}

    /** Whether the column's labels as information_schema showed them may have lost characters. */
    static boolean mayHaveLostCharacters(Column column) {
        MySqlColumnType type = MySqlColumnType.parse(column.sourceType());
        return (type.base().equals("enum") || type.base().equals("set"))
                && type.labels().stream().anyMatch(label -> label.indexOf('?') >= 0);
    }

    /**
     * The column with its labels as the server stores them.
     *
     * @throws SQLException from the server
     */
    static Column reread(Connection connection, TableName table, Column column)
            throws SQLException {
        MySqlColumnType type = MySqlColumnType.parse(column.sourceType());
        boolean set = type.base().equals("set");
        int count = type.labels().size();
        StringBuilder block =
                new StringBuilder("BEGIN NOT ATOMIC DECLARE v TYPE OF ")
                        .append(quote(table.database()))
                        .append('.')
                        .append(quote(table.table()))
                        .append('.')
                        .append(quote(column.name()))
                        .append("; DECLARE labels LONGTEXT CHARACTER SET ascii DEFAULT '';");
        for (int i = 0; i < count; i++) {
            String member = set ? Long.toUnsignedString(1L << i) : Integer.toString(i + 1);
            block.append(" SET v = ")
                    .append(member)
                    .append("; SET labels = CONCAT(labels, HEX(v), ',');");
        }
        block.append(" SELECT labels; END");
        String hex;
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(block.toString())) {
            rs.next();
            hex = rs.getString(1);
        }
        var charset = MySqlCharsets.javaCharset(type.charset());
        List<String> labels = new ArrayList<>(count);
        for (String one : hex.split(",", -1)) {
            if (labels.size() < count) {
                try {
                    labels.add(MySqlColumnTypes.decode(charset, HexFormat.of().parseHex(one)));
                } catch (IllegalArgumentException e) {
                    // The server's own labels are not text in the column's set: MariaDB garbles
                    // labels when ALTER TABLE ... CONVERT TO a multi-byte set. Nothing better
                    // than information_schema's text exists then.
                    LOG.warn(
                            "labels kept as information_schema shows them, the server's are not"
                                    + " valid in their character set: table={}, column={}, type={}",
                            table,
                            column.name(),
                            column.sourceType());
                    return column;
                }
            }
        }
        if (labels.size() != count) {
            throw new IllegalArgumentException(
                    "labels read back do not match the column: table="
                            + table
                            + ", column="
                            + column.name()
                            + ", expected="
                            + count
                            + ", read="
                            + labels.size());
        }
        MySqlColumnType exact =
                new MySqlColumnType(
                        type.base(),
                        MySqlColumnType.quoteLabels(labels),
                        type.unsigned(),
                        type.zerofill(),
                        type.compressed(),
                        type.charset());
        return new Column(
                column.name(),
                column.type(),
                exact.sourceType(),
                column.nullable(),
                column.width());
    }

    private static String quote(String identifier) {
        return '`' + identifier.replace("`", "``") + '`';
    }
}

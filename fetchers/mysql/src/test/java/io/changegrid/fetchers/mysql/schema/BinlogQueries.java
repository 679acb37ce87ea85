package io.changegrid.fetchers.mysql.schema;

import com.github.shyiko.mysql.binlog.BinaryLogFileReader;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The QUERY events a test server wrote to its binlog, read from its binlog file the way a fetcher
 * reads them from the server: each with the event's default database, which for CREATE, ALTER and
 * DROP DATABASE is the database concerned (SHOW BINLOG EVENTS would hide it). BEGIN and COMMIT are
 * left out.
 */
final class BinlogQueries {

    /** One QUERY event: its default database (null for none) and statement. */
    record Query(String database, String sql) {}

    private final Path file;
    private long position;

    /** Starts at the server's current binlog position. */
    BinlogQueries(Path dataDir, Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SHOW MASTER STATUS")) {
            rs.next();
            file = dataDir.resolve(rs.getString("File"));
            position = rs.getLong("Position");
        }
    }

    /** The QUERY events written since the last call. */
    List<Query> next() throws IOException {
        List<Query> queries = new ArrayList<>();
        try (BinaryLogFileReader reader = new BinaryLogFileReader(file.toFile())) {
            for (Event event = reader.readEvent(); event != null; event = reader.readEvent()) {
                EventHeaderV4 header = event.getHeader();
                if (header.getPosition() <= position) {
                    continue;
                }
                position = header.getPosition();
                if (header.getEventType() != EventType.QUERY) {
                    continue;
                }
                QueryEventData data = event.getData();
                if (data.getSql().equals("BEGIN") || data.getSql().equals("COMMIT")) {
                    continue;
                }
                String database = data.getDatabase();
                queries.add(
                        new Query(
                                database == null || database.isEmpty() ? null : database,
                                data.getSql()));
            }
        }
        return queries;
    }
}

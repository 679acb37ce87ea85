package io.changegrid.gridkit.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.gridkit.server.MariaDbServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class LoadGeneratorIT {

    private static final LoadShape SHAPE =
            new LoadShape(1_005, 300, 2, OperationMix.DEFAULT, 10, 3);

    private static MariaDbServer server;

    @BeforeAll
    static void startServer() {
        server = MariaDbServer.start();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void shouldWriteTheSameRowsWhenPacedAsWhenRunFlatOut() throws Exception {
        server.execute("CREATE DATABASE fast", "CREATE DATABASE paced");
        WorkloadTables fast = WorkloadTables.of("fast", List.of("orders", "customers"));
        WorkloadTables paced = WorkloadTables.of("paced", List.of("orders", "customers"));
        LoadResult result;
        try (Connection connection = server.connect()) {
            LoadGenerator generator = new LoadGenerator(fast, SHAPE);
            generator.createTables(connection);
            result = generator.run(connection, done -> {});
        }
        try (Connection connection = server.connect()) {
            LoadGenerator generator = new LoadGenerator(paced, SHAPE);
            generator.createTables(connection);
            try (PacedLoad load = generator.startPaced("paced", connection, 2_000)) {
                load.awaitDone(Duration.ofSeconds(60));
                assertThat(load.committedRows()).isEqualTo(SHAPE.records());
                assertThat(load.committedTransactions()).isEqualTo(result.transactions());
            }
        }

        assertThat(result.events()).isEqualTo(SHAPE.records());
        assertThat(result.transactions()).isEqualTo(101); // 100 of 10 row changes, then 5
        for (String table : fast.names()) {
            List<String> rows = rows("fast", table);
            assertThat(rows).isNotEmpty().isEqualTo(rows("paced", table));
        }
    }

    /** The table's rows in key order, without {@code updated} (the commit's time). */
    private static List<String> rows(String database, String table) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection connection = server.connect();
                Statement statement = connection.createStatement();
                ResultSet result =
                        statement.executeQuery(
                                "SELECT * FROM `" + database + "`.`" + table + "` ORDER BY id")) {
            ResultSetMetaData columns = result.getMetaData();
            while (result.next()) {
                StringBuilder row = new StringBuilder();
                for (int c = 1; c <= columns.getColumnCount(); c++) {
                    if (!columns.getColumnName(c).equals("updated")) {
                        row.append(result.getString(c)).append('|');
                    }
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }
}

package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.ApplyMode;
import io.changegrid.appliers.jdbc.JdbcApplier;
import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.ConsumerState;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.MariaDbExtension;
import io.changegrid.testkit.PostgresDatabaseExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Values at the edges of what a target takes, through a real relay and consumer: floats at their
 * limits reach MariaDB bit for bit on every write path, and a value a target cannot hold (an
 * invalid ENUM value in MariaDB, a zero TIMESTAMP in PostgreSQL) stops the applier at once, naming
 * table, column, value and SCN, with nothing of the row written; text of a single-byte character
 * set reaches a MariaDB column of that set as the source's bytes on every write path.
 */
class TargetValuesIT {

    @RegisterExtension static final MariaDbExtension SOURCE = new MariaDbExtension();
    @RegisterExtension static final MariaDbExtension MARIADB_TARGET = new MariaDbExtension();

    @RegisterExtension
    static final PostgresDatabaseExtension POSTGRES = new PostgresDatabaseExtension();

    @TempDir static Path relayState;

    private static Relay relay;
    private final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeAll
    static void startRelay() throws Exception {
        relay = Pipeline.startRelay(SOURCE.server(), relayState, 9_807);
    }

    @AfterAll
    static void stopRelay() {
        if (relay != null) {
            relay.close();
        }
    }

    @AfterEach
    void close() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    private Consumer apply(Target target, String db, ApplierOptions.Builder options)
            throws Exception {
        JdbcApplier applier =
                JdbcApplier.open(
                        options.credentials(target.user(), target.password())
                                .consumerGroup(db)
                                .build());
        closing.add(applier);
        Consumer consumer = Pipeline.consume(relay, db, applier, applier.checkpointStore(), 10);
        closing.add(consumer);
        return consumer;
    }

    /** Runs statements on one source session, in a non-strict sql_mode that lets odd values in. */
    private static void sourceLax(String... sql) throws SQLException {
        try (Connection connection = SOURCE.server().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("SET SESSION sql_mode = ''");
            for (String each : sql) {
                statement.execute(each);
            }
        }
    }

    /** Every row as {@code id f d}, the FLOAT read as the double it holds (every bit shown). */
    private static List<String> floats(Connection connection, String table) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                var result =
                        statement.executeQuery(
                                "SELECT id, CAST(f AS DOUBLE), d FROM " + table + " ORDER BY id")) {
            while (result.next()) {
                rows.add(
                        result.getInt(1)
                                + " "
                                + Double.toString(result.getDouble(2))
                                + " "
                                + Double.toString(result.getDouble(3)));
            }
        }
        return rows;
    }

    @Test
    void shouldWriteFloatLimitsBitForBitWhenEveryWritePathCarriesThemIntoMariaDb()
            throws Exception {
        Target target = Target.of(MARIADB_TARGET.server());
        String max = "3.4028234663852886e38"; // FLT_MAX, exactly
        String tiny = "1.401298464324817e-45"; // the smallest float
        String dmax = "1.7976931348623157e308";
        SOURCE.server()
                .execute(
                        "CREATE DATABASE floats",
                        "CREATE TABLE floats.t (id INT PRIMARY KEY, f FLOAT, d DOUBLE)",
                        "INSERT INTO floats.t VALUES (1, "
                                + max
                                + ", "
                                + dmax
                                + "),"
                                + " (2, -"
                                + max
                                + ", -"
                                + dmax
                                + "), (3, "
                                + tiny
                                + ", 4.9e-324),"
                                + " (5, 0.1, 0.1)");
        Consumer consumer = apply(target, "floats", ApplierOptions.builder(target.url()));
        Pipeline.awaitUntil(
                consumer,
                () -> safeCount(target, "SELECT count(*) FROM floats.t") == 4,
                Duration.ofSeconds(30));
        // Row 4 exists only in the target: the source's insert of it falls back to upserts; row 5
        // is gone from the target: its update is written as an upsert of the whole image.
        target.execute(
                "INSERT INTO floats.t VALUES (4, 0, 0)", "DELETE FROM floats.t WHERE id = 5");
        SOURCE.server()
                .execute(
                        "UPDATE floats.t SET f = -" + max + " WHERE id = 1", // in-place update
                        "UPDATE floats.t SET f = " + max + ", d = " + dmax + " WHERE id = 2",
                        "UPDATE floats.t SET id = 30, f = -" + max + " WHERE id = 3", // key change
                        "INSERT INTO floats.t VALUES (4, " + max + ", -" + dmax + ")",
                        "UPDATE floats.t SET f = " + max + " WHERE id = 5",
                        "INSERT INTO floats.t VALUES (6, 0, 0)");
        Pipeline.awaitUntil(
                consumer,
                () -> safeCount(target, "SELECT count(*) FROM floats.t WHERE id = 6") == 1,
                Duration.ofSeconds(30));
        List<String> source;
        try (Connection connection = SOURCE.server().connect()) {
            source = floats(connection, "floats.t");
        }
        try (Connection connection = target.connect()) {
            assertThat(floats(connection, "floats.t")).isEqualTo(source);
        }
        double fltMax = Float.MAX_VALUE;
        assertThat(source)
                .contains(
                        "1 " + -fltMax + " " + Double.MAX_VALUE,
                        "2 " + fltMax + " " + Double.MAX_VALUE,
                        "30 " + -fltMax + " " + Double.MIN_VALUE,
                        "5 " + fltMax + " " + 0.1);
    }

    /** Every row of a query, its columns joined by a space. */
    private static List<String> rows(Connection connection, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                var result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                StringBuilder row = new StringBuilder(result.getString(1));
                for (int c = 2; c <= columns; c++) {
                    row.append(' ').append(result.getString(c));
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }

    @Test
    void shouldWriteTheSourceBytesOfSingleByteTextWhenTheTargetColumnHasTheSameCharset()
            throws Exception {
        Target target = Target.of(MARIADB_TARGET.server());
        SOURCE.server()
                .execute(
                        "CREATE DATABASE cp1251",
                        "CREATE TABLE cp1251.t (k VARCHAR(10) CHARACTER SET cp1251 PRIMARY KEY,"
                                + " v TEXT CHARACTER SET cp1251)",
                        "CREATE TABLE cp1251.u (id INT PRIMARY KEY,"
                                + " v VARCHAR(10) CHARACTER SET cp1251)",
                        // 0x98 is a byte cp1251 leaves undefined: U+0098 on the stream
                        "INSERT INTO cp1251.t VALUES (_cp1251 x'98', _cp1251 x'C098'),"
                                + " (_cp1251 x'4198', _cp1251 x'98'), ('c', 'c'), ('e', 'e')",
                        "INSERT INTO cp1251.u VALUES (1, _cp1251 x'C098')");
        // u is the operator's, its column in utf8mb4: the text is converted as any text.
        target.execute(
                "CREATE DATABASE cp1251",
                "CREATE TABLE cp1251.u (id INT PRIMARY KEY, v VARCHAR(10) CHARACTER SET utf8mb4)");
        Consumer consumer = apply(target, "cp1251", ApplierOptions.builder(target.url()));
        Pipeline.awaitUntil(
                consumer,
                () ->
                        safeCount(target, "SELECT count(*) FROM cp1251.t") == 4
                                && safeCount(target, "SELECT count(*) FROM cp1251.u") == 1,
                Duration.ofSeconds(30));
        // Row d exists only in the target: the source's insert of it falls back to upserts; row e
        // is gone from the target: its update is written as an upsert of the whole image.
        target.execute(
                "INSERT INTO cp1251.t VALUES ('d', 'x')", "DELETE FROM cp1251.t WHERE k = 'e'");
        SOURCE.server()
                .execute(
                        "UPDATE cp1251.t SET v = _cp1251 x'9898' WHERE k = _cp1251 x'98'",
                        "UPDATE cp1251.t SET k = _cp1251 x'9899' WHERE k = _cp1251 x'4198'",
                        "INSERT INTO cp1251.t VALUES ('d', _cp1251 x'98')",
                        "UPDATE cp1251.t SET v = _cp1251 x'98' WHERE k = 'e'",
                        "DELETE FROM cp1251.t WHERE k = 'c'",
                        "INSERT INTO cp1251.t VALUES ('f', 'f')");
        Pipeline.awaitUntil(
                consumer,
                () -> safeCount(target, "SELECT count(*) FROM cp1251.t WHERE k = 'f'") == 1,
                Duration.ofSeconds(30));
        String canonical = "SELECT HEX(k), HEX(v) FROM cp1251.t ORDER BY HEX(k)";
        List<String> source;
        try (Connection connection = SOURCE.server().connect()) {
            source = rows(connection, canonical);
        }
        assertThat(source).containsExactly("64 98", "65 98", "66 66", "98 9898", "9899 98");
        try (Connection connection = target.connect()) {
            assertThat(rows(connection, canonical)).isEqualTo(source);
            assertThat(rows(connection, "SELECT HEX(v) FROM cp1251.u")).containsExactly("D090C298");
        }
    }

    @Test
    void shouldStopNamingTableColumnValueAndScnWhenMariaDbRefusesAnEnumValue() throws Exception {
        Target target = Target.of(MARIADB_TARGET.server());
        SOURCE.server()
                .execute(
                        "CREATE DATABASE enums",
                        "CREATE TABLE enums.t (id INT PRIMARY KEY, e ENUM('red','green'))");
        sourceLax("INSERT INTO enums.t VALUES (1, 'purple')"); // stored as '', index 0
        Consumer consumer = apply(target, "enums", ApplierOptions.builder(target.url()));
        // Refused, not retried: error 1265 fails the same way every time.
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> consumer.state() == ConsumerState.FAILED);
        assertThat(consumer.failure().orElseThrow())
                .hasStackTraceContaining("table=`enums`.`t`, scn=")
                .hasStackTraceContaining("key=[1], column=e, value=''")
                .hasStackTraceContaining("Data truncated for column 'e'");
        assertThat(target.count("SELECT count(*) FROM enums.t")).isZero();
    }

    @ParameterizedTest(name = "apply.mode={0}")
    @EnumSource(ApplyMode.class)
    void shouldStopNamingTableColumnValueAndScnWhenAZeroTimestampMeetsPostgres(ApplyMode mode)
            throws Exception {
        Target target = Target.of(POSTGRES.database());
        String db = "zero_ts_" + mode.name().toLowerCase(Locale.ROOT);
        SOURCE.server()
                .execute(
                        "CREATE DATABASE " + db,
                        "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, ts TIMESTAMP NULL)");
        sourceLax("INSERT INTO " + db + ".t VALUES (1, '0000-00-00 00:00:00')");
        Consumer consumer = apply(target, db, ApplierOptions.builder(target.url()).mode(mode));
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> consumer.state() == ConsumerState.FAILED);
        assertThat(consumer.failure().orElseThrow())
                .hasStackTraceContaining("table=\"" + db + "\".\"t\", scn=")
                .hasStackTraceContaining(
                        "zero timestamp in a PostgreSQL timestamptz: column=ts,"
                                + " value=0000-00-00 00:00:00");
        assertThat(safeCount(target, "SELECT count(*) FROM " + db + ".t")).isIn(-1L, 0L);
    }

    private static long safeCount(Target target, String sql) {
        try {
            return target.count(sql);
        } catch (SQLException e) {
            return -1;
        }
    }
}

package io.changegrid.appliers.it;

import io.changegrid.appliers.it.TableContents.Spec;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.StringJoiner;

/**
 * A multi-table source workload over every MariaDB column type: {@code alltypes} (one column of
 * each type), {@code accounts} (composite key of a string and an integer) and {@code blobs} (a
 * binary key). Inserts, updates, primary-key updates and deletes in multi-statement transactions,
 * from a seeded random.
 */
final class AllTypesWorkload {

    static final List<Spec> ALLTYPES =
            List.of(
                    Spec.of("id", Canon.TEXT),
                    Spec.of("c_tinyint", Canon.TEXT),
                    Spec.of("c_utinyint", Canon.TEXT),
                    Spec.of("c_smallint", Canon.TEXT),
                    Spec.of("c_usmallint", Canon.TEXT),
                    Spec.of("c_mediumint", Canon.TEXT),
                    Spec.of("c_int", Canon.TEXT),
                    Spec.of("c_uint", Canon.TEXT),
                    Spec.of("c_bigint", Canon.TEXT),
                    Spec.of("c_ubigint", Canon.TEXT),
                    Spec.of("c_year", Canon.TEXT),
                    Spec.of("c_float", Canon.FLOAT),
                    Spec.of("c_double", Canon.DOUBLE),
                    Spec.of("c_decimal", Canon.TEXT),
                    Spec.of("c_widedecimal", Canon.TEXT),
                    new Spec("c_bit1", Canon.BITS, 1),
                    new Spec("c_bit64", Canon.BITS, 64),
                    Spec.of("c_date", Canon.TEXT),
                    Spec.of("c_time", Canon.TIME),
                    Spec.of("c_datetime", Canon.DATETIME),
                    Spec.of("c_datetime0", Canon.DATETIME),
                    Spec.of("c_timestamp", Canon.TIMESTAMP),
                    Spec.of("c_char", Canon.TEXT),
                    Spec.of("c_varchar", Canon.TEXT),
                    Spec.of("c_latin", Canon.TEXT),
                    Spec.of("c_text", Canon.TEXT),
                    Spec.of("c_enum", Canon.TEXT),
                    Spec.of("c_set", Canon.TEXT),
                    Spec.of("c_binary", Canon.HEX),
                    Spec.of("c_varbinary", Canon.HEX),
                    Spec.of("c_blob", Canon.HEX),
                    Spec.of("c_json", Canon.TEXT),
                    Spec.of("c_geometry", Canon.HEX),
                    Spec.of("c_point", Canon.HEX));

    static final List<Spec> ACCOUNTS =
            List.of(
                    Spec.of("region", Canon.TEXT),
                    Spec.of("number", Canon.TEXT),
                    Spec.of("balance", Canon.TEXT),
                    Spec.of("note", Canon.TEXT));

    static final List<Spec> BLOBS =
            List.of(
                    Spec.of("hash", Canon.HEX),
                    Spec.of("size", Canon.TEXT),
                    Spec.of("body", Canon.HEX));

    private final String database;
    private final Random random;
    private final boolean zeroValues;
    private final boolean keyChanges;
    private final List<Integer> alltypes = new ArrayList<>();
    private final List<String[]> accounts = new ArrayList<>();
    private final List<String> blobs = new ArrayList<>();
    private int nextId = 1;

    /**
     * @param zeroValues whether zero dates may appear (a MariaDB target holds them, PostgreSQL not)
     */
    AllTypesWorkload(String database, long seed, boolean zeroValues) {
        this(database, seed, zeroValues, true);
    }

    /**
     * @param keyChanges whether updates change primary keys; without, such steps update other
     *     columns (a key change moves a row between a consumer group's partitions, which apply in
     *     no common order)
     */
    AllTypesWorkload(String database, long seed, boolean zeroValues, boolean keyChanges) {
        this.database = database;
        this.random = new Random(seed);
        this.zeroValues = zeroValues;
        this.keyChanges = keyChanges;
    }

    static void create(Statement statement, String database) throws SQLException {
        statement.execute("CREATE DATABASE " + database);
        statement.execute(
                "CREATE TABLE "
                        + database
                        + ".alltypes (id INT PRIMARY KEY,"
                        + " c_tinyint TINYINT, c_utinyint TINYINT UNSIGNED, c_smallint SMALLINT,"
                        + " c_usmallint SMALLINT UNSIGNED, c_mediumint MEDIUMINT, c_int INT NOT NULL,"
                        + " c_uint INT UNSIGNED, c_bigint BIGINT, c_ubigint BIGINT UNSIGNED, c_year YEAR,"
                        + " c_float FLOAT, c_double DOUBLE, c_decimal DECIMAL(20,6),"
                        + " c_widedecimal DECIMAL(65,30), c_bit1 BIT(1), c_bit64 BIT(64), c_date DATE,"
                        + " c_time TIME(6), c_datetime DATETIME(6), c_datetime0 DATETIME,"
                        + " c_timestamp TIMESTAMP(6) NULL, c_char CHAR(10) CHARACTER SET utf8mb4,"
                        + " c_varchar VARCHAR(100) CHARACTER SET utf8mb4,"
                        + " c_latin VARCHAR(50) CHARACTER SET latin1, c_text TEXT CHARACTER SET utf8mb4,"
                        + " c_enum ENUM('red','green','blue'), c_set SET('x','y','z'),"
                        + " c_binary BINARY(4), c_varbinary VARBINARY(50), c_blob BLOB, c_json JSON,"
                        + " c_geometry GEOMETRY, c_point POINT)");
        statement.execute(
                "CREATE TABLE "
                        + database
                        + ".accounts (region VARCHAR(20) CHARACTER SET utf8mb4, number INT,"
                        + " balance DECIMAL(12,2) NOT NULL, note VARCHAR(200) CHARACTER SET utf8mb4,"
                        + " PRIMARY KEY (region, number))");
        statement.execute(
                "CREATE TABLE "
                        + database
                        + ".blobs (hash VARBINARY(16) PRIMARY KEY, size INT, body MEDIUMBLOB)");
    }

    /** Runs {@code transactions} random transactions on the source. */
    void run(Connection connection, int transactions) throws SQLException {
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET time_zone = '+00:00'");
            for (int t = 0; t < transactions; t++) {
                int statements = 1 + random.nextInt(5);
                for (int s = 0; s < statements; s++) {
                    step(statement);
                }
                connection.commit();
            }
        }
    }

    private void step(Statement statement) throws SQLException {
        int choice = random.nextInt(100);
        if (choice < 35 || alltypes.size() < 5) {
            int id = nextId++;
            statement.execute(
                    "INSERT INTO " + database + ".alltypes VALUES (" + id + ", " + values() + ")");
            alltypes.add(id);
        } else if (choice < 50) {
            int id = alltypes.get(random.nextInt(alltypes.size()));
            statement.execute(
                    "REPLACE INTO " + database + ".alltypes VALUES (" + id + ", " + values() + ")");
        } else if (choice < 58 && !keyChanges) {
            int id = alltypes.get(random.nextInt(alltypes.size()));
            statement.execute(
                    "UPDATE " + database + ".alltypes SET c_int = c_int + 1 WHERE id = " + id);
        } else if (choice < 58) {
            int at = random.nextInt(alltypes.size());
            int id = alltypes.get(at);
            int newId = nextId++;
            statement.execute(
                    "UPDATE " + database + ".alltypes SET id = " + newId + " WHERE id = " + id);
            alltypes.set(at, newId);
        } else if (choice < 63) {
            int id = alltypes.remove(random.nextInt(alltypes.size()));
            statement.execute("DELETE FROM " + database + ".alltypes WHERE id = " + id);
        } else if (choice < 75 || accounts.size() < 3) {
            String region = pick("north", "south", "éast", "west");
            String number = Integer.toString(random.nextInt(1_000_000));
            statement.execute(
                    "INSERT INTO "
                            + database
                            + ".accounts VALUES ('"
                            + region
                            + "', "
                            + number
                            + ", "
                            + decimal(10, 2)
                            + ", "
                            + quoted(text(30))
                            + ") ON DUPLICATE KEY UPDATE balance = balance + 1");
            accounts.add(new String[] {region, number});
        } else if (choice < 85) {
            String[] key = accounts.get(random.nextInt(accounts.size()));
            statement.execute(
                    "UPDATE "
                            + database
                            + ".accounts SET balance = balance + "
                            + decimal(6, 2)
                            + ", note = "
                            + quoted(text(40))
                            + " WHERE region = '"
                            + key[0]
                            + "' AND number = "
                            + key[1]);
        } else if (choice < 88) {
            String[] key = accounts.remove(random.nextInt(accounts.size()));
            statement.execute(
                    "DELETE FROM "
                            + database
                            + ".accounts WHERE region = '"
                            + key[0]
                            + "' AND number = "
                            + key[1]);
        } else if (choice < 96 || blobs.isEmpty()) {
            String hash = hex(16);
            int size = random.nextInt(3000);
            statement.execute(
                    "INSERT IGNORE INTO "
                            + database
                            + ".blobs VALUES (X'"
                            + hash
                            + "', "
                            + size
                            + ", X'"
                            + hex(size)
                            + "')");
            blobs.add(hash);
        } else if (!keyChanges) {
            String hash = blobs.get(random.nextInt(blobs.size()));
            statement.execute(
                    "UPDATE "
                            + database
                            + ".blobs SET size = size + 1 WHERE hash = X'"
                            + hash
                            + "'");
        } else {
            String hash = blobs.remove(random.nextInt(blobs.size()));
            String newHash = hex(16);
            statement.execute(
                    "UPDATE "
                            + database
                            + ".blobs SET hash = X'"
                            + newHash
                            + "' WHERE hash = X'"
                            + hash
                            + "'");
            blobs.add(newHash);
        }
    }

    private String values() {
        StringJoiner v = new StringJoiner(", ");
        v.add(nullable(Integer.toString(random.nextInt(256) - 128)));
        v.add(nullable(Integer.toString(random.nextInt(256))));
        v.add(nullable(Integer.toString(random.nextInt(65536) - 32768)));
        v.add(nullable(Integer.toString(random.nextInt(65536))));
        v.add(nullable(Integer.toString(random.nextInt(16_777_216) - 8_388_608)));
        v.add(Integer.toString(random.nextInt()));
        v.add(nullable(Long.toString(random.nextInt() & 0xffffffffL)));
        v.add(nullable(Long.toString(random.nextLong())));
        v.add(nullable(new BigInteger(64, random).toString()));
        v.add(nullable(Integer.toString(1901 + random.nextInt(255))));
        v.add(nullable(Float.toString((float) (random.nextGaussian() * 1000))));
        v.add(nullable(Double.toString(random.nextGaussian() * 1e9)));
        v.add(nullable(decimal(14, 6)));
        v.add(nullable(decimal(35, 30)));
        v.add(nullable("b'" + random.nextInt(2) + "'"));
        v.add(nullable("b'" + bits(64) + "'"));
        v.add(nullable(quoted(zeroValues && random.nextInt(10) == 0 ? "0000-00-00" : date())));
        v.add(nullable(quoted(time())));
        v.add(nullable(quoted(date() + " " + clock(true))));
        v.add(
                nullable(
                        quoted(
                                zeroValues && random.nextInt(10) == 0
                                        ? "0000-00-00 00:00:00"
                                        : date() + " " + clock(false))));
        v.add(nullable(quoted(timestamp())));
        v.add(nullable(quoted(text(10).stripTrailing())));
        v.add(nullable(quoted(text(100))));
        v.add(nullable(quoted(pick("café", "naïve", "plain", "Ünïcødé-free", ""))));
        v.add(nullable(quoted(text(random.nextInt(3) == 0 ? 2000 : 50))));
        v.add(nullable(quoted(pick("red", "green", "blue"))));
        v.add(nullable(quoted(pick("", "x", "y,z", "x,y,z"))));
        v.add(nullable("X'" + hex(4) + "'"));
        v.add(nullable("X'" + hex(random.nextInt(50)) + "'"));
        v.add(nullable("X'" + hex(random.nextInt(5000)) + "'"));
        v.add(
                nullable(
                        quoted(
                                "{\"n\": "
                                        + random.nextInt(1000)
                                        + ", \"tags\": [\"a\", null, true]}")));
        v.add(
                nullable(
                        "ST_GeomFromText('LINESTRING("
                                + random.nextInt(100)
                                + " "
                                + random.nextInt(100)
                                + ", "
                                + random.nextDouble()
                                + " 5)')"));
        v.add(
                nullable(
                        "ST_GeomFromText('POINT("
                                + random.nextInt(180)
                                + " "
                                + random.nextInt(90)
                                + ")', 4326)"));
        return v.toString();
    }

    private String nullable(String literal) {
        return random.nextInt(10) == 0 ? "NULL" : literal;
    }

    private String pick(String... choices) {
        return choices[random.nextInt(choices.length)];
    }

    private String decimal(int integerDigits, int scale) {
        BigInteger unscaled =
                new BigInteger(integerDigits * 3 + scale * 3, random)
                        .mod(BigInteger.TEN.pow(integerDigits + scale));
        BigDecimal value = new BigDecimal(unscaled, scale);
        return (random.nextBoolean() ? "-" : "") + value.toPlainString();
    }

    private String bits(int n) {
        StringBuilder text = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            text.append(random.nextBoolean() ? '1' : '0');
        }
        return text.toString();
    }

    private String date() {
        return String.format(
                "%04d-%02d-%02d",
                1000 + random.nextInt(9000), 1 + random.nextInt(12), 1 + random.nextInt(28));
    }

    private String clock(boolean fraction) {
        String text =
                String.format(
                        "%02d:%02d:%02d",
                        random.nextInt(24), random.nextInt(60), random.nextInt(60));
        return fraction ? text + "." + String.format("%06d", random.nextInt(1_000_000)) : text;
    }

    private String time() {
        return (random.nextBoolean() ? "-" : "")
                + random.nextInt(839)
                + ":"
                + String.format(
                        "%02d:%02d.%06d",
                        random.nextInt(60), random.nextInt(60), random.nextInt(1_000_000));
    }

    private String timestamp() {
        long second = 1 + (random.nextLong() & Long.MAX_VALUE) % 2_147_483_000L;
        java.time.LocalDateTime time =
                java.time.LocalDateTime.ofEpochSecond(second, 0, java.time.ZoneOffset.UTC);
        return time.toLocalDate()
                + " "
                + time.toLocalTime()
                        .format(java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss"))
                + "."
                + String.format("%06d", random.nextInt(1_000_000));
    }

    private String text(int max) {
        int n = random.nextInt(max + 1);
        StringBuilder text = new StringBuilder(n);
        String alphabet =
                "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 äöüßéç€漢字";
        for (int i = 0; i < n; i++) {
            if (random.nextInt(50) == 0) {
                text.append("😀");
            } else {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
        }
        return text.toString();
    }

    private static String quoted(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'";
    }

    private String hex(int bytes) {
        byte[] value = new byte[bytes];
        random.nextBytes(value);
        return HexFormat.of().formatHex(value);
    }
}

package io.changegrid.fetchers.mysql.schema;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server settings that decide how a DDL statement turns into columns: which family and version
 * runs (display widths, JSON, executable comments), the server's default character set (for {@code
 * CREATE DATABASE} without one), what {@code utf8} means, whether TIMESTAMP columns are nullable by
 * default, and whether table names are stored in lower case.
 *
 * @param flavor MariaDB or MySQL
 * @param version the version as a number, {@code major * 10000 + minor * 100 + patch}, e.g. {@code
 *     101119}; executable comments {@code /*!NNNNN ... *}{@code /} count up to it
 * @param serverCharset {@code @@character_set_server}
 * @param utf8Charset the character set {@code utf8} stands for: {@code utf8mb3}, or {@code utf8mb4}
 *     on MariaDB without {@code UTF8_IS_UTF8MB3} in {@code @@old_mode}
 * @param explicitDefaultsForTimestamp {@code @@explicit_defaults_for_timestamp}; when off,
 *     TIMESTAMP columns are NOT NULL unless declared NULL
 * @param lowerCaseTableNames {@code @@lower_case_table_names} is 1: database and table names are
 *     stored in lower case
 */
public record ServerDialect(
        Flavor flavor,
        int version,
        String serverCharset,
        String utf8Charset,
        boolean explicitDefaultsForTimestamp,
        boolean lowerCaseTableNames) {

    /** The server family. */
    public enum Flavor {
        MARIADB,
        MYSQL
    }

    private static final Pattern VERSION = Pattern.compile("^(\\d+)\\.(\\d+)\\.(\\d+)");

    public ServerDialect {
        Objects.requireNonNull(flavor, "flavor");
        if (!"utf8mb3".equals(utf8Charset) && !"utf8mb4".equals(utf8Charset)) {
            throw new IllegalArgumentException(
                    "utf8 must mean utf8mb3 or utf8mb4: utf8Charset=" + utf8Charset);
        }
        serverCharset = MySqlCharsets.canonical(serverCharset, utf8Charset);
    }

    /**
     * MariaDB 10.11 with its defaults and the given server character set: {@code utf8} is {@code
     * utf8mb3}, explicit defaults for TIMESTAMP, case-sensitive names.
     */
    public static ServerDialect mariaDb(String serverCharset) {
        return new ServerDialect(Flavor.MARIADB, 101100, serverCharset, "utf8mb3", true, false);
    }

    /** MySQL 8.0 with its defaults: {@code utf8mb4} server character set, case-sensitive names. */
    public static ServerDialect mySql8() {
        return new ServerDialect(Flavor.MYSQL, 80036, "utf8mb4", "utf8mb3", true, false);
    }

    /**
     * The number of a version string such as {@code 10.11.19-MariaDB-log}.
     *
     * @throws IllegalArgumentException if it does not start with {@code major.minor.patch}
     */
    public static int versionNumber(String version) {
        Matcher m = VERSION.matcher(version);
        if (!m.find()) {
            throw new IllegalArgumentException("unrecognised server version: version=" + version);
        }
        return Integer.parseInt(m.group(1)) * 10000
                + Integer.parseInt(m.group(2)) * 100
                + Integer.parseInt(m.group(3));
    }

    /**
     * The canonical name of a character set as information_schema shows it, {@code utf8} resolved.
     *
     * @throws IllegalArgumentException for a character set the server does not have
     */
    public String charset(String name) {
        return MySqlCharsets.canonical(name, utf8Charset);
    }

    /**
     * The character set a collation belongs to; empty for MariaDB's {@code uca1400_*} collations,
     * which apply to whichever Unicode character set the context has.
     *
     * @throws IllegalArgumentException for a collation of no known character set
     */
    public Optional<String> charsetOfCollation(String collation) {
        return MySqlCharsets.charsetOfCollation(collation, utf8Charset);
    }

    /** A database or table name as the server stores it. */
    public String storedName(String name) {
        return lowerCaseTableNames ? name.toLowerCase(Locale.ROOT) : name;
    }
}

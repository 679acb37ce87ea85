package io.changegrid.fetchers.mysql;

/**
 * How one column's binlog cell becomes a frame value. Chosen once per column and schema version by
 * {@link RowConverter}, so the per-row work is a switch over this.
 */
enum CellKind {
    /** Signed integers and YEAR: the library's Integer/Long, widened to long. */
    SIGNED,
    /** TINYINT UNSIGNED: the library sign-extends one byte. */
    UNSIGNED_8,
    /** SMALLINT UNSIGNED. */
    UNSIGNED_16,
    /** MEDIUMINT UNSIGNED. */
    UNSIGNED_24,
    /** INT UNSIGNED. */
    UNSIGNED_32,
    /** BIGINT UNSIGNED: the raw 64 bits, which the frame encoder writes as UINT64. */
    UNSIGNED_64,
    /** FLOAT, DOUBLE, DECIMAL, BIT and the temporal types: already in their final Java form. */
    AS_IS,
    /** Character data in UTF-8 (utf8mb4, utf8mb3, ascii): the bytes go into the frame untouched. */
    UTF8_TEXT,
    /** Character data in another charset: decoded to a String. */
    CHARSET_TEXT,
    /** BINARY(n): the server strips trailing zero bytes in the binlog; padded back to n. */
    BINARY_FIXED,
    /** VARBINARY, BLOB: bytes as they are. */
    BYTES,
    /** ENUM: the member index, 1-based, 0 for the invalid value. */
    ENUM,
    /** SET: a bitmask of members. */
    SET,
    /** MySQL JSON: the server's binary JSON, turned into JSON text. */
    JSON_BINARY,
    /** GEOMETRY: 4 bytes of SRID (little-endian), then WKB. */
    GEOMETRY,
    /** MariaDB's UUID: 16 bytes, carried as its text ({@link FixedBinaryText}). */
    UUID,
    /** MariaDB's INET4: 4 bytes, carried as dotted decimal. */
    INET4,
    /** MariaDB's INET6: 16 bytes, carried as the server's text. */
    INET6
}

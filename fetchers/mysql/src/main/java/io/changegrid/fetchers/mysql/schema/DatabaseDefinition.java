package io.changegrid.fetchers.mysql.schema;

import java.util.Objects;

/**
 * A database and its default character set, which tables created in it without one inherit.
 *
 * @param name the database name
 * @param charset the default character set, e.g. {@code utf8mb4}
 */
public record DatabaseDefinition(String name, String charset) {

    public DatabaseDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(charset, "charset");
    }
}

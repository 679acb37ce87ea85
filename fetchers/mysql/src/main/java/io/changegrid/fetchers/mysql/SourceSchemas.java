package io.changegrid.fetchers.mysql;

import io.changegrid.fetchers.mysql.schema.InformationSchemaReader;
import io.changegrid.fetchers.mysql.schema.SchemaSnapshot;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Reads the source's schemas as they are now, on a connection of its own: for a skipped statement
 * ({@code source.ddlSkip}) and for {@code relay recover-schema}. Unlike {@link StartSnapshot} it
 * takes no lock and no position: the caller records the result at the position it is at.
 *
 * <p>Stateless apart from its settings; each call opens and closes a connection.
 */
final class SourceSchemas {

    private final BinlogFetcherConfig config;

    SourceSchemas(BinlogFetcherConfig config) {
        this.config = config;
    }

    /**
     * Every non-system table's schema from information_schema.
     *
     * @throws FetchFailedException naming the source if it cannot be read
     */
    SchemaSnapshot read() {
        try (Connection connection = config.connect()) {
            return new InformationSchemaReader().read(connection);
        } catch (SQLException e) {
            throw new FetchFailedException(
                    "source schemas could not be read from information_schema: source="
                            + config.host()
                            + ":"
                            + config.port()
                            + ", error="
                            + e.getMessage(),
                    e);
        }
    }
}

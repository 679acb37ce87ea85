package io.changegrid.fetchers.goldengate;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.policy.capture.TableFilter;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds the source schema registry at start: the captured tables of GoldenGate's schema files,
 * overridden by those of {@code source.tables}, registered in name order so that table ids are the
 * same on every relay with the same configuration and files.
 */
final class SourceTables {

    private SourceTables() {}

    static SchemaRegistry registry(GoldenGateFetcherConfig config) throws IOException {
        Map<String, TableDefinition> tables = new TreeMap<>();
        if (config.schemaDirectory() != null) {
            tables.putAll(SchemaFiles.read(config.schemaDirectory()));
        }
        for (String entry : config.tables()) {
            TableDefinition table = ConfiguredTables.parse(entry);
            tables.put(table.qualifiedName(), table);
        }
        SchemaRegistry registry = new SchemaRegistry();
        TableFilter capture = config.capture();
        for (TableDefinition table : tables.values()) {
            if (capture.matches(table.database(), table.table())) {
                try {
                    registry.register(
                            table.database(), table.table(), table.columns(), table.key());
                } catch (IllegalArgumentException e) {
                    throw new FetchFailedException(
                            "table definition refused: origin="
                                    + table.origin()
                                    + ", problem="
                                    + e.getMessage(),
                            e);
                }
            }
        }
        return registry;
    }
}

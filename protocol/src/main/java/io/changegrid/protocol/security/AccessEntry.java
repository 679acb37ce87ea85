package io.changegrid.protocol.security;

import io.changegrid.protocol.TableGlob;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One principal's entry of the access file ({@link AccessFile}), as written. Immutable.
 *
 * @param principal the principal's name
 * @param tables what it may stream; empty for nothing
 * @param columns per table glob, in the file's order (first match wins), the only columns it may
 *     see
 * @param schemas whose schemas it may read beyond its tables
 * @param operations whether it holds the operations role ({@code /v1/status}, {@code /metrics}, the
 *     console)
 */
public record AccessEntry(
        String principal,
        List<TableGlob> tables,
        Map<TableGlob, Set<String>> columns,
        List<TableGlob> schemas,
        boolean operations) {

    public AccessEntry {
        tables = List.copyOf(tables);
        columns = Collections.unmodifiableMap(new LinkedHashMap<>(columns));
        schemas = List.copyOf(schemas);
    }
}

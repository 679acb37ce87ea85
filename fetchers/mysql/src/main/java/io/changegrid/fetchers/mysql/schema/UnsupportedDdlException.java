package io.changegrid.fetchers.mysql.schema;

import java.util.List;

/**
 * A statement the tracker cannot turn into a schema it is sure of. Internal: {@link SchemaTracker}
 * reports it as {@link DdlOutcome.Unsupported}.
 */
final class UnsupportedDdlException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The tables the statement names, as far as they are known. */
    private final transient List<TableName> tables;

    UnsupportedDdlException(String reason, List<TableName> tables) {
        super(reason);
        this.tables = List.copyOf(tables);
    }

    UnsupportedDdlException(String reason) {
        this(reason, List.of());
    }

    List<TableName> tables() {
        return tables;
    }
}

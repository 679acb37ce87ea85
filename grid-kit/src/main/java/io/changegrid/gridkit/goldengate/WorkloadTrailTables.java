package io.changegrid.gridkit.goldengate;

import io.changegrid.gridkit.load.WorkloadTables;
import java.util.ArrayList;
import java.util.List;

/**
 * The load generator's tables as a GoldenGate relay's {@code source.tables} declares them: the JSON
 * formatter carries no SQL types, so a relay reading a trail of the workload is told each column's
 * value type. The columns are those {@link WorkloadTables} creates, in its order; the two must
 * change together.
 */
public final class WorkloadTrailTables {

    /** The note columns of every workload table ({@code note1..note5}). */
    private static final int NOTE_COLUMNS = 5;

    private WorkloadTrailTables() {}

    /** One {@code database.table(column value:type ..., ...)} entry per table. */
    public static List<String> declarations(WorkloadTables tables) {
        List<String> declarations = new ArrayList<>();
        for (String table : tables.names()) {
            StringBuilder columns =
                    new StringBuilder(tables.database())
                            .append('.')
                            .append(table)
                            .append("(id value:int64 not null key, account value:int64 not null,")
                            .append(" quantity value:int64, amount value:decimal,")
                            .append(" status value:string, code value:string, name value:string,")
                            .append(" created value:datetime, updated value:timestamp");
            for (int c = 1; c <= NOTE_COLUMNS; c++) {
                columns.append(", note").append(c).append(" value:string");
            }
            declarations.add(columns.append(')').toString());
        }
        return declarations;
    }
}

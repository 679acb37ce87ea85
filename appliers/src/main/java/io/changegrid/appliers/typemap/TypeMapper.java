package io.changegrid.appliers.typemap;

import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * Maps a target's column types: one implementation per target dialect. Stateless and thread-safe.
 */
public interface TypeMapper {

    /** The target's name in messages, e.g. {@code PostgreSQL}. */
    String target();

    /**
     * The target form of one column.
     *
     * @return the column, or {@code null} if it has no lossless form (then {@link #refusal} says
     *     why)
     */
    TargetColumn map(Column column);

    /**
     * A column {@link #map} gave, as it is bound into the existing target column, which stores text
     * in {@code charset}: by default unchanged.
     *
     * @param charset the target column's character set as the target names it, or {@code null} (not
     *     a text column, or a target without a character set per column)
     */
    default TargetColumn storedIn(TargetColumn column, String charset) {
        return column;
    }

    /** Why {@link #map} refuses the column; only called for refused columns. */
    String refusal(Column column);

    /**
     * Every column of a table in its target form.
     *
     * @throws UnmappableTypeException naming every column that has none
     */
    default List<TargetColumn> mapAll(TableSchema table) {
        List<TargetColumn> columns = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (Column column : table.columns()) {
            TargetColumn mapped = map(column);
            if (mapped == null) {
                problems.add(
                        "column="
                                + column.name()
                                + ", type="
                                + column.type()
                                + ", sourceType="
                                + column.sourceType()
                                + ": "
                                + refusal(column));
            } else {
                columns.add(mapped);
            }
        }
        if (!problems.isEmpty()) {
            throw new UnmappableTypeException(target(), table.qualifiedName(), problems);
        }
        return columns;
    }
}

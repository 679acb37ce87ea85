package io.changegrid.gridkit.logminer;

/**
 * A column as the stand-in's {@code all_tab_columns} describes it, in Oracle's terms.
 *
 * @param dataType {@code DATA_TYPE}, e.g. {@code NUMBER}, {@code TIMESTAMP(6)}
 * @param length {@code DATA_LENGTH} (and {@code CHAR_LENGTH} of character types)
 * @param precision {@code DATA_PRECISION}, or null
 * @param scale {@code DATA_SCALE}, or null
 */
public record StandInColumn(
        String name,
        String dataType,
        int length,
        Integer precision,
        Integer scale,
        boolean nullable) {

    public static StandInColumn number(String name, int precision, int scale, boolean nullable) {
        return new StandInColumn(name, "NUMBER", 22, precision, scale, nullable);
    }

    public static StandInColumn of(String name, String dataType, int length) {
        return new StandInColumn(name, dataType, length, null, null, true);
    }

    boolean isCharacter() {
        return dataType.endsWith("CHAR2") || dataType.endsWith("CHAR");
    }
}

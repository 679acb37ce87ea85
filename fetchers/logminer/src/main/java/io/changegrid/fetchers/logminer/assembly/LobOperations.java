package io.changegrid.fetchers.logminer.assembly;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a LOB operation row of a captured table refers to. LogMiner writes a LOB whose value is not
 * inline in the row's {@code SQL_REDO} (longer than the inline size, or written through {@code
 * DBMS_LOB}) as a PL/SQL block spread over rows: {@code SELECT_LOB_LOCATOR} opens it and names the
 * column ({@code select "BODY" into loc_c from "SHOP"."DOCS" where ... for update;}), then {@code
 * LOB_WRITE}, {@code LOB_TRIM} and {@code LOB_ERASE} rows change the located LOB without naming it
 * again. The fetcher does not rebuild such values, so a transaction with one is refused at its
 * commit, naming the table and the column: never published without it, never skipped.
 *
 * <p>Stateless.
 */
final class LobOperations {

    /** {@code select "COLUMN" into loc_x from "OWNER"."TABLE"}: the locator's column. */
    private static final Pattern LOCATOR =
            Pattern.compile(
                    "select\\s+\"((?:[^\"]|\"\")+)\"\\s+into\\s+loc_", Pattern.CASE_INSENSITIVE);

    private LobOperations() {}

    /** Whether the operation code is one of LogMiner's LOB operations. */
    static boolean isLob(int operationCode) {
        return operationCode == OperationCode.SELECT_LOB_LOCATOR
                || operationCode == OperationCode.LOB_WRITE
                || operationCode == OperationCode.LOB_TRIM
                || operationCode == OperationCode.LOB_ERASE;
    }

    /** The column a {@code SELECT_LOB_LOCATOR} row's {@code SQL_REDO} locates, or null. */
    static String locatedColumn(String sqlRedo) {
        if (sqlRedo == null) {
            return null;
        }
        Matcher matcher = LOCATOR.matcher(sqlRedo);
        return matcher.find() ? matcher.group(1).replace("\"\"", "\"") : null;
    }

    /** Oracle's name of a LOB operation code. */
    static String name(int operationCode) {
        return switch (operationCode) {
            case OperationCode.SELECT_LOB_LOCATOR -> "SEL_LOB_LOCATOR";
            case OperationCode.LOB_WRITE -> "LOB_WRITE";
            case OperationCode.LOB_TRIM -> "LOB_TRIM";
            case OperationCode.LOB_ERASE -> "LOB_ERASE";
            default -> String.valueOf(operationCode);
        };
    }

    /** The refusal of a transaction holding a LOB operation on {@code table}'s {@code column}. */
    static String refusal(int operationCode, String table, String column) {
        return "LOB value written outside the row's SQL_REDO, which the fetcher does not rebuild:"
                + " operation="
                + name(operationCode)
                + ", table="
                + table
                + ", column="
                + (column == null ? "unknown (no SEL_LOB_LOCATOR read before it)" : column)
                + "; LOB values are carried only inline in INSERT/UPDATE SQL_REDO; exclude the"
                + " table (capture.exclude) or keep the column's values inline";
    }
}

package io.changegrid.appliers.typemap;

import java.util.regex.Pattern;

/**
 * The shape of a MySQL/MariaDB column type declaration as a MySQL or MariaDB relay sends it ({@code
 * COLUMN_TYPE} plus {@code character set}, see the MySQL fetcher's {@code MySqlColumnTypes}): a
 * type name, optional parameters, and modifier words. {@link MariaDbTypes} writes such a
 * declaration into target DDL as it is, so a relay (or anyone who can pose as one) could otherwise
 * put any SQL there: {@code int); DROP TABLE x; --} is a type name whose first word is {@code int}.
 * Anything else is refused before it reaches a statement.
 *
 * <p>Parameters are integers ({@code decimal(10,2)}) or quoted ENUM/SET labels, escaped as {@code
 * COLUMN_TYPE} shows them: a quote doubled, a backslash before any character. The backslash is an
 * escape because the applier's sessions set their own {@code sql_mode}, without {@code
 * NO_BACKSLASH_ESCAPES} (see {@code MariaDbDialect}); that is what lets this grammar know where a
 * label ends exactly as the server will.
 */
final class MySqlTypeGrammar {

    private static final String NAME = "[a-z][a-z0-9_]*";
    private static final String LABEL = "'(?:[^'\\\\]|''|\\\\.)*'";
    private static final String NUMBERS = "\\d{1,10}(?:\\s*,\\s*\\d{1,10})?";
    private static final String LABELS = LABEL + "(?:\\s*,\\s*" + LABEL + ")*";
    private static final String MODIFIER =
            "(?:unsigned|signed|zerofill|binary|ascii|unicode|compressed|precision"
                    + "|(?:character\\s+set|charset|collate)\\s+[a-z0-9_]+)";

    private static final Pattern DECLARATION =
            Pattern.compile(
                    "\\s*"
                            + NAME
                            + "(?:\\s+precision)?"
                            + "(?:\\s*\\(\\s*(?:"
                            + NUMBERS
                            + "|"
                            + LABELS
                            + ")\\s*\\))?"
                            + "(?:\\s+"
                            + MODIFIER
                            + ")*\\s*",
                    Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    private MySqlTypeGrammar() {}

    /** Whether {@code declaration} is one column type and nothing else. */
    static boolean matches(String declaration) {
        return declaration != null && DECLARATION.matcher(declaration).matches();
    }
}

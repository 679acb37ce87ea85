package io.changegrid.config;

import java.util.List;

/**
 * Renders a schema as the Markdown reference in {@code docs/}, so the docs come from the
 * definitions.
 */
public final class ConfigReference {

    private ConfigReference() {}

    /** A Markdown page with one table row per setting. */
    public static String markdown(String title, String introduction, ConfigSchema schema) {
        StringBuilder page = new StringBuilder();
        page.append("# ").append(title).append("\n\n");
        page.append("<!-- Generated from the key definitions; do not edit by hand. -->\n\n");
        page.append(introduction).append("\n\n");
        // Every page says it: references are resolved for every program (ConfigSchema.load).
        page.append(
                "Any value may instead be a reference, `${env:NAME}` or `${file:/path}`, resolved"
                        + " at start; passwords belong there rather than in the file or on a"
                        + " command line (see [security.md](security.md)).\n\n");
        page.append(table(schema.keys()));
        return page.toString();
    }

    /**
     * A second-level section of a page: a heading, a paragraph and one table row per setting, e.g.
     * the settings one kind of source adds to a program's.
     */
    public static String section(String heading, String introduction, List<ConfigKey<?>> keys) {
        return "\n## " + heading + "\n\n" + introduction + "\n\n" + table(keys);
    }

    private static String table(List<ConfigKey<?>> keys) {
        StringBuilder page = new StringBuilder();
        page.append("| key | type | default | rule | description |\n|---|---|---|---|---|\n");
        for (ConfigKey<?> key : keys) {
            page.append("| `")
                    .append(key.path())
                    .append("` | ")
                    .append(key.kind().describe())
                    .append(" | ")
                    .append(defaultText(key))
                    .append(" | ")
                    .append(key.rule())
                    .append(" | ")
                    .append(key.doc().replace("|", "\\|"))
                    .append(" |\n");
        }
        return page.toString();
    }

    private static <T> String defaultText(ConfigKey<T> key) {
        if (key.isRequired()) {
            return "*required*";
        }
        return key.secret() ? "****" : "`" + key.kind().format(key.defaultValue()) + "`";
    }
}

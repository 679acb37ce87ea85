package io.changegrid.relay.security;

import io.changegrid.protocol.security.AccessEntry;
import io.changegrid.protocol.security.AccessFile;
import java.nio.file.Path;
import java.util.Map;

/**
 * The access file ({@code security.access}, read by {@link AccessFile}) as the relay applies it:
 * each principal's entry as a {@link Grant}. A principal the file does not name may do nothing.
 * Immutable.
 */
public final class AccessRules {

    private final AccessFile file; // null: everything for everyone

    private AccessRules(AccessFile file) {
        this.file = file;
    }

    /** No access file: every principal may do everything. */
    public static AccessRules everything() {
        return new AccessRules(null);
    }

    /**
     * Reads an access file.
     *
     * @throws io.changegrid.config.ConfigException listing every problem, each naming its path
     */
    public static AccessRules read(Path file) {
        return new AccessRules(AccessFile.read(file));
    }

    /**
     * Parses an access file's YAML tree.
     *
     * @throws io.changegrid.config.ConfigException listing every problem, each naming its path
     */
    public static AccessRules parse(Map<String, Object> tree) {
        return new AccessRules(AccessFile.parse(tree));
    }

    /** What a principal may do; nothing when the file does not name it. */
    public Grant grant(String principal) {
        if (file == null) {
            return Grant.all(principal);
        }
        AccessEntry entry = file.entry(principal);
        return entry == null
                ? Grant.nothing(principal)
                : Grant.of(
                        principal,
                        entry.tables(),
                        entry.columns(),
                        entry.schemas(),
                        entry.operations());
    }
}

package io.changegrid.policy.config;

import io.changegrid.policy.transform.ColumnSource;
import io.changegrid.policy.transform.Masking;
import java.util.Map;
import java.util.Set;

/**
 * Reads masks ({@code hash: {salt: s}}, {@code fixed: '*'}, {@code truncate: 4}) and added-column
 * sources ({@code constant: eu}, {@code source: database|databaseHash|scn|commitTime|sourceId}).
 */
final class TransformReader {

    private static final Map<String, ColumnSource.Metadata> METADATA =
            Map.of(
                    "database", ColumnSource.Metadata.DATABASE,
                    "databaseHash", ColumnSource.Metadata.DATABASE_HASH,
                    "scn", ColumnSource.Metadata.SCN,
                    "commitTime", ColumnSource.Metadata.COMMIT_TIME,
                    "sourceId", ColumnSource.Metadata.SOURCE_ID);

    private TransformReader() {}

    static Masking read(String path, Object value, Problems problems) {
        Map<String, Object> map = problems.map(path, value, Set.of("hash", "fixed", "truncate"));
        if (map.size() != 1) {
            problems.add(path, "expected exactly one of hash, fixed, truncate", value);
            return null;
        }
        if (map.containsKey("hash")) {
            Map<String, Object> hash =
                    problems.map(path + ".hash", map.get("hash"), Set.of("salt"));
            Object salt = hash.get("salt");
            if (salt == null) {
                problems.add(path + ".hash.salt", "missing", null);
                return null;
            }
            return new Masking.Hash(problems.string(path + ".hash.salt", salt));
        }
        if (map.containsKey("fixed")) {
            String fill = problems.string(path + ".fixed", map.get("fixed"));
            if (fill.codePointCount(0, fill.length()) != 1) {
                problems.add(path + ".fixed", "expected one character", fill);
                return null;
            }
            return new Masking.Fixed(fill.codePointAt(0));
        }
        int length = problems.integer(path + ".truncate", map.get("truncate"));
        if (length < 0) {
            problems.add(path + ".truncate", "expected a length >= 0", length);
            return null;
        }
        return new Masking.Truncate(length);
    }

    static ColumnSource source(String path, Object value, Problems problems) {
        Map<String, Object> map = problems.map(path, value, Set.of("constant", "source"));
        if (map.size() != 1) {
            problems.add(path, "expected exactly one of constant, source", value);
            return null;
        }
        if (map.containsKey("constant")) {
            return new ColumnSource.Constant(
                    problems.string(path + ".constant", map.get("constant")));
        }
        String name = problems.string(path + ".source", map.get("source"));
        ColumnSource.Metadata metadata = METADATA.get(name);
        if (metadata == null) {
            problems.add(
                    path + ".source",
                    "unknown source, expected one of " + new java.util.TreeSet<>(METADATA.keySet()),
                    name);
        }
        return metadata;
    }
}

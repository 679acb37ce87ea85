package io.changegrid.gridkit.load;

import java.util.Locale;

/**
 * The share of inserts, updates and deletes among the row changes, in percent.
 *
 * <pre>70,20,10   or   insert=70,update=20,delete=10</pre>
 */
public record OperationMix(int insert, int update, int delete) {

    /** The default: mostly new rows, some changed, a few removed. */
    public static final OperationMix DEFAULT = new OperationMix(70, 20, 10);

    public OperationMix {
        if (insert < 0 || update < 0 || delete < 0 || insert + update + delete != 100) {
            throw new IllegalArgumentException(
                    "mix must be three shares >= 0 adding up to 100: value="
                            + insert
                            + ","
                            + update
                            + ","
                            + delete);
        }
        if (insert == 0) {
            throw new IllegalArgumentException(
                    "mix needs inserts: updates and deletes change rows inserted before: value=0,"
                            + update
                            + ","
                            + delete);
        }
    }

    /**
     * Parses {@code 70,20,10} or {@code insert=70,update=20,delete=10} (any order, missing = 0).
     *
     * @throws IllegalArgumentException naming the text
     */
    public static OperationMix parse(String text) {
        String[] parts = text.split(",");
        int[] shares = new int[3];
        try {
            if (text.contains("=")) {
                for (String part : parts) {
                    String[] pair = part.split("=", 2);
                    int at =
                            switch (pair[0].trim().toLowerCase(Locale.ROOT)) {
                                case "insert" -> 0;
                                case "update" -> 1;
                                case "delete" -> 2;
                                default ->
                                        throw new IllegalArgumentException(
                                                "unknown operation, expected insert, update or delete:"
                                                        + " value="
                                                        + pair[0]);
                            };
                    shares[at] = Integer.parseInt(pair[1].trim());
                }
            } else if (parts.length == 3) {
                for (int i = 0; i < 3; i++) {
                    shares[i] = Integer.parseInt(parts[i].trim());
                }
            } else {
                throw new IllegalArgumentException(
                        "mix must be insert,update,delete percentages: value=" + text);
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("mix shares must be integers: value=" + text, e);
        }
        return new OperationMix(shares[0], shares[1], shares[2]);
    }

    /** {@code 70/20/10}. */
    @Override
    public String toString() {
        return insert + "/" + update + "/" + delete;
    }
}

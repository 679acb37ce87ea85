package io.changegrid.policy.select;

import java.util.List;

/**
 * The parsed form of a {@code where:} expression, independent of any schema. Immutable; compiled
 * against a table schema by {@link RowFilter#compile}.
 */
public sealed interface Predicate {

    /** Which row image a column reference reads. */
    enum Image {
        /** The after image, or the before image of a DELETE. */
        DEFAULT,
        BEFORE,
        AFTER
    }

    /** A comparison operator. */
    enum Comparison {
        EQ("="),
        NE("!="),
        LT("<"),
        LE("<="),
        GT(">"),
        GE(">=");

        private final String symbol;

        Comparison(String symbol) {
            this.symbol = symbol;
        }

        /** Whether {@code order} (negative, zero, positive) satisfies this operator. */
        public boolean accepts(int order) {
            switch (this) {
                case EQ:
                    return order == 0;
                case NE:
                    return order != 0;
                case LT:
                    return order < 0;
                case LE:
                    return order <= 0;
                case GT:
                    return order > 0;
                default:
                    return order >= 0;
            }
        }

        public String symbol() {
            return symbol;
        }
    }

    /** A literal as written: its kind decides how it converts to a column's value type. */
    record Literal(Kind kind, String text) {
        /** The kinds of literal the grammar has. */
        public enum Kind {
            INTEGER,
            DECIMAL,
            STRING,
            BOOLEAN,
            NULL
        }

        public static final Literal NULL = new Literal(Kind.NULL, "NULL");
    }

    /** {@code [before.|after.]column}. */
    record ColumnRef(Image image, String column) {}

    /** {@code column op literal}. */
    record Compare(ColumnRef column, Comparison op, Literal value) implements Predicate {}

    /** {@code column [NOT] IN (literal, ...)}. */
    record In(ColumnRef column, List<Literal> values, boolean negated) implements Predicate {
        public In {
            values = List.copyOf(values);
        }
    }

    /** {@code column [NOT] LIKE 'pattern' [ESCAPE 'c']}; the escape defaults to backslash. */
    record Like(ColumnRef column, String pattern, char escape, boolean negated)
            implements Predicate {}

    /** {@code column IS [NOT] NULL}. */
    record IsNull(ColumnRef column, boolean negated) implements Predicate {}

    /** {@code left AND right}. */
    record And(Predicate left, Predicate right) implements Predicate {}

    /** {@code left OR right}. */
    record Or(Predicate left, Predicate right) implements Predicate {}

    /** {@code NOT operand}. */
    record Not(Predicate operand) implements Predicate {}
}

package io.changegrid.policy.select;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.TextValues;
import io.changegrid.events.value.ValueType;
import io.changegrid.policy.select.Predicate.ColumnRef;
import io.changegrid.policy.select.Predicate.Image;
import io.changegrid.policy.select.Predicate.Literal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A {@link Predicate} compiled against one table schema version: column indexes and literal values
 * are resolved once, so evaluating a row only reads values and compares them. NULL follows SQL's
 * three-valued logic; a row is selected only when the predicate is TRUE. Immutable and thread-safe.
 */
public final class RowFilter {

    /** Selects every row. */
    public static final RowFilter ALL =
            new RowFilter((op, before, after) -> Truth.TRUE, new int[0], new boolean[0]);

    /** One compiled node of the predicate tree. */
    @FunctionalInterface
    private interface Node {
        Truth test(Operation op, Object[] before, Object[] after);
    }

    private final Node root;
    private final int[] columns;

    /** Per entry of {@link #columns}: whether its value is read, not only whether it is NULL. */
    private final boolean[] valuesRead;

    private RowFilter(Node root, int[] columns, boolean[] valuesRead) {
        this.root = root;
        this.columns = columns;
        this.valuesRead = valuesRead;
    }

    /**
     * Compiles a predicate against a schema.
     *
     * @param problems receives one message per problem (unknown column, literal that does not fit
     *     its column's type); the returned filter is only usable when none were reported
     */
    public static RowFilter compile(
            Predicate predicate, TableSchema schema, Consumer<String> problems) {
        Compiler compiler = new Compiler(schema, problems);
        Node root = compiler.node(predicate);
        int[] columns = compiler.columns.stream().mapToInt(Integer::intValue).toArray();
        boolean[] valuesRead = new boolean[columns.length];
        for (int i = 0; i < columns.length; i++) {
            valuesRead[i] = compiler.valueColumns.contains(columns[i]);
        }
        return new RowFilter(root, columns, valuesRead);
    }

    /**
     * How many columns the predicate reads: a row's images need only the values of {@link
     * #column(int)} {@code 0..columnsRead()-1} for {@link #test} (of those whose {@linkplain
     * #readsValue value is not read}, any non-null object stands for a value); their other entries
     * may be anything.
     */
    public int columnsRead() {
        return columns.length;
    }

    /** The index of the {@code i}-th column the predicate reads, ascending. */
    public int column(int i) {
        return columns[i];
    }

    /**
     * Whether the predicate reads the {@code i}-th column's value, and not only whether it is NULL
     * ({@code IS [NOT] NULL} alone): a source reading in place need not decode or copy it then.
     */
    public boolean readsValue(int i) {
        return valuesRead[i];
    }

    /** Whether the row change is selected: the predicate is TRUE for its images. */
    public boolean test(ChangeEvent event) {
        return test(event.operation(), event.before(), event.after());
    }

    /**
     * Whether a row change is selected. Unqualified columns read the after image, or the before
     * image of a DELETE; a reference to an image the change lacks reads NULL.
     */
    public boolean test(Operation op, Object[] before, Object[] after) {
        return evaluate(op, before, after) == Truth.TRUE;
    }

    /** The predicate's truth value for a row change. */
    public Truth evaluate(Operation op, Object[] before, Object[] after) {
        return root.test(op, before, after);
    }

    /** Compiles one predicate tree, collecting problems instead of stopping at the first. */
    private static final class Compiler {
        private final TableSchema schema;
        private final Consumer<String> problems;
        private final java.util.SortedSet<Integer> columns = new java.util.TreeSet<>();

        /** The columns whose values are read, not only tested for NULL. */
        private final java.util.Set<Integer> valueColumns = new java.util.HashSet<>();

        Compiler(TableSchema schema, Consumer<String> problems) {
            this.schema = schema;
            this.problems = problems;
        }

        Node node(Predicate predicate) {
            if (predicate instanceof Predicate.And) {
                Node left = node(((Predicate.And) predicate).left());
                Node right = node(((Predicate.And) predicate).right());
                return (op, b, a) -> left.test(op, b, a).and(right.test(op, b, a));
            }
            if (predicate instanceof Predicate.Or) {
                Node left = node(((Predicate.Or) predicate).left());
                Node right = node(((Predicate.Or) predicate).right());
                return (op, b, a) -> left.test(op, b, a).or(right.test(op, b, a));
            }
            if (predicate instanceof Predicate.Not) {
                Node operand = node(((Predicate.Not) predicate).operand());
                return (op, b, a) -> operand.test(op, b, a).not();
            }
            if (predicate instanceof Predicate.IsNull) {
                Predicate.IsNull isNull = (Predicate.IsNull) predicate;
                Reader column = raw(isNull.column()); // NULL or not: text need not be decoded
                boolean negated = isNull.negated();
                return (op, b, a) -> Truth.of((column.read(op, b, a) == null) != negated);
            }
            if (predicate instanceof Predicate.Compare) {
                return compare((Predicate.Compare) predicate);
            }
            if (predicate instanceof Predicate.In) {
                return in((Predicate.In) predicate);
            }
            return like((Predicate.Like) predicate);
        }

        private Node compare(Predicate.Compare compare) {
            Reader column = reader(compare.column());
            if (compare.value().kind() == Literal.Kind.NULL) {
                // col = NULL is never TRUE in SQL; IS NULL is the way to ask.
                return (op, b, a) -> Truth.UNKNOWN;
            }
            Object literal = literal(compare.column(), compare.value());
            Predicate.Comparison comparison = compare.op();
            return (op, b, a) -> {
                Object value = column.read(op, b, a);
                return value == null
                        ? Truth.UNKNOWN
                        : Truth.of(comparison.accepts(ValueOrder.compare(value, literal)));
            };
        }

        private Node in(Predicate.In in) {
            Reader column = reader(in.column());
            List<Object> values = new ArrayList<>();
            boolean listHasNull = false;
            for (Literal literal : in.values()) {
                if (literal.kind() == Literal.Kind.NULL) {
                    listHasNull = true;
                } else {
                    values.add(literal(in.column(), literal));
                }
            }
            Object[] candidates = values.toArray();
            boolean hasNull = listHasNull;
            boolean negated = in.negated();
            return (op, b, a) -> {
                Object value = column.read(op, b, a);
                if (value == null) {
                    return Truth.UNKNOWN;
                }
                for (Object candidate : candidates) {
                    if (ValueOrder.compare(value, candidate) == 0) {
                        return Truth.of(!negated);
                    }
                }
                // x IN (1, NULL) is UNKNOWN, not FALSE, when x is not 1: SQL semantics.
                return hasNull ? Truth.UNKNOWN : Truth.of(negated);
            };
        }

        private Node like(Predicate.Like like) {
            Reader column = reader(like.column());
            int index = schema.indexOf(like.column().column());
            if (index >= 0) {
                switch (schema.column(index).type()) {
                    case STRING:
                    case JSON:
                        break;
                    default:
                        problems.accept(
                                "LIKE needs a text column: column="
                                        + like.column().column()
                                        + ", type="
                                        + schema.column(index).type());
                }
            }
            LikePattern pattern = LikePattern.compile(like.pattern(), like.escape());
            boolean negated = like.negated();
            return (op, b, a) -> {
                Object value = column.read(op, b, a);
                return value == null
                        ? Truth.UNKNOWN
                        : Truth.of(pattern.matches((String) value) != negated);
            };
        }

        private Object literal(ColumnRef ref, Literal literal) {
            int index = schema.indexOf(ref.column());
            if (index < 0) {
                return null; // already reported by reader()
            }
            try {
                return ValueOrder.convert(schema.column(index), literal);
            } catch (IllegalArgumentException e) {
                problems.accept(e.getMessage());
                return null;
            }
        }

        /** Reads a column's value, text decoded. */
        private Reader reader(ColumnRef ref) {
            Reader raw = raw(ref);
            int index = schema.indexOf(ref.column());
            if (index < 0) {
                return raw;
            }
            valueColumns.add(index);
            ValueType type = schema.column(index).type();
            // Text may arrive as the source's UTF-8 bytes (see TextValues): predicates see text.
            return TextValues.isText(type)
                    ? (op, b, a) -> TextValues.decoded(type, raw.read(op, b, a))
                    : raw;
        }

        /** Reads a column's entry as the image holds it: enough to tell NULL. */
        private Reader raw(ColumnRef ref) {
            int index = schema.indexOf(ref.column());
            if (index < 0) {
                problems.accept(
                        "unknown column: table="
                                + schema.qualifiedName()
                                + ", value="
                                + ref.column());
                return (op, b, a) -> null;
            }
            columns.add(index);
            Image image = ref.image();
            return (op, b, a) -> {
                Object[] row =
                        image == Image.BEFORE
                                ? b
                                : image == Image.AFTER ? a : op == Operation.DELETE ? b : a;
                return row == null ? null : row[index];
            };
        }
    }

    /** Reads one column of the chosen image. */
    @FunctionalInterface
    private interface Reader {
        Object read(Operation op, Object[] before, Object[] after);
    }
}

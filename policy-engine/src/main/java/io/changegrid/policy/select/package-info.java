/**
 * Selection: table patterns, column lists and the {@code where:} row predicate. A predicate is
 * tokenized and parsed once into a {@link io.changegrid.policy.select.Predicate} tree, then
 * compiled against each table schema version into a {@link io.changegrid.policy.select.RowFilter}
 * whose column indexes and literal values are resolved once.
 */
package io.changegrid.policy.select;

/**
 * How source columns become target columns: the SQL type a target table declares for each source
 * column, and how each value type is bound into a statement. Types with no lossless target form are
 * refused, naming the table and column.
 */
package io.changegrid.appliers.typemap;

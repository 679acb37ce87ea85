/**
 * Oracle's column types as the data dictionary ({@code ALL_TAB_COLUMNS}, {@code ALL_CONS_COLUMNS})
 * describes them, and how a {@code SQL_REDO} value of each becomes an event value, losslessly.
 */
package io.changegrid.fetchers.logminer.schema;

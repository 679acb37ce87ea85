/**
 * Target tables: the target's image of each source table version (its columns and statements),
 * creating it from the source schema, and applying or refusing source schema changes before the
 * first row that needs them.
 */
package io.changegrid.appliers.schema;

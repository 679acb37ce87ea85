/**
 * Transformation: renaming databases, tables and columns, selecting and dropping columns, masking
 * values and adding columns. A {@link io.changegrid.policy.transform.TransformSpec} is the parsed
 * definition; {@link io.changegrid.policy.transform.RowTransformer} is it bound to one table schema
 * version, with the output schema and the column mapping computed once.
 */
package io.changegrid.policy.transform;

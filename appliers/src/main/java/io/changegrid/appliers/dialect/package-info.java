/**
 * The SQL each target speaks: identifier quoting, the blind upsert and delete by key, DDL for
 * tables, columns and the checkpoint table, and the session settings the applier relies on.
 */
package io.changegrid.appliers.dialect;

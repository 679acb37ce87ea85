/**
 * The source-independent change event: one row change (or control event) of one source transaction,
 * positioned on its source's timeline by an SCN. Depends on nothing of changegrid's.
 */
package io.changegrid.events;

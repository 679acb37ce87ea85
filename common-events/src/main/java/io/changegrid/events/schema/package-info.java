/**
 * Table schemas (columns, types, keys) as versions in a registry, so that every event can name the
 * exact schema that decodes it, across DDL and restarts.
 */
package io.changegrid.events.schema;

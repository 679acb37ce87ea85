/**
 * The table schemas a consumer decodes row images with: fetched from the relay that served the
 * frames, once per (table id, schema version), and kept per relay.
 */
package io.changegrid.consumer.schema;

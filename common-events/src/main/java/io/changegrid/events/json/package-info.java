/**
 * The JSON form of events and schemas (Jackson streaming), for HTTP consumers in other languages,
 * for persisted schema history, and for humans.
 */
package io.changegrid.events.json;

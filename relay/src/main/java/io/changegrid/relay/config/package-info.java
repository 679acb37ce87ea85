/** The relay's settings, each defined once with type, default, rule and doc. */
package io.changegrid.relay.config;

/**
 * Configuration as data: each setting defined once ({@link io.changegrid.config.ConfigKey}) with
 * type, default, rule and doc; files validated into immutable values with every problem reported at
 * once; the reference documentation generated from the same definitions.
 */
package io.changegrid.config;

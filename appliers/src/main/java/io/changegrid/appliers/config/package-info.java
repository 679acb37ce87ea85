/** The applier process's settings, defined once with their defaults, rules and documentation. */
package io.changegrid.appliers.config;
